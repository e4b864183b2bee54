import Foundation

/// Lowers the `operation:` steps of a workflow into ordinary requests, before the workflow is checked.
///
/// Each `openapi:` source is read once through the compiler's ``WorkflowCompiler/operationSourceLoader``; an
/// operation step then gets the operation's method and path, its `parameters:` placed where the document says
/// (path segments, query, headers), its body typed by the document's request schema, and, unless it writes
/// `response:`, the document's response types. The document's reusable schemas join the workflow's types as
/// `<source>.<Name>`. After this, nothing in the compiler or the engine knows that a step came from an operation:
/// a binding into a path parameter is type-checked like one written into `path:`, and a binding that reads a
/// property the response does not have is reported like one against `response:`.
struct OperationLowering {
    let compiler: WorkflowCompiler
    let loader: SubWorkflowLoader
    var diagnostics: [Diagnostic] = []

    /// What reading each source gave, by name: the document, or `nil` after reporting why not.
    private var documents: [String: OperationSourceDocument?] = [:]
    /// The interceptors that send each source's credentials, by source and scheme name.
    private var credentials: [String: [String: InterceptorDeclaration]] = [:]

    init(compiler: WorkflowCompiler, loader: SubWorkflowLoader) {
        self.compiler = compiler
        self.loader = loader
    }

    private mutating func error(_ code: FlowError.Code, _ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.error, code, message, at: location))
    }

    mutating func lower(_ workflow: inout Workflow) {
        let sources = Dictionary(workflow.openAPISources.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
        guard !sources.isEmpty || workflow.steps.contains(where: { $0.operation != nil }) else { return }
        for index in workflow.steps.indices {
            guard let call = workflow.steps[index].operation else { continue }
            workflow.steps[index].request = Self.placeholder(for: call)
        }
        guard let read = compiler.operationSourceLoader else {
            for source in workflow.openAPISources {
                error(.unsupported,
                      "this compiler reads no OpenAPI documents: FlowOpenAPI's WorkflowCompiler.withOpenAPI() "
                          + "gives one that does (the flowrun command line does)",
                      at: source.name.location)
            }
            return
        }
        for source in workflow.openAPISources where documents[source.name.value] == nil {
            documents[source.name.value] = load(source, of: workflow, with: read)
        }
        for source in workflow.openAPISources {
            guard case let document?? = documents[source.name.value] else { continue }
            let declared = Set(workflow.types.filter { !$0.imported }.map(\.name.value))
            for type in document.types {
                if declared.contains(type.name.value) {
                    let mine = workflow.types.first { $0.name.value == type.name.value }!
                    error(.duplicateName,
                          "type '\(type.name.value)' is also a schema of OpenAPI document '\(source.name.value)'; "
                              + "rename this one", at: mine.name.location)
                    continue
                }
                var imported = type
                imported.imported = true
                workflow.types.append(imported)
            }
        }
        for source in workflow.openAPISources where credentials[source.name.value] == nil {
            guard case let document?? = documents[source.name.value] else { continue }
            credentials[source.name.value] = interceptors(for: source, document)
        }
        let used = Set(workflow.steps.compactMap { $0.operation?.parts?.source })
        for source in workflow.openAPISources where !used.contains(source.name.value) {
            diagnostics.append(Diagnostic(
                .warning, .unused, "OpenAPI document '\(source.name.value)' is never used", at: source.name.location))
        }
        var addedServers: Set<String> = []
        for index in workflow.steps.indices {
            guard let call = workflow.steps[index].operation else { continue }
            var step = workflow.steps[index]
            lower(&step, call, sources: sources, workflow: &workflow, addedServers: &addedServers)
            // Its parameters and body now live in the request; nothing after lowering reads the call.
            step.operation = nil
            workflow.steps[index] = step
        }
    }

    /// Reads one source's document, reporting what is wrong with it.
    private mutating func load(
        _ source: OpenAPISource, of workflow: Workflow, with read: OperationSourceLoader
    ) -> OperationSourceDocument? {
        let path = SubWorkflowLoader.resolve(source.path.value, from: workflow.path)
        let prefix = source.name.value + "."
        switch loader.document(path, typePrefix: prefix, read: { read($0, path, prefix) }) {
        case .failure(let failure):
            error(.unreadableFile,
                  "cannot read OpenAPI document '\(source.name.value)': \(failure.message)", at: source.path.location)
            return nil
        case .success(let document):
            diagnostics += document.diagnostics
            if document.diagnostics.contains(where: { $0.severity == .error }) {
                // Located in the document; one more line here says which source of the workflow it was.
                error(.invalidValue,
                      "OpenAPI document '\(source.name.value)' (\(path)) has errors; its operations cannot be used",
                      at: source.path.location)
                return nil
            }
            return document
        }
    }

    // MARK: Steps

    private mutating func lower(
        _ step: inout Step, _ call: OperationCall, sources: [String: OpenAPISource], workflow: inout Workflow,
        addedServers: inout Set<String>
    ) {
        guard let (sourceName, key) = call.parts else { return }
        guard let source = sources[sourceName] else {
            let hint = sources.isEmpty
                ? "; the workflow declares no OpenAPI documents under 'openapi:'"
                : Suggestion.didYouMean(sourceName, in: sources.keys)
            error(.unknownReference, "unknown OpenAPI source '\(sourceName)'\(hint)", at: call.reference.location)
            return
        }
        guard case let document?? = documents[sourceName] else { return }
        guard let operation = find(key, in: document, source: sourceName, at: call.reference.location) else { return }

        let label = operation.id.map { "operation '\($0)'" } ?? "operation \(operation.method) \(operation.path)"
        guard WorkflowDecoder.methods.contains(operation.method) else {
            error(.unsupported,
                  "\(label) uses the method \(operation.method), which flowrun does not send; it sends "
                      + WorkflowDecoder.methods.joined(separator: ", "),
                  at: call.reference.location)
            return
        }
        var request = Request(
            method: Located(operation.method, at: call.reference.location),
            path: .literal(.string("/")), pathLocation: call.reference.location)
        request.path = path(of: operation, call, label: label)
        placeParameters(of: operation, call, label: label, into: &request)
        lowerBody(of: operation, call, label: label, into: &request)
        step.request = request
        if step.responses.isEmpty { step.responses = operation.responses }
        if step.server == nil {
            step.server = server(for: source, document, at: call.reference.location, workflow: &workflow,
                                 added: &addedServers)
            if step.server == nil { step.request.path = Self.absolute(step.request.path) }
        }
        applySecurity(of: operation, label: label, source: source, to: &step, at: call.reference.location,
                      workflow: &workflow)
    }

    // MARK: Security

    /// The interceptors that send the credentials a source's `security:` gives, by scheme name; each entry that
    /// names no scheme of the document, a scheme flowrun cannot send, or a value of the wrong shape is reported.
    private mutating func interceptors(
        for source: OpenAPISource, _ document: OperationSourceDocument
    ) -> [String: InterceptorDeclaration] {
        var result: [String: InterceptorDeclaration] = [:]
        let schemes = Dictionary(document.securitySchemes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for binding in source.security {
            let name = binding.name.value
            guard let scheme = schemes[name] else {
                let hint = schemes.isEmpty
                    ? "; it declares none under 'components.securitySchemes'"
                    : Suggestion.didYouMean(name, in: schemes.keys)
                error(.unknownReference, "OpenAPI document '\(source.name.value)' has no security scheme '\(name)'\(hint)",
                      at: binding.name.location)
                continue
            }
            let declared = Located("\(source.name.value).\(name)", at: binding.name.location)
            switch scheme.kind {
            case .bearer:
                result[name] = InterceptorDeclaration(name: declared, kind: .bearer(token: binding.value))
            case .apiKey(let placement):
                result[name] = InterceptorDeclaration(name: declared, kind: .apiKey(placement: placement, value: binding.value))
            case .basic:
                guard let username = Self.member("username", of: binding.value),
                    let password = Self.member("password", of: binding.value)
                else {
                    error(.invalidValue,
                          "security scheme '\(name)' is HTTP basic authentication: give it as "
                              + "{ username: …, password: … }",
                          at: binding.name.location)
                    continue
                }
                result[name] = InterceptorDeclaration(name: declared, kind: .basic(username: username, password: password))
            case .unsupported(let what):
                error(.unsupported,
                      "security scheme '\(name)' of OpenAPI document '\(source.name.value)' is \(what), which flowrun "
                          + "does not send; declare an interceptor that does and list it on the steps",
                      at: binding.name.location)
            }
        }
        return result
    }

    /// The member `name` of a mapping value, literal or not.
    private static func member(_ name: String, of value: ValueTemplate) -> ValueTemplate? {
        switch value {
        case .object(let members): members[name]
        case .literal(.object(let members)): members[name].map { .literal($0) }
        default: nil
        }
    }

    /// Adds to the step the interceptors that send the credentials its operation needs: those of the first
    /// alternative of its security requirements that the source's `security:` gives. A source without
    /// `security:` adds none (the workflow may send credentials with interceptors of its own).
    private mutating func applySecurity(
        of operation: SourceOperation, label: String, source: OpenAPISource, to step: inout Step,
        at location: SourceLocation, workflow: inout Workflow
    ) {
        guard !operation.security.isEmpty, !source.security.isEmpty,
            let given = credentials[source.name.value]
        else { return }
        guard let chosen = operation.security.first(where: { $0.allSatisfy { given[$0] != nil } }) else {
            let options = operation.security.map { $0.map { "'\($0)'" }.joined(separator: " and ") }
            error(.missingKey,
                  "\(label) needs the credentials of \(options.joined(separator: " or ")); give them under 'security' "
                      + "of OpenAPI document '\(source.name.value)'",
                  at: location)
            return
        }
        var names = step.interceptors ?? workflow.defaults.interceptors ?? []
        for scheme in chosen {
            let declaration = given[scheme]!
            if !workflow.interceptors.contains(where: { $0.name.value == declaration.name.value }) {
                workflow.interceptors.append(declaration)
            }
            if !names.contains(where: { $0.value == declaration.name.value }) {
                names.append(Located(declaration.name.value, at: location))
            }
        }
        step.interceptors = names
    }

    /// The operation `key` names, or `nil` after reporting it unknown with a suggestion.
    private mutating func find(
        _ key: OperationCall.OperationKey, in document: OperationSourceDocument, source: String,
        at location: SourceLocation
    ) -> SourceOperation? {
        switch key {
        case .id(let id):
            if let found = document.operations.first(where: { $0.id == id }) { return found }
            let ids = document.operations.compactMap(\.id)
            let hint = ids.isEmpty
                ? "; its operations have no operationId: name one by its path, as '\(source)#/paths/~1users/get'"
                : Suggestion.didYouMean(id, in: ids)
            error(.unknownReference, "OpenAPI document '\(source)' has no operation '\(id)'\(hint)", at: location)
        case .pointer(let pointer):
            if let found = document.operations.first(where: { $0.pointer == pointer }) { return found }
            error(.unknownReference,
                  "OpenAPI document '\(source)' has no operation at '#\(pointer)'"
                      + Suggestion.didYouMean(pointer, in: document.operations.map(\.pointer)),
                  at: location)
        }
        return nil
    }

    /// The server an operation step goes to: the workflow's server named after the source when it declares one
    /// (so `servers: { bank: "{$env.BANK_URL}" }` points the document's operations elsewhere), else the
    /// document's first server URL, added to the workflow as a server of that name.
    private mutating func server(
        for source: OpenAPISource, _ document: OperationSourceDocument, at location: SourceLocation,
        workflow: inout Workflow, added: inout Set<String>
    ) -> Located<String>? {
        let name = source.name.value
        if added.contains(name) || workflow.servers.contains(where: { $0.name.value == name }) {
            return Located(name, at: location)
        }
        guard let url = document.servers.first, RequestPath.isAbsoluteURL(url) else {
            let found = document.servers.first.map { "its first server URL is '\($0)', which is not an absolute "
                + "http(s) URL" } ?? "it declares no servers"
            error(.unknownReference,
                  "OpenAPI document '\(name)' gives no server to send its operations to (\(found)); "
                      + (workflow.arazzoWorkflowID != nil
                          ? "give its base URL with --server \(name)=URL"
                          : "declare one under 'servers:' named '\(name)', or give the step a 'server:'"),
                  at: location)
            return nil
        }
        workflow.servers.append(Server(name: Located(name, at: source.name.location), url: .literal(.string(url))))
        added.insert(name)
        return Located(name, at: location)
    }

    /// The base of the URL of a step whose operation could not be lowered (after an error): absolute, so that the
    /// missing server is not reported again.
    static let unresolvedBase = "https://operation.invalid"

    /// The request of a step whose operation cannot be lowered (after an error): to an absolute URL, so the missing
    /// server is not reported again, with the step's parameters and body as a JSON body, so what they read is still
    /// checked and counted as used (an input is not reported unused because the document had an error).
    static func placeholder(for call: OperationCall) -> Request {
        let location = call.reference.location
        var request = Request(
            method: Located("POST", at: location), path: .literal(.string(unresolvedBase + "/")),
            pathLocation: location)
        var members: [String: ValueTemplate] = [:]
        for binding in call.parameters { members[binding.name.value] = binding.value }
        var body: [String: ValueTemplate] = ["parameters": .object(members)]
        if case .json(let template, _)? = call.body { body["body"] = template }
        request.body = .json(.object(body), call.parametersLocation)
        return request
    }

    /// `path` after ``unresolvedBase``.
    private static func absolute(_ path: ValueTemplate) -> ValueTemplate {
        switch path {
        case .literal(.string(let text)): return .literal(.string(unresolvedBase + text))
        case .string(var template, let origin):
            template.segments.insert(.literal(unresolvedBase), at: 0)
            return .string(template, origin)
        default: return path
        }
    }

    // MARK: Parameters

    /// The operation's path with each `{name}` replaced by the value bound to that path parameter.
    private mutating func path(of operation: SourceOperation, _ call: OperationCall, label: String) -> ValueTemplate {
        var segments: [StringTemplate.Segment] = []
        var locations: [SourceLocation] = []
        var literal = ""
        func flush() {
            if !literal.isEmpty { segments.append(.literal(literal)) }
            literal = ""
        }
        func appendExpression(_ expression: RuntimeExpression, at location: SourceLocation) {
            flush()
            segments.append(.expression(expression, offset: 0))
            locations.append(location)
        }
        var rest = Substring(operation.path)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            guard operation.parameters.contains(where: { $0.name == name && $0.placement == .path }) else {
                // Not a declared parameter: the text stays as the document writes it (and lint says so).
                literal += "{\(name)}"
                continue
            }
            guard let binding = call.parameters.first(where: { $0.name.value == name }) else {
                // Reported as a missing required parameter.
                literal += "_"
                continue
            }
            switch binding.value {
            case .literal(let value):
                switch value {
                case .string, .int, .bigInteger, .double, .bool:
                    literal += URLEncoding.percentEncodePathSegment(value.interpolationText)
                case .null, .array, .object:
                    error(.bindingTypeMismatch,
                          "path parameter '\(name)' of \(label) takes a string, number or boolean (style simple), "
                              + "found \(value.typeName == "null" ? "null" : "a value of type \(value.typeName)")",
                          at: binding.name.location)
                }
            case .expression(let expression, let location):
                appendExpression(expression, at: location)
            case .string(let template, let origin):
                for (index, segment) in template.segments.enumerated() {
                    switch segment {
                    case .literal(let text): literal += URLEncoding.percentEncodePathSegment(text)
                    case .expression(let expression, _):
                        appendExpression(expression, at: template.location(ofSegment: index, origin: origin))
                    }
                }
            case .array, .object:
                error(.bindingTypeMismatch,
                      "path parameter '\(name)' of \(label) takes a string, number or boolean (style simple), "
                          + "found \(binding.value.isArrayTemplate ? "a list" : "an object")",
                      at: binding.name.location)
            }
        }
        literal += rest
        flush()
        var template = StringTemplate(segments: segments)
        if let text = template.literalText { return .literal(.string(text)) }
        template.expressionLocations = locations
        return .string(template, call.reference.location)
    }

    /// Puts each query and header parameter where it goes, and reports parameters the operation does not have,
    /// that flowrun cannot send, or that it needs and the step does not give.
    private mutating func placeParameters(
        of operation: SourceOperation, _ call: OperationCall, label: String, into request: inout Request
    ) {
        var given: Set<String> = []
        var cookies: [Binding] = []
        defer { if !cookies.isEmpty { request.headers.append(cookieHeader(cookies, label: label)) } }
        for (position, binding) in call.parameters.enumerated() {
            let name = binding.name.value
            given.insert(name)
            let written = call.arazzoPlacements?[position]
            let declared = operation.parameters.first { parameter in
                guard parameter.name == name || (parameter.placement == .header && parameter.name.lowercased() == name.lowercased()) else { return false }
                return written.map { parameter.placement.rawValue == $0 } ?? (parameter.name == name)
            }
            guard let parameter = declared else {
                if let written {
                    // Arazzo sends it where its `in` says; ArazzoOperationCheck has warned that the operation
                    // does not declare it.
                    switch written {
                    case "header": request.headers.append(binding)
                    case "query": request.query.append(binding)
                    case "cookie": cookies.append(binding)
                    default:
                        error(.unsupported,
                              "parameter '\(name)' (in: \(written)) is not a parameter of \(label), so flowrun cannot "
                                  + "place it in the request",
                              at: binding.name.location)
                    }
                    continue
                }
                let names = operation.parameters.map(\.name)
                let hint = names.isEmpty ? "; it has no parameters" : Suggestion.didYouMean(name, in: names)
                error(.unknownReference, "\(label) has no parameter '\(name)'\(hint)", at: binding.name.location)
                continue
            }
            if let schema = parameter.schema, [.path, .query, .header].contains(parameter.placement) {
                request.parameterTypes.append(ParameterType(
                    binding: binding, schema: schema,
                    label: "\(parameter.placement.rawValue) parameter '\(name)' of \(label)"))
            }
            switch parameter.placement {
            case .path:
                if parameter.style != "simple" {
                    unsupportedStyle(parameter, label: label, at: binding.name.location)
                }
            case .query where parameter.style == "deepObject":
                request.query += deepObjectMembers(binding, parameter, label: label)
            case .query:
                guard parameter.style == "form" else {
                    unsupportedStyle(parameter, label: label, at: binding.name.location)
                    continue
                }
                if parameter.isJSONContent {
                    // A `content` parameter: its value goes out as JSON text, whatever its type.
                    request.jsonQuery.insert(name)
                } else if !parameter.explode {
                    request.commaSeparatedQuery.insert(name)
                }
                request.query.append(binding)
            case .header:
                if parameter.style != "simple" {
                    unsupportedStyle(parameter, label: label, at: binding.name.location)
                    continue
                }
                if parameter.schema?.types == [.array] { request.commaSeparatedHeaders.insert(name) }
                request.headers.append(binding)
            case .cookie where call.arazzoPlacements != nil:
                cookies.append(binding)
            case .cookie:
                error(.unsupported,
                      "parameter '\(name)' of \(label) is a cookie, which flowrun does not send yet; set a 'Cookie' "
                          + "header with a 'headers' interceptor instead",
                      at: binding.name.location)
            case .other:
                error(.unsupported, "parameter '\(name)' of \(label) goes where flowrun cannot send it",
                      at: binding.name.location)
            }
        }
        guard call.arazzoPlacements == nil else { return }
        for parameter in operation.parameters where parameter.required && !given.contains(parameter.name) {
            error(.missingKey,
                  "\(label) needs its \(parameter.placement.rawValue) parameter '\(parameter.name)'; give it under "
                      + "'parameters:'",
                  at: call.parametersLocation)
        }
    }

    /// An Arazzo step's cookie parameters as one `Cookie` header: `name=value; name2=value2` (RFC 6265), each
    /// value as bound, a literal or a runtime expression.
    private mutating func cookieHeader(_ cookies: [Binding], label: String) -> Binding {
        var template = StringTemplate(segments: [])
        for (index, cookie) in cookies.enumerated() {
            template.segments.append(.literal((index == 0 ? "" : "; ") + cookie.name.value + "="))
            switch cookie.value {
            case .literal(let value):
                template.segments.append(.literal(value.interpolationText))
            case .expression(let expression, let location):
                template.segments.append(.expression(expression, offset: 0))
                template.expressionLocations.append(location)
            case .string(let text, _):
                template.segments += text.segments
                template.expressionLocations += text.expressionLocations
            case .array, .object:
                error(.unsupported, "cookie parameter '\(cookie.name.value)' of \(label) is a list or an object, which "
                          + "a cookie cannot hold", at: cookie.name.location)
            }
        }
        let location = cookies[0].name.location
        return Binding(name: Located("Cookie", at: location), value: .string(template, location))
    }

    /// A `deepObject` query parameter as one query parameter per member: `filter: { status: open }` sends
    /// `filter[status]=open`. The mapping must be written in the step (its members are known when the step is
    /// lowered); a member's value may be an expression.
    private mutating func deepObjectMembers(
        _ binding: Binding, _ parameter: SourceParameter, label: String
    ) -> [Binding] {
        let members: [(String, ValueTemplate)]
        switch binding.value {
        case .object(let templates): members = templates.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        case .literal(.object(let values)): members = values.sorted { $0.key < $1.key }.map { ($0.key, .literal($0.value)) }
        default:
            error(.unsupported,
                  "query parameter '\(parameter.name)' of \(label) has style 'deepObject': write its members as a "
                      + "mapping in the step ('\(parameter.name): { <member>: <value> }'), which are sent as "
                      + "'\(parameter.name)[<member>]=<value>'",
                  at: binding.value.firstLocation ?? binding.name.location)
            return []
        }
        return members.map { key, value in
            Binding(name: Located("\(parameter.name)[\(key)]", at: binding.name.location), value: value)
        }
    }

    private mutating func unsupportedStyle(_ parameter: SourceParameter, label: String, at location: SourceLocation) {
        let supported = switch parameter.placement {
            case .query: "form"
            default: "simple"
        }
        error(.unsupported,
              "\(parameter.placement.rawValue) parameter '\(parameter.name)' of \(label) has style "
                  + "'\(parameter.style)', which flowrun does not send yet; it sends \(parameter.placement.rawValue) "
                  + "parameters in style '\(supported)'",
              at: location)
    }

    /// The step's body, typed by the operation's request schema.
    private mutating func lowerBody(
        of operation: SourceOperation, _ call: OperationCall, label: String, into request: inout Request
    ) {
        guard let body = call.body else {
            if call.arazzoPlacements == nil, let declared = operation.body, declared.required {
                error(.missingKey,
                      "\(label) needs a request body; give it with \(Self.bodyKeys(accepting: declared.contentTypes))",
                      at: call.reference.location)
            }
            return
        }
        guard call.arazzoPlacements == nil else {
            // Arazzo sends the body as the step writes it.
            request.body = body
            return
        }
        guard let declared = operation.body else {
            error(.invalidValue, "\(label) takes no request body", at: body.location)
            return
        }
        request.body = body
        if case .json = body { request.bodyType = declared.schema }
        if let expected = Self.mismatch(of: body, accepted: declared.contentTypes) {
            error(.invalidValue,
                  "\(label) takes \(declared.contentTypes.map { "'\($0)'" }.joined(separator: ", ")); give the body "
                      + "with \(expected)",
                  at: body.location)
        }
    }

    /// The keys that send a body the operation accepts, when `body` is not one: `nil` when it is, or when the
    /// document accepts anything (`*/*`, no content types) or something flowrun cannot tell apart.
    private static func mismatch(of body: RequestBody, accepted: [String]) -> String? {
        let types = accepted.map { $0.lowercased().split(separator: ";").first.map(String.init) ?? "" }
        guard !types.isEmpty, !types.contains(where: { $0.hasPrefix("*/*") }) else { return nil }
        let fits: Bool
        switch body {
        case .json: fits = types.contains(where: isJSON)
        case .form: fits = types.contains(where: isForm)
        case .multipart: fits = types.contains(where: isMultipart)
        case .text: fits = types.contains { !isJSON($0) && !isForm($0) && !isMultipart($0) } || types.contains(where: isJSON)
        }
        return fits ? nil : bodyKeys(accepting: accepted)
    }

    /// The keys that write a body of one of the content types `accepted`: every kind when it names none, or
    /// anything (`*/*`).
    private static func bodyKeys(accepting accepted: [String]) -> String {
        let types = accepted.map { $0.lowercased().split(separator: ";").first.map(String.init) ?? "" }
        let all = "'body:' (JSON), 'form:', 'text:' or 'multipart:'"
        guard !types.isEmpty, !types.contains(where: { $0.hasPrefix("*/*") }) else { return all }
        var keys: [String] = []
        if types.contains(where: isJSON) { keys.append("'body:' (JSON)") }
        if types.contains(where: isForm) { keys.append("'form:'") }
        if types.contains(where: isMultipart) { keys.append("'multipart:'") }
        if types.contains(where: { !isJSON($0) && !isForm($0) && !isMultipart($0) }) { keys.append("'text:'") }
        return keys.isEmpty ? all : keys.joined(separator: " or ")
    }

    private static func isJSON(_ type: String) -> Bool { type.hasSuffix("/json") || type.hasSuffix("+json") }
    private static func isForm(_ type: String) -> Bool { type == "application/x-www-form-urlencoded" }
    private static func isMultipart(_ type: String) -> Bool { type.hasPrefix("multipart/") }
}

extension RequestBody {
    /// Where the body was written.
    var location: SourceLocation {
        switch self {
        case .json(_, let location), .form(_, let location), .text(_, _, let location), .multipart(_, let location):
            location
        }
    }
}

extension ValueTemplate {
    /// Whether the template builds a list.
    fileprivate var isArrayTemplate: Bool {
        if case .array = self { true } else { false }
    }
}
