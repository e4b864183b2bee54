/// Resolves the operations that an Arazzo document's steps call in their OpenAPI sources, and checks each step's
/// parameters against its operation: the operation exists (by `operationId` or `operationPath`), every parameter
/// belongs to it, and every parameter it requires is given (by the step, its workflow or a component reference).
///
/// A source that cannot be read here (a remote URL, which flowrun does not fetch, or a file that is not there) is a
/// warning that the operations of its steps are not checked: `lint` still checks the rest of the document.
///
/// An operation that does not exist is an error. A parameter the operation does not declare, and a required one the
/// step does not give, are warnings: Arazzo does not forbid them outright, and the specification's own pet-coupons
/// example has both (its names differ from its OpenAPI document's), which `lint` must still pass. So does an
/// `operationId` that matches one of the document's only when case is ignored (FAPI-PAR's `PAR` for `Par`).
/// `Accept`, `Content-Type` and `Authorization` header parameters are ignored, as OpenAPI says.
struct ArazzoOperationCheck {
    let document: ArazzoDocument
    let loader: SubWorkflowLoader
    let read: OperationSourceLoader
    /// The runtime expressions of the document, to type-check those that read a step's response.
    let uses: [ArazzoExpressionUse]
    /// Local copies of sources, by source name: read instead of the source's `url` (`flowrun lint --source`).
    let copies: [String: String]
    var diagnostics: [Diagnostic] = []
    /// The operation each step calls, by ``key(_:_:)`` of its workflow and step. What ``ArazzoLowering`` makes the step call.
    private(set) var resolved: [String: ArazzoCheck.ResolvedOperation] = [:]
    /// The absolute path of each source's document that could be read, by source name.
    private(set) var sourcePaths: [String: String] = [:]
    /// Each `arazzo` source that could be read, by source name: the workflows of it the document may call.
    var arazzoSources: [String: ArazzoCheck.ArazzoSource] = [:]
    /// Each OpenAPI source's document, by source name; `nil` for one that could not be read.
    private var sources: [String: OperationSourceDocument?] = [:]
    /// Each readable source's named schemas, made once: the navigator every check of its operations walks.
    private var navigators: [String: SchemaNavigator] = [:]
    /// The response reads (`$response.body#/…` with a pointer) of each step, by workflow and step id.
    private var responseReads: [String: [(pointer: JSONPointer, location: SourceLocation)]] = [:]

    init(
        _ document: ArazzoDocument, uses: [ArazzoExpressionUse], loader: SubWorkflowLoader,
        read: @escaping OperationSourceLoader, copies: [String: String] = [:]
    ) {
        self.document = document
        self.uses = uses
        self.copies = copies
        self.loader = loader
        self.read = read
    }

    mutating func check() {
        for source in document.sources where source.type?.value != "arazzo" {
            let loaded = load(source)
            sources[source.name.value] = loaded
            if let loaded {
                navigators[source.name.value] = SchemaNavigator(
                    types: Dictionary(loaded.types.map { ($0.name.value, $0.schema) }) { first, _ in first })
            }
        }
        for use in uses {
            guard let workflowID = use.workflowID, let stepID = use.stepID,
                case .response(.body(let pointer?)) = use.expression, !pointer.tokens.isEmpty
            else { continue }
            responseReads[Self.key(workflowID, stepID), default: []].append((pointer, use.location))
        }
        for workflow in document.workflows {
            for step in workflow.steps { check(step, in: workflow) }
        }
        loadArazzoSources()
    }

    // MARK: Sources

    /// Where `source`'s document is read from: its local copy (`--source`, as the user gave it: relative to the
    /// current directory), or its `url` as written (`written`) and resolved against the document's own path; `nil`
    /// for a remote URL (``warnRemote(_:unchecked:)`` says so).
    func location(of source: ArazzoDocument.Source) -> (path: String, written: String?)? {
        if let copy = copies[source.name.value] { return (copy, nil) }
        let url = source.url.value
        if url.hasPrefix("http://") || url.hasPrefix("https://") { return nil }
        let written = url.hasPrefix("file://") ? String(url.dropFirst(7)) : url
        return (SubWorkflowLoader.resolve(written, from: document.path), written)
    }

    /// The warning for a source whose `url` is remote and has no local copy.
    mutating func warnRemote(_ source: ArazzoDocument.Source, unchecked: String) {
        warn("source '\(source.name.value)' is a remote URL, which flowrun does not fetch: \(unchecked); point 'url' "
                 + "at a local copy, or give one with --source \(source.name.value)=<path>, to check them",
             at: source.url.location)
    }

    /// The finding for a source whose document could not be read (`reason`): an error when it is the local copy
    /// the user gave with `--source`, which they meant to be read; a warning that `unchecked` otherwise (a file
    /// the document names that is not there), as for a remote one.
    mutating func unreadable(_ source: ArazzoDocument.Source, _ reason: String, unchecked: String) {
        let name = source.name.value
        guard let copy = copies[name] else {
            warn("cannot read source '\(name)' (\(reason)): \(unchecked)", at: source.url.location)
            return
        }
        diagnostics.append(Diagnostic(
            .error, .unreadableFile,
            "cannot read the local copy of source '\(name)' given with --source \(name)=\(copy) (\(reason))",
            at: source.url.location))
    }

    private mutating func load(_ source: ArazzoDocument.Source) -> OperationSourceDocument? {
        let unchecked = "the operations of its steps are not checked"
        guard let (path, _) = location(of: source) else {
            warnRemote(source, unchecked: unchecked)
            return nil
        }
        let prefix = source.name.value + "."
        switch loader.document(path, typePrefix: prefix, read: { read($0, path, prefix) }) {
        case .failure(let failure):
            unreadable(source, failure.message, unchecked: "the operations of its steps are not checked")
            return nil
        case .success(let loaded):
            sourcePaths[source.name.value] = SubWorkflowLoader.canonical(path)
            diagnostics += loaded.diagnostics
            guard !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
                diagnostics.append(Diagnostic(
                    .error, .invalidValue,
                    "the OpenAPI document of source '\(source.name.value)' (\(path)) has errors; its operations cannot "
                        + "be used",
                    at: source.url.location))
                return nil
            }
            return loaded
        }
    }

    // MARK: Steps

    private mutating func check(_ step: ArazzoStep, in workflow: ArazzoWorkflow) {
        guard let (operation, source) = operation(of: step) else { return }
        resolved[Self.key(workflow.id.value, step.id.value)] = ArazzoCheck.ResolvedOperation(
            source: source, pointer: operation.pointer, method: operation.method,
            contentType: operation.body?.contentTypes.first)
        guard let navigator = navigators[source] else { return }
        checkResponseReads(of: step, in: workflow, operation: operation, navigator: navigator)
        let own = ArazzoLowering.resolve(step.parameters, in: document)
        let given = own + ArazzoLowering.resolve(workflow.parameters, in: document).filter { parameter in
            !own.contains { $0.name.value == parameter.name.value && $0.placement?.value == parameter.placement?.value }
        }
        // The step's own parameters must belong to its operation; its workflow's apply to every step, and are
        // counted only towards what the operation requires.
        for parameter in own {
            guard let placement = parameter.placement else { continue }
            // The operation has none of these (OpenAPI says to ignore them); a step may still write one.
            if placement.value == "header", SourceParameter.ignoredHeaderNames.contains(parameter.name.value.lowercased()) {
                continue
            }
            let matches = operation.parameters.filter {
                $0.placement.rawValue == placement.value
                    && (placement.value == "header"
                        ? $0.name.lowercased() == parameter.name.value.lowercased() : $0.name == parameter.name.value)
            }
            if let declared = matches.first {
                checkLiteral(parameter, against: declared, of: operation, navigator: navigator)
                continue
            }
            let candidates = operation.parameters.map(\.name)
            let elsewhere = operation.parameters.first { $0.name == parameter.name.value }
            let hint = elsewhere.map { "; it has a \($0.placement.rawValue) parameter of that name" }
                ?? Suggestion.closest(to: parameter.name.value, in: candidates).map { "; did you mean '\($0)'?" }
                ?? (candidates.isEmpty ? "; it takes none" : "; it takes \(candidates.joined(separator: ", "))")
            diagnostics.append(Diagnostic(
                .warning, .unknownReference,
                "operation '\(Self.name(of: operation))' of source '\(source)' has no \(placement.value) parameter "
                    + "'\(parameter.name.value)'" + hint,
                at: parameter.name.location))
        }
        for required in operation.parameters where required.required && required.placement != .other {
            let isGiven = given.contains {
                $0.placement?.value == required.placement.rawValue
                    && (required.placement == .header
                        ? $0.name.value.lowercased() == required.name.lowercased() : $0.name.value == required.name)
            }
            if !isGiven {
                diagnostics.append(Diagnostic(
                    .warning, .missingKey,
                    "step '\(step.id.value)' does not give the required \(required.placement.rawValue) parameter "
                        + "'\(required.name)' of operation '\(Self.name(of: operation))'",
                    at: step.id.location))
            }
        }
    }

    /// Reports a literal parameter value that the operation's parameter cannot take, as flowrun reports one in an
    /// `operation:` step; a value with a runtime expression is left to run time.
    private mutating func checkLiteral(
        _ parameter: ArazzoParameter, against declared: SourceParameter, of operation: SourceOperation,
        navigator: SchemaNavigator
    ) {
        guard let schema = declared.schema, !Self.holdsExpression(parameter.value) else { return }
        guard let failure = navigator.parameterLiteralFailure(JSONValue(yaml: parameter.value), against: schema, formats: .hint)
        else { return }
        diagnostics.append(Diagnostic(
            .error, .bindingTypeMismatch,
            "\(declared.placement.rawValue) parameter '\(declared.name)' of operation '\(Self.name(of: operation))' "
                + "does not accept this value: \(failure.message)",
            at: parameter.value.location))
    }

    /// Whether a value is or holds a runtime expression (`$…`, or `{$…}` in a string), at any depth.
    private static func holdsExpression(_ node: YAMLNode) -> Bool {
        if let scalar = node.scalar, case .string(let text) = scalar.value, text.contains("$") { return true }
        return (node.sequence ?? []).contains(where: holdsExpression)
            || (node.mapping ?? []).contains { holdsExpression($0.value) }
    }

    /// Checks every `$response.body#/…` the step reads (in its outputs and criteria) against the success responses
    /// of its operation, as flowrun checks a workflow's bindings: a pointer that no success response's schema can
    /// reach is an error, with the closest property.
    private mutating func checkResponseReads(
        of step: ArazzoStep, in workflow: ArazzoWorkflow, operation: SourceOperation, navigator: SchemaNavigator
    ) {
        let success = operation.responses.filter { $0.status.value.isSuccess }
        guard !success.isEmpty else { return }
        for (pointer, location) in responseReads[Self.key(workflow.id.value, step.id.value)] ?? [] {
            // Reported only when no success response has what the pointer reads.
            var failures: [String] = []
            for response in success {
                guard case .missing(let message, _) = navigator.walk(pointer.tokens, in: response.schema) else {
                    failures = []
                    break
                }
                failures.append("\(response.status.value): \(message)")
            }
            guard !failures.isEmpty else { continue }
            let detail = failures.count == 1
                ? String(failures[0].drop { $0 != " " }.dropFirst()) : failures.joined(separator: "; ")
            diagnostics.append(Diagnostic(
                .error, .bindingTypeMismatch,
                "'$response.body#\(pointer)' reads nothing from the response of step '\(step.id.value)' "
                    + "(operation '\(Self.name(of: operation))'): \(detail)",
                at: location.advanced(by: "$response.body#".count)))
        }
    }

    /// The operation a step calls and its source's name, or `nil` when it calls a workflow, when its source could
    /// not be read, or after reporting that the operation does not exist.
    private mutating func operation(of step: ArazzoStep) -> (SourceOperation, String)? {
        switch step.target {
        case .operationID(let written):
            var sourceName: String
            var id = written.value
            if let (name, member) = ArazzoExpression.sourceDescriptionMember(written.value) {
                sourceName = name
                id = member
            } else {
                let openAPI = document.sources.filter { $0.type?.value != "arazzo" }
                guard openAPI.count == 1 else { return nil }  // Reported by ArazzoReferenceCheck.
                sourceName = openAPI[0].name.value
            }
            guard case .some(.some(let source)) = sources[sourceName] else { return nil }
            if let found = source.operations.first(where: { $0.id == id }) { return (found, sourceName) }
            let ids = source.operations.compactMap(\.id)
            let alike = source.operations.filter { $0.id?.lowercased() == id.lowercased() }
            if alike.count == 1, let found = alike.first, let foundID = found.id {
                // The official FAPI-PAR example calls 'PAR' where its document says 'Par'.
                diagnostics.append(Diagnostic(
                    .warning, .unknownReference,
                    "source '\(sourceName)' has no operation '\(id)', only '\(foundID)' (operationIds are "
                        + "case-sensitive); read as '\(foundID)'",
                    at: written.location))
                return (found, sourceName)
            }
            diagnostics.append(Diagnostic(
                .error, .unknownReference,
                "source '\(sourceName)' has no operation '\(id)'"
                    + (Suggestion.closest(to: id, in: ids).map { "; did you mean '\($0)'?" } ?? ""),
                at: written.location))
            return nil
        case .operationPath(let written):
            let text = written.value
            guard text.hasPrefix("{$sourceDescriptions."), let close = text.firstIndex(of: "}"),
                let hash = text[close...].firstIndex(of: "#"),
                case .sourceDescription(let sourceName, _)? =
                    try? ArazzoExpression.parsingLeniently(String(text[text.index(after: text.startIndex)..<close])).expression,
                case .some(.some(let source)) = sources[sourceName]
            else { return nil }
            let pointer = String(text[text.index(after: hash)...])
            if let found = source.operations.first(where: { $0.pointer == pointer }) { return (found, sourceName) }
            let pointers = source.operations.map(\.pointer)
            // The pointer to the path item: the operation's pointer without its method.
            func pathItem(_ pointer: String) -> Substring { pointer[..<(pointer.lastIndex(of: "/") ?? pointer.endIndex)] }
            let path = source.operations.filter { pathItem($0.pointer) == pathItem(pointer) }
            let onlyOne = source.operations.filter { pathItem($0.pointer) == pointer }
            if onlyOne.count == 1, let found = onlyOne.first {
                // The official LoginAndRetrievePets example points at the path item of its only operation.
                diagnostics.append(Diagnostic(
                    .warning, .unknownReference,
                    "'\(pointer)' is a path, not an operation; read as its only operation, "
                        + "'\(found.pointer)' (an operationPath points at a method of a path)",
                    at: written.location))
                return (found, sourceName)
            }
            let hint = path.isEmpty
                ? Suggestion.closest(to: pointer, in: pointers).map { "; did you mean '\($0)'?" } ?? ""
                : "; that path has \(path.map { $0.method.lowercased() }.joined(separator: ", "))"
            diagnostics.append(Diagnostic(
                .error, .unknownReference,
                "source '\(sourceName)' has no operation at '\(pointer)'" + hint
                    + " (an operationPath points at a method of a path: #/paths/~1pets~1{id}/get)",
                at: written.location))
            return nil
        case .workflowID, nil:
            return nil
        }
    }

    /// The key of a step in ``responseReads``.
    static func key(_ workflowID: String, _ stepID: String) -> String { workflowID + "\u{0}" + stepID }

    private static func name(of operation: SourceOperation) -> String {
        operation.id ?? "\(operation.method) \(operation.path)"
    }

    mutating func warn(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.warning, .unreadableFile, message, at: location))
    }
}
