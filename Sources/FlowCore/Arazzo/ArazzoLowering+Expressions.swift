/// Runtime expressions of an Arazzo document read as flowrun reads them: values, criteria, what a step sends,
/// and the outputs of the workflows a workflow calls or depends on.
extension ArazzoLowering {
    /// A value written in the document as a template; an expression that reads a step's output without `.outputs`
    /// (which lint warns about) is read as if it had it.
    mutating func template(_ node: YAMLNode) -> ValueTemplate {
        if case .string(let text)? = node.scalar?.value, let known = sent(text) { return known }
        return ValueTemplate.compile(withOutputs(node), into: &diagnostics)
    }

    /// What an expression that reads the step's request, or a source's url, stands for: `$method`,
    /// `$request.query|header|path.<name>`, `$request.body#/…` (what the step sends, as its parameters and body
    /// write it) and `$sourceDescriptions.<name>.url`; `nil` for any other text.
    func sent(_ text: String) -> ValueTemplate? {
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
    func sentText(_ text: String) -> String? {
        switch sent(text) {
        case .literal(.string(let string))?: "'" + string.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .literal(let value)?: value.serialized()
        case .expression(let expression, _)?: expression.description
        default: nil
        }
    }

    /// `node` with its runtime expressions read as flowrun reads them (``flowrunText(_:aliases:)``).
    func withOutputs(_ node: YAMLNode) -> YAMLNode {
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
    func embeddedRewritten(_ text: String) -> String {
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
    static func dependencyStepID(_ id: String) -> String { "dependsOn-" + stepIDPart(id) }

    /// The id of the on-demand step that runs workflow `id` for a `goto` or `retry` action that names it.
    static func transferStepID(_ id: String) -> String { "workflow-" + stepIDPart(id) }

    /// For each step that runs a workflow, its outputs by name: the called workflow's output each one reads
    /// (`alias: $outputs.x`).
    static func outputAliases(of workflow: ArazzoWorkflow) -> [String: [String: String]] {
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
    static func inputNames(_ node: YAMLNode?, in document: ArazzoDocument) -> [String] {
        guard let node = node.map({ resolvedInputs($0, in: document) }) else { return [] }
        guard let properties = node.mapping?.first(where: { $0.key.scalar?.value == .string("properties") })?.value
        else { return [] }
        return (properties.mapping ?? []).compactMap { pair in
            if case .string(let name)? = pair.key.scalar?.value { name } else { nil }
        }
    }

    /// `criteria` with their runtime expressions read as flowrun reads them (``flowrunText(_:aliases:)``), which
    /// is how the run evaluates them; each unreadable one is reported (``checkReadable(_:)``).
    mutating func lowered(_ criteria: [Located<ArazzoCriterion>]) -> [Located<ArazzoCriterion>] {
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

    /// Reports each runtime expression of `criteria` that flowrun cannot read at run time (`$components…`, a
    /// `$request…` the step does not send, …): such a criterion would never hold.
    mutating func checkReadable(_ criteria: [Located<ArazzoCriterion>]) {
        for criterion in criteria {
            for text in criterion.value.expressionTexts where criterion.value.readable[text] == nil {
                error(.unsupported,
                      "flowrun cannot read '\(text)' when it runs a step; a criterion can read $statusCode, $url, "
                          + "$method, $request and $response parts the step has, $inputs, $steps and $workflows",
                      at: criterion.location)
            }
        }
    }
}
