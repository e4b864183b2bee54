/// Turns the YAML node tree of a workflow file into a ``Workflow``, collecting every problem it finds.
///
/// The decoder checks shape only: which keys exist where, what type each
/// value has, that durations, statuses and names are well-formed, and that
/// runtime expressions parse. Whether names resolve and bindings type-check
/// is the ``WorkflowCompiler``'s job. The decoder never stops at the first
/// problem; a part that cannot be decoded is left out and the rest is still
/// checked, so `flowrun lint` reports everything at once.
///
/// ```swift
/// var decoder = WorkflowDecoder()
/// let workflow = decoder.decode(root, path: "banking.yaml")
/// for diagnostic in decoder.diagnostics { print(diagnostic) }
/// ```
package struct WorkflowDecoder {
    /// The problems found so far, in the order found.
    public internal(set) var diagnostics: [Diagnostic] = []
    /// The ids of steps left out of the workflow because of errors in them.
    private var stepsLeftOut: Set<String> = []

    /// The format versions this decoder reads.
    package static let supportedVersions = [1]

    /// The keys a workflow file may have at its top level.
    static let topLevelKeys = [
        "flowrun", "name", "summary", "description", "inputs", "env", "servers", "types", "vars", "interceptors",
        "policies", "defaults", "steps", "catch", "outputs", "deadline",
        "validation", "openapi",
    ]

    /// Creates a decoder.
    package init() {}

    /// Decodes a workflow from the root node of its file.
    ///
    /// - Parameters:
    ///   - root: The document's root node, as ``YAMLLoader`` returns it.
    ///   - path: The path of the file, for the workflow's ``Workflow/path``.
    /// - Returns: The workflow, with the parts that could not be decoded left out; check ``diagnostics``.
    package mutating func decode(_ root: YAMLNode, path: String) -> Workflow {
        var workflow = Workflow(path: path)
        if root.scalar?.value == .null {
            report(.typeMismatch, "the workflow file is empty; expected a mapping that starts with 'flowrun: 1'", root)
            return workflow
        }
        guard let top = reader(root, "the workflow", Self.topLevelKeys, required: ["flowrun", "steps"]) else {
            return workflow
        }
        if let node = top["flowrun"] {
            if case .int(let version)? = node.scalar?.value, Self.supportedVersions.contains(version) {
                workflow.version = version
            } else {
                report(.unsupportedVersion,
                       "unsupported format version \(node.scalar?.text ?? node.kindDescription); this flowrun reads 'flowrun: 1'",
                       node)
            }
        }
        workflow.name = top["name"].flatMap { string($0, "'name'")?.value }
        workflow.summary = top["summary"].flatMap { string($0, "'summary'")?.value }
        workflow.description = top["description"].flatMap { string($0, "'description'")?.value }
        workflow.inputs = top["inputs"].map { schema($0) }
        if let node = top["env"] { workflow.environment = environment(node) }
        if let node = top["servers"] { workflow.servers = servers(node) }
        if let node = top["openapi"] { workflow.openAPISources = openAPISources(node) }
        if let node = top["types"] {
            workflow.types = entries(node, "'types'").map { NamedType(name: $0.name, schema: schema($0.value)) }
        }
        if let node = top["vars"] { workflow.vars = bindings(node, "'vars'") }
        if let node = top["interceptors"] { workflow.interceptors = interceptors(node) }
        if let node = top["policies"] { workflow.policies = policies(node) }
        if let node = top["defaults"] { workflow.defaults = defaults(node) }
        if let node = top["steps"] {
            workflow.steps = steps(node)
            workflow.stepsLeftOut = stepsLeftOut
        }
        if let node = top["catch"] { workflow.catchRules = catchRules(node, context: "'catch'", stepScoped: false) }
        if let node = top["outputs"] { workflow.outputs = bindings(node, "'outputs'") }
        workflow.deadline = top["deadline"].flatMap { duration($0, "'deadline'") }
        if let node = top["validation"] { workflow.validation = validationSettings(node) }
        return workflow
    }

    // MARK: Sections

    /// A server's URL. One that reads nothing must be an absolute `http(s)` URL, as a run requires: lint
    /// reports it where it is written instead of the first run failing on it.
    private mutating func serverURL(_ node: YAMLNode, server: String) -> ValueTemplate {
        let url = template(node)
        if case .literal(.string(let text)) = url, !RequestPath.isAbsoluteURL(text) {
            report(.invalidValue,
                   "server '\(server)' has URL '\(text)', which is not an absolute http(s) URL (http://… or https://…)",
                   node)
        }
        return url
    }

    private mutating func servers(_ node: YAMLNode) -> [Server] {
        entries(node, "'servers'").compactMap { entry in
            if entry.value.scalar != nil {
                // `bank: "https://…"` is shorthand for `bank: { url: "https://…" }`.
                // A bad URL is reported, but the server is kept so references to it don't cascade into errors.
                _ = string(entry.value, "the URL of server '\(entry.name.value)'")
                return Server(name: entry.name, url: serverURL(entry.value, server: entry.name.value))
            }
            guard let fields = reader(entry.value, "server '\(entry.name.value)'", Self.serverKeys, required: ["url"]),
                let url = fields["url"]
            else {
                // Kept, so steps that use the server get no "unknown server" finding on top of this one.
                return Server(name: entry.name, url: .literal(.string("")))
            }
            _ = string(url, "the URL of server '\(entry.name.value)'")
            return Server(
                name: entry.name, url: serverURL(url, server: entry.name.value),
                description: fields["description"].flatMap { string($0, "'description'")?.value },
                network: serverNetwork(fields, server: entry.name.value, path: entry.name.location.path))
        }
    }

    private mutating func defaults(_ node: YAMLNode) -> Defaults {
        var defaults = Defaults()
        guard let fields = reader(node, "'defaults'", ["server", "interceptors", "policy", "dispatcher"]) else {
            return defaults
        }
        defaults.server = fields["server"].flatMap { name($0, "'server'") }
        defaults.interceptors = fields["interceptors"].map { nameList($0, "'interceptors'") }
        defaults.policy = fields["policy"].flatMap { name($0, "'policy'") }
        defaults.dispatcher = fields["dispatcher"].flatMap { name($0, "'dispatcher'") }
        return defaults
    }

    static let stepKeys = [
        "id", "description", "server", "dispatcher", "on-demand", "request", "response", "outputs", "set",
        "interceptors", "policy", "idempotent", "idempotencyKey", "after", "on-error", "compensate", "if", "else",
        "forEach", "maxConcurrency", "onItemFailure", "repeat", "paginate", "workflow", "inputs", "switch", "cases",
        "default", "operation", "parameters",
    ] + bodyKeys

    private mutating func steps(_ node: YAMLNode) -> [Step] {
        guard let elements = node.sequence else {
            report(.typeMismatch, "expected 'steps' to be a sequence of steps, found \(node.kindDescription)", node)
            return []
        }
        if elements.isEmpty { report(.invalidValue, "a workflow needs at least one step", node) }
        return elements.compactMap { element in
            let decoded = step(element)
            if decoded == nil, let id = element.mapping?.first(where: { $0.key.scalar?.text == "id" })?.value.scalar {
                stepsLeftOut.insert(id.text)
            }
            return decoded
        }
    }

    private mutating func step(_ node: YAMLNode) -> Step? {
        let label = node.mapping?.first { $0.key.scalar?.text == "id" }?.value.scalar.map { "step '\($0.text)'" }
        let context = label ?? "a step"
        guard let fields = reader(node, context, Self.stepKeys, required: ["id"]),
            let id = fields["id"].flatMap({ name($0, "a step id") })
        else { return nil }
        var step: Step
        // A request with errors leaves the step out of the workflow, but its other keys are still read, so
        // that lint reports their problems in the same pass.
        var requestFailed = false
        // The keys of an `operation:` step, which only it has.
        let operationKeys = ["parameters"] + Self.bodyKeys
        if fields["workflow"] != nil || fields.contains("switch") {
            reportKeys(["operation"] + operationKeys, thatNeed: "operation", in: fields, stepID: id.value)
        }
        if let workflowNode = fields["workflow"] {
            guard let call = subWorkflowCall(fields, workflowNode, stepID: id.value) else { return nil }
            step = Step(id: id, location: node.location, request: .placeholder(at: node.location))
            step.call = call
        } else if fields.contains("switch") {
            step = Step(id: id, location: node.location, request: .placeholder(at: node.location))
            step.switch = switchSetting(fields, stepID: id.value)
        } else {
            let request: Request
            var operation: OperationCall?
            if let operationNode = fields["operation"] {
                if let requestNode = fields["request"] {
                    report(.invalidValue,
                           "step '\(id.value)' has both 'operation' and 'request'; an operation step takes its "
                               + "method and path from the OpenAPI document and its values from 'parameters'",
                           requestNode, key: fields.keyNode("request"))
                }
                guard let call = operationCall(fields, operationNode, stepID: id.value) else { return nil }
                // Replaced by the operation's request when the compiler lowers it.
                request = .placeholder(at: operationNode.location)
                operation = call
            } else {
                guard let requestNode = fields["request"] else {
                    report(.missingKey,
                           "\(context) is missing the required key 'request' (or 'operation', to call an operation "
                               + "of an OpenAPI document, 'workflow', to call another workflow file, or 'switch', "
                               + "to run one of several steps)",
                           node)
                    return nil
                }
                reportKeys(operationKeys, thatNeed: "operation", in: fields, stepID: id.value)
                if let decoded = self.request(requestNode, stepID: id.value) {
                    request = decoded
                } else {
                    request = .placeholder(at: requestNode.location)
                    requestFailed = true
                }
            }
            reportKeys(["cases", "default"], thatNeed: "switch", in: fields, stepID: id.value)
            if let inputs = fields["inputs"] {
                report(.invalidValue,
                       "'inputs' binds the inputs of a called workflow, but step '\(id.value)' has no 'workflow'",
                       inputs, key: fields.keyNode("inputs"))
            }
            step = Step(id: id, location: node.location, request: request)
            step.operation = operation
            step.server = fields["server"].flatMap { name($0, "'server'") }
            step.dispatcher = fields["dispatcher"].flatMap { name($0, "'dispatcher'") }
            step.onDemand = fields["on-demand"].flatMap { bool($0, "'on-demand'") } ?? false
            step.idempotent = fields["idempotent"].flatMap { bool($0, "'idempotent'") }
            if let response = fields["response"] {
                step.responses = responses(response, stepID: id.value)
                step.parse = responseParsing(response)
            }
            if let outputs = fields["outputs"] { step.outputs = bindings(outputs, "the outputs of step '\(id.value)'") }
            if let set = fields["set"] { step.set = bindings(set, "'set' of step '\(id.value)'") }
            step.interceptors = fields["interceptors"].map { nameList($0, "'interceptors'") }
            step.policy = fields["policy"].flatMap { name($0, "'policy'") }
            step.idempotencyKey = fields["idempotencyKey"].flatMap { bool($0, "'idempotencyKey'") } ?? false
            step.forEach = forEach(fields, stepID: id.value)
            if let node = fields["repeat"] { step.repetition = repetition(node, stepID: id.value) }
            if let node = fields["paginate"] { step.pagination = pagination(node, stepID: id.value) }
            if fields["repeat"] != nil, let node = fields["paginate"] {
                report(.invalidValue,
                       "step '\(id.value)' has both 'repeat' and 'paginate'; paginate is a loop of its own", node,
                       key: fields.keyNode("paginate"))
            }
        }
        step.description = fields["description"].flatMap { string($0, "'description'")?.value }
        step.after = fields["after"].map { nameList($0, "'after'") } ?? []
        if let node = fields["on-error"] { step.onError = catchRules(node, context: "'on-error'", stepScoped: true) }
        if let node = fields["compensate"] { step.compensation = compensation(node, stepID: id.value) }
        if let node = fields["if"] { step.condition = condition(node) }
        if let node = fields["else"] {
            step.otherwise = bindings(node, "'else' of step '\(id.value)'")
            // A switch without a default is skipped, with its `else` values, by a value that matches no case.
            let mayMatchNoCase = fields.contains("switch") && !fields.contains("default")
            if fields["if"] == nil && !mayMatchNoCase {
                report(.invalidValue, "'else' gives step '\(id.value)' outputs for when its 'if' does not hold, "
                       + "but the step has no 'if'", node, key: fields.keyNode("else"))
            }
        }
        return requestFailed ? nil : step
    }

    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    mutating func request(_ node: YAMLNode, stepID: String) -> Request? {
        guard let fields = reader(
            node, "the request of step '\(stepID)'",
            ["method", "path", "query", "headers"] + Self.bodyKeys + ["bodyType"], required: ["method", "path"]),
            let methodNode = fields["method"], let method = string(methodNode, "'method'"),
            let pathNode = fields["path"]
        else { return nil }
        if !Self.methods.contains(method.value) {
            let upper = method.value.uppercased()
            let hint = Self.methods.contains(upper)
                ? "; methods are upper-case: '\(upper)'" : Suggestion.didYouMean(upper, in: Self.methods)
            report(.invalidValue, "unknown HTTP method '\(method.value)'\(hint)", methodNode)
        }
        if let text = pathNode.scalar?.text, case .string = pathNode.scalar?.value,
            !(text.hasPrefix("/") || text.hasPrefix("{$") || RequestPath.isAbsoluteURL(text))
        {
            report(.invalidValue,
                   "a request path starts with '/', an absolute http(s) URL or an expression in braces that gives "
                       + "one ('{$inputs.base}/x'), found '\(text)'",
                   pathNode)
        } else if pathNode.scalar == nil || pathNode.scalar?.value.isString == false {
            report(.typeMismatch, "expected the request path to be a string, found \(pathNode.kindDescription)",
                   pathNode)
        }
        var request = Request(method: method, path: template(pathNode), pathLocation: pathNode.location)
        if let query = fields["query"] {
            request.query = bindings(query, "'query'", names: .free)
            warnAboutPlainScalars(in: query, "query parameter")
        }
        if let headers = fields["headers"] {
            request.headers = bindings(headers, "'headers'", names: .header)
            warnAboutPlainScalars(in: headers, "header")
        }
        request.body = requestBody(fields)
        request.bodyType = fields["bodyType"].map { schema($0) }
        return request
    }

    private mutating func responses(_ node: YAMLNode, stepID: String) -> [ResponseCase] {
        entries(node, "the response of step '\(stepID)'").compactMap { entry in
            if entry.name.value == "parse" { return nil }  // How bodies are read: see `responseParsing`.
            guard let status = statusPattern(entry.name.value, at: entry.name.location, allowDefault: true) else {
                return nil
            }
            return ResponseCase(status: Located(status, at: entry.name.location), schema: schema(entry.value))
        }
    }

    // MARK: Catch

    /// Decodes `catch` rules, or a step's `on-error` rules (`stepScoped`), which cannot name another step.
    private mutating func catchRules(_ node: YAMLNode, context: String, stepScoped: Bool) -> [CatchRule] {
        guard let elements = node.sequence else {
            report(.typeMismatch, "expected \(context) to be a sequence of rules, found \(node.kindDescription)", node)
            return []
        }
        let actions = ["fallback", "goto", "run", "end"]
        let rule = stepScoped ? "an on-error rule" : "a catch rule"
        return elements.compactMap { element -> CatchRule? in
            guard let fields = reader(element, rule, ["when"] + actions + ["then", "maxVisits"]) else {
                return nil
            }
            var step: Located<String>?
            var matcher = ErrorMatcher()
            if let when = fields["when"] {
                (matcher, step) = errorMatcher(when, allowStep: !stepScoped, allowCondition: true)
            }
            let present = actions.filter { fields.contains($0) }
            guard present.count == 1, let actionName = present.first, let value = fields[actionName] else {
                report(.invalidValue,
                       present.isEmpty
                           ? "\(rule) needs one action: fallback, goto, run or end"
                           : "\(rule) has one action; found \(present.map { "'\($0)'" }.joined(separator: " and "))",
                       element)
                return nil
            }
            if fields.contains("then") && actionName != "run" {
                report(.invalidValue, "'then' belongs to a 'run' action", fields.keyNode("then")!)
            }
            var maxVisits = CatchRule.defaultMaxVisits
            if let node = fields["maxVisits"] {
                if actionName != "goto" {
                    report(.invalidValue, "'maxVisits' belongs to a 'goto' action", fields.keyNode("maxVisits")!)
                } else if let value = int(node, "'maxVisits'", in: 1...100) {
                    maxVisits = value
                }
            }
            let action: CatchRule.Action
            switch actionName {
            case "fallback": action = .fallback(bindings(value, "'fallback'"))
            case "end": action = .end(bindings(value, "'end'"))
            case "goto":
                guard let target = name(value, "'goto'") else { return nil }
                action = .goto(target)
            default:
                guard let target = name(value, "'run'") else { return nil }
                var then = CatchRule.Continuation.fail
                if let node = fields["then"], let word = string(node, "'then'") {
                    if let parsed = CatchRule.Continuation(rawValue: word.value), CatchRule.Continuation.written.contains(parsed) {
                        then = parsed
                    } else {
                        report(.invalidValue, "'then' is 'fail' or 'continue', found '\(word.value)'", node)
                    }
                }
                action = .run(target, then: then)
            }
            var rule = CatchRule(step: step, when: matcher, action: action, location: element.location)
            rule.maxVisits = maxVisits
            return rule
        }
    }

    /// `compensate: <on-demand step id>`, `compensate: { run: <id> }` or `compensate: { request: { … } }`.
    private mutating func compensation(_ node: YAMLNode, stepID: String) -> Compensation? {
        if node.scalar != nil {
            return name(node, "'compensate'").map { .step($0) }
        }
        guard let fields = reader(node, "'compensate' of step '\(stepID)'", ["run", "request"]) else { return nil }
        switch (fields["run"], fields["request"]) {
        case (let run?, nil):
            return name(run, "'run'").map { .step($0) }
        case (nil, let request?):
            return self.request(request, stepID: stepID).map { .request($0, node.location) }
        default:
            report(.invalidValue, "'compensate' has either 'run' (an on-demand step) or 'request', not both", node)
            return nil
        }
    }

    /// Decodes an `if:` condition, `"$response.body#/status != 'done'"`, reporting a malformed one where it goes
    /// wrong.
    mutating func condition(_ node: YAMLNode) -> Condition? {
        guard let text = string(node, "'if'") else { return nil }
        let quote = node.scalar?.style == .plain ? 0 : 1
        do {
            return try ConditionParser.parse(text.value, at: node.location.advanced(by: quote))
        } catch {
            report(.invalidExpression, "invalid condition: \(error.message)", node)
            diagnostics[diagnostics.count - 1].location = node.location.advanced(by: quote + error.offset)
            return nil
        }
    }

    /// Decodes a `when:` mapping of a retry or catch rule.
    mutating func errorMatcher(
        _ node: YAMLNode, allowStep: Bool, allowCondition: Bool
    ) -> (ErrorMatcher, Located<String>?) {
        var matcher = ErrorMatcher()
        // Catch and on-error rules may also test the failed response with `if`.
        let keys = ["status", "errors"] + (allowStep ? ["step"] : []) + (allowCondition ? ["if"] : [])
        guard let fields = reader(node, "'when'", keys) else { return (matcher, nil) }
        if let node = fields["if"] { matcher.condition = condition(node) }
        if let status = fields["status"] {
            for element in status.sequence ?? [status] {
                guard let text = element.scalar?.text,
                    let pattern = statusPattern(text, at: element.location, allowDefault: false)
                else {
                    if element.scalar == nil {
                        report(.typeMismatch, "expected a status such as 404 or '5XX', found \(element.kindDescription)",
                               element)
                    }
                    continue
                }
                matcher.statuses.append(Located(pattern, at: element.location))
            }
        }
        if let errors = fields["errors"] {
            for element in errors.sequence ?? [errors] {
                guard let kind = string(element, "an error kind") else { continue }
                if !ErrorMatcher.knownKinds.contains(kind.value) && !kind.value.hasPrefix("x-") {
                    report(.invalidValue,
                           "unknown error kind '\(kind.value)'\(Suggestion.didYouMean(kind.value, in: ErrorMatcher.knownKinds)); kinds are \(ErrorMatcher.knownKinds.joined(separator: ", ")), or a custom kind starting with 'x-'",
                           element)
                }
                matcher.kinds.append(kind)
            }
        }
        return (matcher, fields["step"].flatMap { name($0, "'step'") })
    }

    /// Parses `200`, `4XX`/`4xx` or (where allowed) `default`.
    mutating func statusPattern(_ text: String, at location: SourceLocation, allowDefault: Bool)
        -> ResponseCase.Status?
    {
        if text == "default" && allowDefault { return .default }
        if let code = Int(text), (100...599).contains(code) { return .code(code) }
        let scalars = Array(text.unicodeScalars)
        if scalars.count == 3, let digit = Int(String(scalars[0])), (1...5).contains(digit),
            scalars[1...].allSatisfy({ $0 == "X" || $0 == "x" })
        {
            return .range(digit)
        }
        diagnostics.append(Diagnostic(
            .error, .invalidValue,
            "invalid status '\(text)'; expected a code from 100 to 599, a class such as '4XX'"
                + (allowDefault ? ", or 'default'" : ""),
            at: location))
        return nil
    }
}

extension YAMLScalar.Value {
    /// Whether the value is a string.
    var isString: Bool {
        if case .string = self { return true }
        return false
    }
}
