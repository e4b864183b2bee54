/// Decodes an Arazzo 1.0.x document from its YAML (or JSON) root node, recording a located diagnostic for every
/// part that does not follow the specification, and leaving that part out.
///
/// Decoding checks each object on its own: required and unknown fields (specification extensions, `x-…`, are
/// allowed wherever Arazzo allows them), value types and enumerations, the criteria and the runtime expressions.
/// What spans objects (ids that must be unique or exist, references into `components`, `goto` targets) is
/// ``ArazzoReferenceCheck``'s.
package struct ArazzoDecoder {
    /// The most retries a `retry` action may ask for: flowrun tries a step at most 100 times.
    static let maxRetryLimit = 99
    /// The longest total wait (`retryAfter` × `retryLimit`, in seconds) before a `retry` action gets a warning.
    static let longestRetryWait = 900.0

    /// What decoding found, in document order.
    package internal(set) var diagnostics: [Diagnostic] = []
    /// Every runtime expression that parsed, where it is written and in which workflow and step, for
    /// ``ArazzoReferenceCheck`` to resolve.
    package internal(set) var expressionUses: [ArazzoExpressionUse] = []
    /// The workflow and step being decoded; `nil` inside `components`, whose parts belong to no step until one
    /// references them.
    var currentWorkflowID: String?
    var currentStepID: String?

    package init() {}

    /// Whether a root node is an Arazzo document rather than a flowrun workflow: a mapping with an `arazzo` key.
    package static func isArazzoDocument(_ root: YAMLNode) -> Bool {
        root.mapping?.contains { $0.key.scalar?.text == "arazzo" } ?? false
    }

    /// Decodes the document at `path` from its root node.
    package mutating func decode(_ root: YAMLNode, path: String) -> ArazzoDocument {
        let missing = Located("", at: root.location)
        var document = ArazzoDocument(
            path: path, version: missing, info: ArazzoDocument.Info(title: missing, version: missing))
        guard let top = reader(
            root, "the Arazzo document", ["arazzo", "info", "sourceDescriptions", "workflows", "components"],
            required: ["arazzo", "info", "sourceDescriptions", "workflows"])
        else { return document }
        if let node = top["arazzo"] {
            let text = node.scalar?.text ?? ""
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 3, parts[0] == "1", parts[1] == "0", !parts[2].isEmpty, parts[2].allSatisfy(\.isNumber) {
                document.version = Located(text, at: node.location)
            } else {
                report(.unsupportedVersion, "unsupported Arazzo version '\(text)'; flowrun reads Arazzo 1.0.x, as in 'arazzo: 1.0.1'", node)
            }
        }
        if let node = top["info"], let info = reader(node, "'info'", ["title", "summary", "description", "version"], required: ["title", "version"]) {
            document.info.title = info["title"].flatMap { text($0, "'title'") } ?? missing
            document.info.version = info["version"].flatMap { text($0, "'version'", acceptingScalars: true) } ?? missing
            document.info.summary = info["summary"].flatMap { text($0, "'summary'")?.value }
            document.info.description = info["description"].flatMap { text($0, "'description'")?.value }
        }
        if let node = top["sourceDescriptions"] {
            document.sources = list(node, "'sourceDescriptions'", atLeastOne: true).compactMap { source($0) }
        }
        if let node = top["workflows"] {
            document.workflows = list(node, "'workflows'", atLeastOne: true).compactMap { workflow($0) }
        }
        if let node = top["components"] { document.components = components(node) }
        return document
    }

    // MARK: Objects

    private mutating func source(_ node: YAMLNode) -> ArazzoDocument.Source? {
        guard let fields = reader(node, "a source description", ["name", "url", "type"], required: ["name", "url"]),
            let name = fields["name"].flatMap({ text($0, "a source's 'name'") }),
            let url = fields["url"].flatMap({ text($0, "a source's 'url'") })
        else { return nil }
        checkNamePattern(name, "a source description's name")
        var type: Located<String>?
        if let node = fields["type"], let value = text(node, "a source's 'type'") {
            if value.value == "openapi" || value.value == "arazzo" {
                type = value
            } else {
                report(.invalidValue, "unknown source type '\(value.value)'; expected openapi or arazzo", node)
            }
        }
        return ArazzoDocument.Source(name: name, url: url, type: type)
    }

    private mutating func workflow(_ node: YAMLNode) -> ArazzoWorkflow? {
        guard let fields = reader(
            node, "a workflow",
            ["workflowId", "summary", "description", "inputs", "dependsOn", "steps", "successActions", "failureActions",
             "outputs", "parameters"],
            required: ["workflowId", "steps"]),
            let id = fields["workflowId"].flatMap({ text($0, "'workflowId'") })
        else { return nil }
        checkNamePattern(id, "a workflowId")
        currentWorkflowID = id.value
        defer { currentWorkflowID = nil }
        var workflow = ArazzoWorkflow(id: id, location: node.location)
        workflow.summary = fields["summary"].flatMap { text($0, "'summary'")?.value }
        workflow.description = fields["description"].flatMap { text($0, "'description'")?.value }
        if let inputs = fields["inputs"] {
            if inputs.mapping == nil {
                report(.typeMismatch, "expected 'inputs' to be a JSON Schema object, found \(inputs.kindDescription)", inputs)
            } else {
                workflow.inputs = inputs
            }
        }
        if let node = fields["dependsOn"] {
            workflow.dependsOn = list(node, "'dependsOn'").compactMap { text($0, "a 'dependsOn' entry") }
        }
        if let node = fields["steps"] {
            workflow.steps = list(node, "'steps'", atLeastOne: true).compactMap { step($0) }
        }
        if let node = fields["successActions"] {
            workflow.successActions = reusables(node, "'successActions'") { decoder, node in decoder.action(node, success: true) }
        }
        if let node = fields["failureActions"] {
            workflow.failureActions = reusables(node, "'failureActions'") { decoder, node in decoder.action(node, success: false) }
        }
        if let node = fields["outputs"] { workflow.outputs = outputs(node) }
        if let node = fields["parameters"] {
            workflow.parameters = reusables(node, "'parameters'") { decoder, node in decoder.parameter(node) }
        }
        return workflow
    }

    private mutating func step(_ node: YAMLNode) -> ArazzoStep? {
        guard let fields = reader(
            node, "a step",
            ["description", "stepId", "operationId", "operationPath", "workflowId", "parameters", "requestBody",
             "successCriteria", "onSuccess", "onFailure", "outputs"],
            required: ["stepId"]),
            let id = fields["stepId"].flatMap({ text($0, "'stepId'") })
        else { return nil }
        checkNamePattern(id, "a stepId")
        currentStepID = id.value
        defer { currentStepID = nil }
        var step = ArazzoStep(id: id, location: node.location)
        step.description = fields["description"].flatMap { text($0, "'description'")?.value }
        let targets = ["operationId", "operationPath", "workflowId"].filter { fields.contains($0) }
        if targets.count > 1 {
            report(.invalidValue,
                   "step '\(id.value)' has \(targets.joined(separator: " and ")); a step calls one operation or workflow",
                   fields.keyNode(targets[1]) ?? node)
        } else if targets.isEmpty {
            report(.missingKey, "step '\(id.value)' calls nothing: it needs operationId, operationPath or workflowId", node)
        }
        if let key = targets.first, let target = fields[key].flatMap({ text($0, "'\(key)'") }) {
            switch key {
            case "operationId":
                if target.value.hasPrefix("$") { checkExpression(target.value, in: fields[key]!) }
                step.target = .operationID(target)
            case "operationPath":
                checkEmbeddedExpressions(target.value, in: fields[key]!)
                step.target = .operationPath(target)
            default:
                if target.value.hasPrefix("$") { checkExpression(target.value, in: fields[key]!) }
                step.target = .workflowID(target)
            }
        }
        let callsWorkflow = targets == ["workflowId"]
        if let node = fields["parameters"] {
            step.parameters = reusables(node, "'parameters'") { decoder, node in
                decoder.parameter(node, needsPlacement: !callsWorkflow)
            }
        }
        if let node = fields["requestBody"] { step.requestBody = requestBody(node) }
        if let node = fields["successCriteria"] { step.successCriteria = list(node, "'successCriteria'").compactMap { criterion($0) } }
        if let node = fields["onSuccess"] {
            step.onSuccess = reusables(node, "'onSuccess'") { decoder, node in decoder.action(node, success: true) }
        }
        if let node = fields["onFailure"] {
            step.onFailure = reusables(node, "'onFailure'") { decoder, node in decoder.action(node, success: false) }
        }
        if let node = fields["outputs"] { step.outputs = outputs(node) }
        return step
    }

    /// A parameter; `needsPlacement` for one of a step that calls an operation, which must say where it goes.
    mutating func parameter(_ node: YAMLNode, needsPlacement: Bool = false) -> ArazzoParameter? {
        guard let fields = reader(node, "a parameter", ["name", "in", "value"], required: ["name", "value"]),
            let name = fields["name"].flatMap({ text($0, "a parameter's 'name'") }), let value = fields["value"]
        else { return nil }
        if needsPlacement, !fields.contains("in") {
            report(.missingKey,
                   "parameter '\(name.value)' needs 'in' (path, query, header or cookie): only the parameters of a step "
                       + "that calls a workflow may leave it out",
                   node)
        }
        var placement: Located<String>?
        if let node = fields["in"], let text = text(node, "a parameter's 'in'") {
            if ["path", "query", "header", "cookie"].contains(text.value) {
                placement = text
            } else {
                let suggestion = Suggestion.closest(to: text.value, in: ["path", "query", "header", "cookie"])
                report(.invalidValue,
                       "unknown parameter location '\(text.value)'"
                           + (suggestion.map { "; did you mean '\($0)'?" } ?? "; expected path, query, header or cookie"),
                       node)
            }
        }
        checkValueExpressions(value)
        return ArazzoParameter(name: name, placement: placement, value: value)
    }

    mutating func action(_ node: YAMLNode, success: Bool) -> ArazzoAction? {
        let context = success ? "a success action" : "a failure action"
        let allowed = success
            ? ["name", "type", "workflowId", "stepId", "criteria"]
            : ["name", "type", "workflowId", "stepId", "retryAfter", "retryLimit", "criteria"]
        guard let fields = reader(node, context, allowed, required: ["name", "type"]),
            let name = fields["name"].flatMap({ text($0, "an action's 'name'") }),
            let typeNode = fields["type"], let type = text(typeNode, "an action's 'type'")
        else { return nil }
        let kinds: [ArazzoAction.Kind] = success ? [.end, .goto] : [.end, .retry, .goto]
        guard let kind = ArazzoAction.Kind(rawValue: type.value), kinds.contains(kind) else {
            let names = kinds.map(\.rawValue)
            let suggestion = Suggestion.closest(to: type.value, in: names)
            report(.invalidValue,
                   "unknown type '\(type.value)' of \(context)"
                       + (suggestion.map { "; did you mean '\($0)'?" } ?? "; expected \(names.joined(separator: " or "))"),
                   typeNode)
            return nil
        }
        var action = ArazzoAction(name: name, kind: Located(kind, at: type.location), location: node.location)
        action.workflowID = fields["workflowId"].flatMap { text($0, "an action's 'workflowId'") }
        action.stepID = fields["stepId"].flatMap { text($0, "an action's 'stepId'") }
        if let workflowID = action.workflowID, workflowID.value.hasPrefix("$") {
            checkExpression(workflowID.value, in: fields["workflowId"]!)
        }
        if action.workflowID != nil, action.stepID != nil {
            report(.invalidValue, "\(context) names both a stepId and a workflowId; it goes to one of them", fields.keyNode("workflowId")!)
        }
        switch kind {
        case .goto where action.workflowID == nil && action.stepID == nil:
            report(.missingKey, "a goto action needs a stepId or a workflowId to go to", node)
        case .end where action.workflowID != nil || action.stepID != nil:
            report(.invalidValue, "an end action goes nowhere: its stepId or workflowId is never used", fields.keyNode("stepId") ?? fields.keyNode("workflowId")!)
        default:
            break
        }
        if let node = fields["retryAfter"] {
            if let value = Self.number(node), value >= 0 {
                action.retryAfter = Located(value, at: node.location)
            } else {
                report(.invalidValue, "'retryAfter' is a number of seconds, zero or more", node)
            }
        }
        if let node = fields["retryLimit"] {
            if case .int(let value)? = node.scalar?.value, value > Self.maxRetryLimit {
                // Every flowrun loop is bounded, and this one's total time grows with it.
                report(.invalidValue,
                       "'retryLimit' is at most \(Self.maxRetryLimit) in flowrun: a step is tried at most "
                           + "\(Self.maxRetryLimit + 1) times, so that a retry loop's total time has a bound", node)
            } else if case .int(let value)? = node.scalar?.value, value >= 0 {
                action.retryLimit = Located(value, at: node.location)
                // A double, printed as JSON prints numbers: `retryAfter: 1e308` makes a total no Int holds.
                let total = (action.retryAfter?.value ?? 0) * Double(value)
                if total > Self.longestRetryWait {
                    report(.invalidValue,
                           "this retry may wait \(JSONValue.numberText(total)) s in all (\(value) × "
                               + "\(JSONValue.numberText(action.retryAfter?.value ?? 0)) s), over "
                               + "\(JSONValue.numberText(Self.longestRetryWait)) s: a step would hold the run that long",
                           node, severity: .warning)
                }
            } else {
                report(.invalidValue, "'retryLimit' is a whole number of retries, zero or more", node)
            }
        }
        if kind != .retry, let key = ["retryAfter", "retryLimit"].first(where: fields.contains) {
            report(.invalidValue, "'\(key)' applies only to a retry action", fields.keyNode(key)!, severity: .warning)
        }
        if let node = fields["criteria"] { action.criteria = list(node, "'criteria'").compactMap { criterion($0) } }
        return action
    }

    private mutating func criterion(_ node: YAMLNode) -> Located<ArazzoCriterion>? {
        guard let fields = reader(node, "a criterion", ["context", "condition", "type"], required: ["condition"]),
            let conditionNode = fields["condition"], let condition = text(conditionNode, "'condition'")
        else { return nil }
        let context = fields["context"].flatMap { text($0, "'context'") }
        if let context { checkExpression(context.value, in: fields["context"]!) }
        var type: String?
        var version: String?
        if let typeNode = fields["type"] {
            if typeNode.mapping != nil {
                guard let expressionType = reader(typeNode, "a criterion expression type", ["type", "version"], required: ["type", "version"])
                else { return nil }
                type = expressionType["type"].flatMap { text($0, "'type'")?.value }
                version = expressionType["version"].flatMap { text($0, "'version'", acceptingScalars: true)?.value }
            } else {
                type = text(typeNode, "'type'")?.value
            }
        }
        do {
            let criterion = try ArazzoCriterion(
                condition: condition.value, type: type, expressionTypeVersion: version, context: context?.value)
            if case .simple(let parsed) = criterion.kind {
                for expression in parsed.expressions {
                    checkExpression(expression.text, in: conditionNode, offset: expression.offset)
                }
            }
            return Located(criterion, at: node.location)
        } catch {
            let at: SourceLocation =
                switch error.field {
                case .condition: conditionNode.location(ofTextOffset: error.offset ?? 0)
                case .context: node.location
                case .type: fields["type"]?.location ?? node.location
                }
            diagnostics.append(Diagnostic(.error, .invalidExpression, error.message, at: at))
            return nil
        }
    }

    private mutating func requestBody(_ node: YAMLNode) -> ArazzoRequestBody? {
        guard let fields = reader(node, "'requestBody'", ["contentType", "payload", "replacements"]) else { return nil }
        var body = ArazzoRequestBody()
        body.contentType = fields["contentType"].flatMap { text($0, "'contentType'") }
        body.payload = fields["payload"]
        if let payload = body.payload { checkValueExpressions(payload) }
        if let node = fields["replacements"] {
            body.replacements = list(node, "'replacements'").compactMap { node -> (target: Located<JSONPointer>, value: YAMLNode)? in
                guard let replacement = reader(node, "a payload replacement", ["target", "value"], required: ["target", "value"]),
                    let targetNode = replacement["target"], let target = text(targetNode, "'target'"),
                    let value = replacement["value"]
                else { return nil }
                do throws(ExpressionSyntaxError) {
                    let pointer = try JSONPointer(parsing: target.value)
                    checkValueExpressions(value)
                    return (Located(pointer, at: target.location), value)
                } catch {
                    diagnostics.append(Diagnostic(
                        .error, .invalidValue,
                        "a replacement's target is a JSON pointer such as /items/0/quantity (XPath is not supported): "
                            + error.message,
                        at: targetNode.location(ofTextOffset: error.offset)))
                    return nil
                }
            }
        }
        return body
    }

    private mutating func components(_ node: YAMLNode) -> ArazzoDocument.Components {
        var components = ArazzoDocument.Components()
        guard let fields = reader(node, "'components'", ["inputs", "parameters", "successActions", "failureActions"]) else {
            return components
        }
        func named(_ key: String) -> [(name: Located<String>, value: YAMLNode)] {
            guard let node = fields[key] else { return [] }
            let entries = namedEntries(node, "'components.\(key)'", diagnostics: &diagnostics) ?? []
            for entry in entries { checkNamePattern(entry.name, "a components key", pattern: .componentKey) }
            return entries
        }
        components.inputs = named("inputs").map { ($0.name, $0.value) }
        components.parameters = named("parameters").compactMap { entry in parameter(entry.value).map { (entry.name, $0) } }
        components.successActions = named("successActions").compactMap { entry in
            action(entry.value, success: true).map { (entry.name, $0) }
        }
        components.failureActions = named("failureActions").compactMap { entry in
            action(entry.value, success: false).map { (entry.name, $0) }
        }
        return components
    }

    // MARK: Parts

    /// A list of objects, each an inline object or a Reusable Object (`reference`, and for parameters `value`).
    private mutating func reusables<Object>(
        _ node: YAMLNode, _ context: String, _ decode: (inout ArazzoDecoder, YAMLNode) -> Object?
    ) -> [ArazzoReusable<Object>] {
        list(node, context).compactMap { element -> ArazzoReusable<Object>? in
            guard let mapping = element.mapping, mapping.contains(where: { $0.key.scalar?.text == "reference" }) else {
                return decode(&self, element).map { .object($0) }
            }
            // A Reusable Object "cannot be extended": other fields are ignored, as the specification says.
            guard let fields = reader(element, "a reusable object", ["reference", "value"], required: ["reference"], ignoringOthers: true),
                let referenceNode = fields["reference"], let reference = text(referenceNode, "'reference'")
            else { return nil }
            checkExpression(reference.value, in: referenceNode)
            if let value = fields["value"] { checkValueExpressions(value) }
            return .reference(reference, value: fields["value"])
        }
    }

    /// `outputs`: names matching Arazzo's key pattern, each a runtime expression.
    private mutating func outputs(_ node: YAMLNode) -> [(name: Located<String>, value: YAMLNode)] {
        let entries = namedEntries(node, "'outputs'", diagnostics: &diagnostics) ?? []
        for entry in entries {
            checkNamePattern(entry.name, "an output name", pattern: .componentKey)
            if case .string(let text)? = entry.value.scalar?.value, text.hasPrefix("$") {
                checkExpression(text, in: entry.value)
            } else {
                checkValueExpressions(entry.value)
            }
        }
        return entries
    }
}
