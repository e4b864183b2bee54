/// Lowers one workflow of a checked Arazzo document into flowrun's ``Workflow``, which the compiler then checks and
/// plans like any other: Arazzo runs on the same engine, with the same reports, HTTP client and test runner.
///
/// | Arazzo | flowrun |
/// |---|---|
/// | a step with `operationId` / `operationPath` | an `operation:` step of the step's OpenAPI source, its `parameters` placed by their `in` |
/// | the order of the steps | each step runs `after:` the one before it |
/// | `successCriteria` | ``Step/successCriteria``: they alone judge the response |
/// | `onSuccess` (and the workflow's `successActions`) | ``Step/onSuccess`` rules: `end`, `goto` |
/// | `onFailure` `retry` (and the workflow's `failureActions`) | retry rules of a policy of the step's own |
/// | `onFailure` `goto` / `end` | the step's `on-error` rules: `goto`, or ``CatchRule/Action/fail`` |
/// | `requestBody` (`payload`, `replacements`) | a JSON, form or text body |
/// | step and workflow `outputs`, `inputs` | outputs and inputs |
///
/// An action's criteria read the response of the step, as flowrun's catch rules do. The actions defined on the
/// workflow apply to every step, after the step's own; a step's action of the same name replaces the workflow's.
struct ArazzoLowering {
    /// How many times a `goto` may run its target in one run, its first run included: Arazzo sets no limit, and
    /// flowrun bounds every loop.
    static let maxVisits = 100

    /// The checked document, with the operations its steps resolved to (local copies of sources, `--source`,
    /// were read by then) and the absolute paths of its sources.
    let checked: ArazzoCheck.Checked
    /// Server URLs by source name (`--server`): the base URL the source's operations are sent to instead of the
    /// first server of its OpenAPI document.
    let serverURLs: [String: String]
    private(set) var diagnostics: [Diagnostic] = []
    /// The outputs of the workflow being lowered's steps that run workflows, as ``outputAliases(of:)`` gives them.
    private var aliases: [String: [String: String]] = [:]
    /// What the step being lowered sends, for `$method` and `$request.…` in its outputs and criteria: `method`,
    /// `query.<name>`, `header.<name>` (lower-case), `path.<name>`, `body`.
    private var request: [String: ValueTemplate] = [:]

    init(_ checked: ArazzoCheck.Checked, serverURLs: [String: String] = [:]) {
        self.checked = checked
        self.serverURLs = serverURLs
    }

    private var document: ArazzoDocument { checked.document }

    private mutating func error(_ code: FlowError.Code, _ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.error, code, message, at: location))
    }

    /// The workflow `id` names, or the document's only workflow when `id` is `nil`.
    mutating func select(_ id: String?) -> ArazzoWorkflow? {
        let ids = document.workflows.map(\.id.value)
        if let id {
            if let found = document.workflows.first(where: { $0.id.value == id }) { return found }
            error(.unknownReference,
                  "the document has no workflow '\(id)'\(Suggestion.didYouMean(id, in: ids)); its workflows: "
                      + ids.joined(separator: ", "),
                  at: document.info.title.location)
            return nil
        }
        guard document.workflows.count == 1 else {
            error(.missingKey,
                  "the document has \(document.workflows.count) workflows; choose one with --workflow: "
                      + ids.joined(separator: ", "),
                  at: document.info.title.location)
            return nil
        }
        return document.workflows[0]
    }

    /// Lowers `workflow`.
    mutating func lower(_ arazzo: ArazzoWorkflow) -> Workflow {
        var workflow = Workflow(path: document.path)
        workflow.name = arazzo.id.value
        workflow.summary = arazzo.summary
        workflow.description = arazzo.description
        workflow.arazzoWorkflowID = arazzo.id.value
        for source in document.sources where source.type?.value != "arazzo" {
            guard let path = checked.sourcePaths[source.name.value] else { continue }
            workflow.openAPISources.append(OpenAPISource(name: source.name, path: Located(path, at: source.url.location)))
            if let url = serverURLs[source.name.value] {
                workflow.servers.append(
                    Server(name: Located(source.name.value, at: source.name.location), url: .literal(.string(url))))
            }
        }
        if let inputs = mergedInputs(of: arazzo) { workflow.inputs = inputSchema(inputs, types: &workflow.types) }
        let extensions = checked.extensions
        workflow.environment = extensions.environment
        workflow.interceptors = extensions.interceptors
        workflow.policies = extensions.policies
        aliases = Self.outputAliases(of: arazzo)
        let successActions = resolve(arazzo.successActions, in: \.successActions)
        let failureActions = resolve(arazzo.failureActions, in: \.failureActions)
        let workflowParameters = Self.resolve(arazzo.parameters, in: document)
        var previous: String?
        // The workflows it depends on run first, each as a step that calls it with the run's inputs it declares (the
        // run takes them: ``mergedInputs(of:)``); `$workflows.<id>.outputs.<name>` reads that step's outputs.
        for dependency in arazzo.dependsOn {
            guard let called = document.workflows.first(where: { $0.id.value == dependency.value }) else { continue }
            // An input whose name no expression can read (`$inputs.a b`) is not passed on: the called workflow then
            // reports it missing if it needs it.
            let inputs = Self.inputNames(called.inputs, in: document).compactMap { name -> Binding? in
                guard let read = try? RuntimeExpression(parsing: "$inputs.\(name)") else { return nil }
                return Binding(name: Located(name, at: dependency.location), value: .expression(read, dependency.location))
            }
            let placeholder = Request(
                method: Located("GET", at: dependency.location), path: .literal(.string("/")),
                pathLocation: dependency.location)
            var step = Step(
                id: Located(Self.dependencyStepID(dependency.value), at: dependency.location),
                location: dependency.location, request: placeholder)
            step.call = callOf(dependency, inputs: inputs)
            if let previous { step.after = [Located(previous, at: dependency.location)] }
            previous = step.id.value
            workflow.steps.append(step)
        }
        for arazzoStep in arazzo.steps {
            guard var step = lower(arazzoStep, of: arazzo, workflowParameters: workflowParameters) else { continue }
            if let previous { step.after = [Located(previous, at: arazzoStep.id.location)] }
            step.onSuccess = successRules(
                merging: resolve(arazzoStep.onSuccess, in: \.successActions), over: successActions, in: arazzoStep)
            // flowrun's own interceptors and policy, when the document opts into them (a step's over its workflow's).
            let chosen = extensions.steps[arazzo.id.value]?[arazzoStep.id.value]
            let defaults = extensions.workflows[arazzo.id.value]
            if step.call == nil {
                step.interceptors = chosen?.interceptors ?? defaults?.interceptors
                step.policy = chosen?.policy ?? defaults?.policy
            }
            failureRules(
                merging: resolve(arazzoStep.onFailure, in: \.failureActions), over: failureActions, into: &step,
                workflow: &workflow)
            previous = step.id.value
            workflow.steps.append(step)
        }
        for (name, value) in arazzo.outputs {
            workflow.outputs.append(Binding(name: name, value: template(value)))
        }
        return workflow
    }

    // MARK: Inputs

    /// The workflow's `inputs` schema, following a `$ref` to a component; the components' schemas become types so
    /// that references between them resolve. Keys flowrun's schemas do not read (annotations such as `examples`)
    /// are left out.
    ///
    /// A part of a schema that flowrun's schemas cannot express (a boolean schema, say) is a warning: the inputs
    /// are then checked less strictly than the document says, never more.
    private mutating func inputSchema(_ node: YAMLNode, types: inout [NamedType]) -> JSONSchema {
        var decoder = WorkflowDecoder()
        for (name, schema) in document.components.inputs {
            // Named by the reference that reaches it, which is what a `$ref` in a schema names.
            var type = NamedType(
                name: Located(Self.componentInputsPrefix + name.value, at: name.location), schema: decoder.schema(schema))
            type.imported = true
            types.append(type)
        }
        let schema = decoder.schema(resolvedInputs(node))
        for var diagnostic in decoder.diagnostics where diagnostic.code != .unknownKey {
            diagnostic.severity = .warning
            diagnostic.message += "; flowrun does not check this part of the inputs schema"
            diagnostics.append(diagnostic)
        }
        return schema
    }

    /// The `inputs` of `arazzo`, with those of the workflows it depends on: they run first with the run's inputs,
    /// so the run takes theirs too (their properties and required names added to its own).
    private func mergedInputs(of arazzo: ArazzoWorkflow) -> YAMLNode? {
        let dependencies = arazzo.dependsOn.compactMap { id in document.workflows.first { $0.id.value == id.value } }
        let nodes = ([arazzo.inputs] + dependencies.map(\.inputs)).compactMap { $0.map(resolvedInputs) }
        guard dependencies.contains(where: { $0.inputs != nil }), let own = nodes.first else { return arazzo.inputs }
        func member(_ key: String, of node: YAMLNode) -> YAMLNode? {
            node.mapping?.first { $0.key.scalar?.value == .string(key) }?.value
        }
        var properties: [YAMLPair] = []
        var required: [YAMLNode] = []
        for node in nodes {
            for pair in member("properties", of: node)?.mapping ?? []
            where !properties.contains(where: { $0.key.scalar?.value == pair.key.scalar?.value }) {
                properties.append(pair)
            }
            for name in member("required", of: node)?.sequence ?? []
            where !required.contains(where: { $0.scalar?.value == name.scalar?.value }) {
                required.append(name)
            }
        }
        func scalar(_ text: String) -> YAMLNode {
            YAMLNode(.scalar(YAMLScalar(text: text, style: .plain, value: .string(text))), at: own.location)
        }
        return YAMLNode(.mapping([
            YAMLPair(key: scalar("type"), value: scalar("object")),
            YAMLPair(key: scalar("properties"), value: YAMLNode(.mapping(properties), at: own.location)),
            YAMLPair(key: scalar("required"), value: YAMLNode(.sequence(required), at: own.location)),
        ]), at: own.location)
    }

    /// An `inputs` schema, or the component schema its `$ref` names.
    private func resolvedInputs(_ node: YAMLNode) -> YAMLNode { Self.resolvedInputs(node, in: document) }

    private static func resolvedInputs(_ node: YAMLNode, in document: ArazzoDocument) -> YAMLNode {
        guard let pairs = node.mapping, pairs.count == 1, case .string("$ref")? = pairs[0].key.scalar?.value,
            case .string(let reference)? = pairs[0].value.scalar?.value,
            let component = document.components.inputs.first(where: { componentInputsPrefix + $0.name.value == reference })
        else { return node }
        return component.schema
    }

    /// What a `$ref` to an input schema among the components starts with.
    private static let componentInputsPrefix = "#/components/inputs/"

    // MARK: Steps

    private mutating func lower(
        _ arazzoStep: ArazzoStep, of arazzo: ArazzoWorkflow, workflowParameters: [ArazzoParameter]
    ) -> Step? {
        let id = arazzoStep.id
        request = [:]
        let placeholder = Request(
            method: Located("GET", at: id.location), path: .literal(.string("/")), pathLocation: id.location)
        var step = Step(id: id, location: arazzoStep.location, request: placeholder)
        step.description = arazzoStep.description
        step.isArazzo = true
        switch arazzoStep.target {
        case .workflowID(let called)?:
            let parameters = Self.resolve(arazzoStep.parameters, in: document) + workflowParameters.filter { inherited in
                !arazzoStep.parameters.contains {
                    if case .object(let own) = $0 { own.name.value == inherited.name.value } else { false }
                }
            }
            step.call = callOf(called, inputs: parameters.map { Binding(name: $0.name, value: template($0.value)) })
            if !arazzoStep.successCriteria.isEmpty {
                diagnostics.append(Diagnostic(
                    .warning, .unsupported,
                    "step '\(id.value)' runs a workflow, which has no response of its own: its successCriteria are not "
                        + "evaluated; the step succeeds when the workflow does",
                    at: arazzoStep.successCriteria[0].location))
            }
            step.outputs = []
            return step
        case .operationID(let written)?, .operationPath(let written)?:
            guard let operation = checked.operations[ArazzoOperationCheck.key(arazzo.id.value, id.value)] else {
                if checked.sourcePaths.isEmpty || !document.sources.contains(where: { checked.sourcePaths[$0.name.value] != nil }) {
                    error(.unreadableFile,
                          "step '\(id.value)' calls an operation of a source flowrun could not read; give a local "
                              + "copy with --source NAME=PATH",
                          at: written.location)
                }
                return nil
            }
            let own = Self.resolve(arazzoStep.parameters, in: document)
            let inherited = workflowParameters.filter { parameter in
                !own.contains { $0.name.value == parameter.name.value && $0.placement?.value == parameter.placement?.value }
            }
            let parameters = own + inherited
            var call = OperationCall(
                reference: Located("\(operation.source)#\(operation.pointer)", at: written.location),
                parameters: parameters.map { Binding(name: $0.name, value: template($0.value)) },
                parametersLocation: id.location)
            call.arazzoPlacements = parameters.map { $0.placement?.value ?? "query" }
            if let body = arazzoStep.requestBody {
                call.body = requestBody(body, operationContentType: operation.contentType, at: id.location)
            }
            step.operation = call
            // What `$method` and `$request.…` read in the step's outputs and criteria: what it sends.
            request = ["method": .literal(.string(operation.method))]
            for (binding, placement) in zip(call.parameters, call.arazzoPlacements ?? []) {
                let name = placement == "header" ? binding.name.value.lowercased() : binding.name.value
                request["\(placement).\(name)"] = binding.value
            }
            switch call.body {
            case .json(let value, _)?, .text(let value, _, _)?: request["body"] = value
            case .form(let fields, _)?:
                request["body"] = .object(Dictionary(fields.map { ($0.name.value, $0.value) }) { first, _ in first })
            case .multipart?, nil: break
            }
        case nil:
            return nil
        }
        step.successCriteria = lowered(arazzoStep.successCriteria)
        step.outputs = arazzoStep.outputs.map { Binding(name: $0.name, value: template($0.value)) }
        return step
    }

    /// A call of workflow `called` of this document, with `inputs`.
    private func callOf(_ called: Located<String>, inputs: [Binding]) -> SubWorkflowCall {
        let file = document.path.split(separator: "/").last.map(String.init) ?? document.path
        var call = SubWorkflowCall(path: Located(file, at: called.location), inputs: inputs)
        call.arazzoWorkflowID = called.value
        return call
    }

    /// A value written in the document as a template; an expression that reads a step's output without `.outputs`
    /// (which lint warns about) is read as if it had it.
    private mutating func template(_ node: YAMLNode) -> ValueTemplate {
        if case .string(let text)? = node.scalar?.value, let known = sent(text) { return known }
        return ValueTemplate.compile(withOutputs(node), into: &diagnostics)
    }

    /// What an expression that reads the step's request, or a source's url, stands for: `$method`,
    /// `$request.query|header|path.<name>`, `$request.body#/…` (what the step sends, as its parameters and body
    /// write it) and `$sourceDescriptions.<name>.url`; `nil` for any other text.
    private func sent(_ text: String) -> ValueTemplate? {
        guard text.hasPrefix("$"), let expression = try? ArazzoExpression.parsingLeniently(text).expression else {
            return nil
        }
        switch expression {
        case .method: return request["method"]
        case .request(.header(let name)): return request["header.\(name.lowercased())"]
        case .request(.query(let name)): return request["query.\(name)"]
        case .request(.path(let name)): return request["path.\(name)"]
        case .request(.body(let pointer)):
            return request["body"].flatMap { $0.member(at: pointer?.tokens[...] ?? []) }
        case .sourceDescription(let name, "url"):
            return document.sources.first { $0.name.value == name }.map { .literal(.string($0.url.value)) }
        default: return nil
        }
    }

    /// The text of what ``sent(_:)`` gives, in a criterion's condition: a literal as a condition writes one, an
    /// expression as its text; `nil` for a value built of parts, which a condition cannot hold.
    private func sentText(_ text: String) -> String? {
        switch sent(text) {
        case .literal(.string(let string))?: "'" + string.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .literal(let value)?: value.serialized()
        case .expression(let expression, _)?: expression.description
        default: nil
        }
    }

    /// `node` with its runtime expressions read as flowrun reads them (``flowrunText(_:aliases:)``).
    private func withOutputs(_ node: YAMLNode) -> YAMLNode {
        var node = node
        switch node.content {
        case .scalar(var scalar):
            guard case .string(let text) = scalar.value, text.contains("$steps.") || text.contains("$workflows.")
            else { return node }
            let fixed = text.hasPrefix("$") ? Self.flowrunText(text, aliases: aliases) : embeddedRewritten(text)
            guard fixed != text else { return node }
            scalar.value = .string(fixed)
            scalar.text = fixed
            scalar.source = nil
            node.content = .scalar(scalar)
        case .sequence(let elements):
            node.content = .sequence(elements.map { withOutputs($0) })
        case .mapping(let pairs):
            node.content = .mapping(pairs.map { YAMLPair(key: $0.key, value: withOutputs($0.value)) })
        }
        return node
    }

    /// `text` with each embedded `{$…}` expression read as flowrun reads it.
    private func embeddedRewritten(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let start = rest.index(after: open)
            result += rest[..<start]
            rest = rest[start...]
            guard rest.first == "$", let close = rest.firstIndex(of: "}") else { continue }
            result += Self.flowrunText(String(rest[..<close]), aliases: aliases)
            rest = rest[close...]
        }
        return result + rest
    }

    /// A runtime expression's text as flowrun reads it: `$steps.a.b` (no `.outputs`) as `$steps.a.outputs.b`;
    /// `$workflows.w.outputs.x` as the outputs of the step that ran `w` first (`dependsOn`), `$workflows.w.inputs.x`
    /// as the run's input `x` (with which `w` ran); and an output of a
    /// step that runs a workflow, `$steps.s.outputs.alias` where the step declares `alias: $outputs.x`, as the
    /// workflow's output `x` (the step's outputs are the workflow's).
    static func flowrunText(_ text: String, aliases: [String: [String: String]] = [:]) -> String {
        var text = text
        if text.hasPrefix("$steps."), (try? ArazzoExpression.parsingLeniently(text))?.warning != nil {
            let afterStep = text.dropFirst(7).firstIndex(of: ".").map { text.index(after: $0) } ?? text.endIndex
            text = String(text[..<afterStep]) + "outputs." + text[afterStep...]
        }
        switch try? ArazzoExpression.parsingLeniently(text).expression {
        case .workflowValue(let workflowID, .outputs, let name, let pointer)?:
            return "$steps.\(dependencyStepID(workflowID)).outputs.\(name)" + (pointer.map { "#\($0)" } ?? "")
        case .workflowValue(_, .inputs, let name, let pointer)?:
            // A workflow the run depends on ran with the run's own inputs.
            return "$inputs.\(name)" + (pointer.map { "#\($0)" } ?? "")
        case .stepOutput(let stepID, let name, let pointer)?:
            guard let original = aliases[stepID]?[name] else { return text }
            return "$steps.\(stepID).outputs.\(original)" + (pointer.map { "#\($0)" } ?? "")
        default:
            return text
        }
    }

    /// The id of the step that runs workflow `id` before the steps of a workflow that depends on it.
    static func dependencyStepID(_ id: String) -> String { "dependsOn-" + id }

    /// For each step that runs a workflow, its outputs by name: the called workflow's output each one reads
    /// (`alias: $outputs.x`).
    private static func outputAliases(of workflow: ArazzoWorkflow) -> [String: [String: String]] {
        var aliases: [String: [String: String]] = [:]
        for step in workflow.steps {
            guard case .workflowID? = step.target else { continue }
            for (name, value) in step.outputs {
                guard case .string(let text)? = value.scalar?.value,
                    case .outputs(let output, nil)? = try? ArazzoExpression.parsingLeniently(text).expression
                else { continue }
                aliases[step.id.value, default: [:]][name.value] = output
            }
        }
        return aliases
    }

    /// The properties an `inputs` schema declares, following a `$ref` to the components.
    private static func inputNames(_ node: YAMLNode?, in document: ArazzoDocument) -> [String] {
        guard let node = node.map({ resolvedInputs($0, in: document) }) else { return [] }
        guard let properties = node.mapping?.first(where: { $0.key.scalar?.value == .string("properties") })?.value
        else { return [] }
        return (properties.mapping ?? []).compactMap { pair in
            if case .string(let name)? = pair.key.scalar?.value { name } else { nil }
        }
    }

    /// `criteria` with their runtime expressions read as flowrun reads them (``flowrunText(_:aliases:)``), which
    /// is how the run evaluates them; each unreadable one is reported (``checkReadable(_:)``).
    private mutating func lowered(_ criteria: [Located<ArazzoCriterion>]) -> [Located<ArazzoCriterion>] {
        let lowered = criteria.map { located -> Located<ArazzoCriterion> in
            let criterion = located.value
            var condition = criterion.condition
            let type: String
            switch criterion.kind {
            case .simple(let parsed):
                type = "simple"
                var scalars = Array(condition.unicodeScalars)
                for (text, offset) in parsed.expressions.sorted(by: { $0.offset > $1.offset }) {
                    let count = text.unicodeScalars.count
                    guard offset + count <= scalars.count else { continue }
                    let replacement = sentText(text) ?? Self.flowrunText(text, aliases: aliases)
                    scalars.replaceSubrange(offset..<(offset + count), with: replacement.unicodeScalars)
                }
                condition = String(String.UnicodeScalarView(scalars))
            case .regex: type = "regex"
            case .jsonPath: type = "jsonpath"
            }
            let context = criterion.context.map { context in
                if case .expression(let expression, _)? = sent(context) { return expression.description }
                return Self.flowrunText(context, aliases: aliases)
            }
            guard condition != criterion.condition || context != criterion.context,
                let rewritten = try? ArazzoCriterion(condition: condition, type: type, context: context)
            else { return located }
            return Located(rewritten, at: located.location)
        }
        checkReadable(lowered)
        return lowered
    }

    /// Reports each runtime expression of `criteria` that flowrun cannot read at run time (`$url`, `$method`,
    /// `$request…`, `$workflows…`, …): such a criterion would never hold.
    private mutating func checkReadable(_ criteria: [Located<ArazzoCriterion>]) {
        for criterion in criteria {
            var texts: [String] = criterion.value.context.map { [$0] } ?? []
            if case .simple(let condition) = criterion.value.kind { texts += condition.expressions.map(\.text) }
            for text in texts where (try? RuntimeExpression(parsing: text)) == nil {
                error(.unsupported,
                      "flowrun cannot read '\(text)' when it runs a step yet; a criterion can read $statusCode, "
                          + "$response.body, $response.header.<name>, $inputs and $steps",
                      at: criterion.location)
            }
        }
    }

    /// The step's request body: a mapping or sequence is JSON (or form fields, for a form content type); a string
    /// that parses as JSON, with a JSON content type, is that JSON; any other string is sent as text. Each
    /// replacement then sets its target. Without a `contentType`, the operation's (its first) applies, and JSON
    /// when it declares none.
    private mutating func requestBody(
        _ body: ArazzoRequestBody, operationContentType: String?, at location: SourceLocation
    ) -> RequestBody? {
        guard var payload = body.payload else { return nil }
        let contentType = (body.contentType?.value ?? operationContentType)?.lowercased() ?? "application/json"
        let isJSON = contentType.hasSuffix("/json") || contentType.hasSuffix("+json")
        let isForm = contentType.hasPrefix("application/x-www-form-urlencoded")
        if isJSON, let scalar = payload.scalar, case .string(let text) = scalar.value,
            let parsed = try? YAMLLoader().load(Array(text.utf8), path: document.path), parsed.scalar == nil
        {
            payload = Self.relocated(parsed, to: payload.location)
        }
        var value = template(payload)
        if payload.scalar != nil, !isJSON {
            let written = body.contentType ?? operationContentType.map { Located($0, at: payload.location) }
            return .text(value, contentType: written, payload.location)
        }
        for (target, replacement) in body.replacements {
            guard let replaced = value.replacing(at: target.value.tokens[...], with: template(replacement)) else {
                error(.invalidValue,
                      "replacement target '\(target.value)' is not in the payload", at: target.location)
                continue
            }
            value = replaced
        }
        if isForm, let pairs = payload.mapping {
            // Form fields in the order the payload writes them, each with its value after the replacements.
            let members: [String: ValueTemplate] =
                switch value {
                case .object(let members): members
                case .literal(.object(let members)): members.mapValues { .literal($0) }
                default: [:]
                }
            let fields = pairs.compactMap { pair -> Binding? in
                guard case .string(let name)? = pair.key.scalar?.value, let member = members[name] else { return nil }
                return Binding(name: Located(name, at: pair.key.location), value: member)
            }
            return .form(fields, payload.location)
        }
        return .json(value, payload.location)
    }

    /// `node` and everything under it located at `location`: a payload string parsed as JSON is located where the
    /// string is.
    private static func relocated(_ node: YAMLNode, to location: SourceLocation) -> YAMLNode {
        var node = node
        node.location = location
        switch node.content {
        case .scalar(var scalar):
            scalar.source = nil
            // A string that is one embedded expression, "{$inputs.customer}", is the expression's value: the
            // way to put an object or a number into a payload written as JSON text.
            if case .string(let text) = scalar.value, text.hasPrefix("{$"), text.hasSuffix("}"),
                !text.dropFirst().contains("{"), text.firstIndex(of: "}") == text.index(before: text.endIndex)
            {
                let expression = String(text.dropFirst().dropLast())
                scalar.value = .string(expression)
                scalar.text = expression
            }
            node.content = .scalar(scalar)
        case .sequence(let elements):
            node.content = .sequence(elements.map { relocated($0, to: location) })
        case .mapping(let pairs):
            node.content = .mapping(pairs.map {
                YAMLPair(key: relocated($0.key, to: location), value: relocated($0.value, to: location))
            })
        }
        return node
    }

    // MARK: Actions

    /// Actions with component references resolved; a reference to nothing was reported by the checks.
    private func resolve(
        _ items: [ArazzoReusable<ArazzoAction>],
        in section: KeyPath<ArazzoDocument.Components, [(name: Located<String>, action: ArazzoAction)]>
    ) -> [ArazzoAction] {
        items.compactMap { item in
            switch item {
            case .object(let action): return action
            case .reference(let reference, _):
                guard case .component(_, let name)? = try? ArazzoExpression.parsingLeniently(reference.value).expression
                else { return nil }
                return document.components[keyPath: section].first { $0.name.value == name }?.action
            }
        }
    }

    /// The step's actions, then the workflow's that the step does not replace by name.
    private static func merged(_ own: [ArazzoAction], over inherited: [ArazzoAction]) -> [ArazzoAction] {
        own + inherited.filter { action in !own.contains { $0.name.value == action.name.value } }
    }

    private mutating func successRules(
        merging own: [ArazzoAction], over inherited: [ArazzoAction], in step: ArazzoStep
    ) -> [SuccessRule] {
        Self.merged(own, over: inherited).compactMap { action in
            let criteria = lowered(action.criteria)
            let kind: SuccessRule.Action
            switch action.kind.value {
            case .end:
                kind = .end
            case .goto:
                guard let target = target(of: action) else { return nil }
                kind = .goto(target)
            case .retry:
                return nil  // The decoder refuses a retry among success actions.
            }
            return SuccessRule(
                name: action.name.value, criteria: criteria, action: kind, location: action.location,
                maxVisits: Self.maxVisits)
        }
    }

    /// The failure actions: the `retry` ones become retry rules of a policy of the step's own, the others its
    /// `on-error` rules, in order.
    private mutating func failureRules(
        merging own: [ArazzoAction], over inherited: [ArazzoAction], into step: inout Step, workflow: inout Workflow
    ) {
        var policy = Policy(name: Located("\(step.id.value) (onFailure)", at: step.id.location))
        for action in Self.merged(own, over: inherited) {
            var when = ErrorMatcher(kinds: Self.failureKinds.map { Located($0, at: action.location) })
            when.criteria = lowered(action.criteria)
            switch action.kind.value {
            case .retry:
                if action.workflowID != nil || action.stepID != nil {
                    error(.unsupported,
                          "retry action '\(action.name.value)' runs another step or workflow before it retries, "
                              + "which this flowrun cannot do yet",
                          at: action.location)
                    continue
                }
                var rule = RetryRule(location: action.location)
                rule.when = when
                rule.attempts = (action.retryLimit?.value ?? 1) + 1
                rule.delay = .saturating(seconds: action.retryAfter?.value ?? 0)
                rule.backoff = .constant
                policy.retry.append(rule)
            case .goto:
                guard let target = target(of: action) else { continue }
                var rule = CatchRule(step: nil, when: when, action: .goto(target), location: action.location)
                rule.maxVisits = Self.maxVisits
                step.onError.append(rule)
            case .end:
                step.onError.append(CatchRule(step: nil, when: when, action: .fail, location: action.location))
            }
        }
        guard !policy.retry.isEmpty else { return }
        if let chosen = step.policy, let flowrun = workflow.policies.first(where: { $0.name.value == chosen.value }) {
            // The step's flowrun policy too: its timeouts and breaker, its retry rules after the Arazzo actions'.
            let retries = policy.retry
            policy = flowrun
            policy.name = Located("\(step.id.value) (onFailure, \(chosen.value))", at: step.id.location)
            policy.retry = retries + flowrun.retry
        }
        step.policy = policy.name
        // The author asked for the retries: Arazzo does not hold a POST back from them.
        step.idempotent = true
        workflow.policies.append(policy)
    }

    /// The failures an Arazzo failure action handles: every one a step can end with, except a cancelled run.
    private static let failureKinds = [
        "criteria", "http", "transport", "timeout", "decode", "validation", "binding", "circuit-open", "interceptor",
    ]

    /// The step a `goto` action continues at; one that goes to a workflow is reported.
    private mutating func target(of action: ArazzoAction) -> Located<String>? {
        if let stepID = action.stepID { return stepID }
        error(.unsupported,
              "action '\(action.name.value)' goes to workflow '\(action.workflowID?.value ?? "")', which this flowrun "
                  + "cannot do in an Arazzo document yet",
              at: action.workflowID?.location ?? action.location)
        return nil
    }

    // MARK: Parameters

    /// Parameters with component references resolved: a reference's parameter located at the reference, with the
    /// reference's `value` when it sets one.
    static func resolve(_ items: [ArazzoReusable<ArazzoParameter>], in document: ArazzoDocument) -> [ArazzoParameter] {
        items.compactMap { item in
            switch item {
            case .object(let parameter): return parameter
            case .reference(let reference, let value):
                guard case .component(.parameters, let name)? =
                    try? ArazzoExpression.parsingLeniently(reference.value).expression,
                    var parameter = document.components.parameters.first(where: { $0.name.value == name })?.parameter
                else { return nil }
                parameter.name.location = reference.location
                if let value { parameter.value = value }
                return parameter
            }
        }
    }
}

extension ValueTemplate {
    /// The part of the template at `tokens` (an RFC 6901 pointer's reference tokens); `nil` when the pointer reaches
    /// nothing that is known before the run (a member of an expression's value).
    func member(at tokens: ArraySlice<String>) -> ValueTemplate? {
        guard let token = tokens.first else { return self }
        let rest = tokens.dropFirst()
        switch self {
        case .object(let members): return members[token]?.member(at: rest)
        case .array(let elements):
            guard let index = Int(token), elements.indices.contains(index) else { return nil }
            return elements[index].member(at: rest)
        case .literal(let value):
            return JSONPointer(tokens: Array(tokens)).resolve(in: value).map { .literal($0) }
        case .expression, .string:
            return nil
        }
    }

    /// The template with the value at `tokens` (an RFC 6901 pointer's reference tokens) replaced by `replacement`;
    /// `nil` when the pointer reaches nothing.
    func replacing(at tokens: ArraySlice<String>, with replacement: ValueTemplate) -> ValueTemplate? {
        guard let token = tokens.first else { return replacement }
        let rest = tokens.dropFirst()
        switch self {
        case .object(var members):
            guard let member = members[token], let replaced = member.replacing(at: rest, with: replacement) else {
                return nil
            }
            members[token] = replaced
            return .object(members)
        case .array(var elements):
            guard let index = Int(token), elements.indices.contains(index),
                let replaced = elements[index].replacing(at: rest, with: replacement)
            else { return nil }
            elements[index] = replaced
            return .array(elements)
        case .literal(.object(let members)):
            return ValueTemplate.object(members.mapValues { .literal($0) }).replacing(at: tokens, with: replacement)
        case .literal(.array(let elements)):
            return ValueTemplate.array(elements.map { .literal($0) }).replacing(at: tokens, with: replacement)
        case .literal, .expression, .string:
            return nil
        }
    }
}
