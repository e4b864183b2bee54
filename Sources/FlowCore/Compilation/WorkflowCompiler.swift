/// Compiles workflow files into ``Plan``s, reporting every problem it finds with its location.
///
/// Compilation is loading (``YAMLLoader``), decoding (``WorkflowDecoder``) and
/// checking: every name resolves, every binding reads something that exists
/// and has a type that fits where it is bound, the steps form no cycle. All
/// diagnostics of a file are collected in one pass.
///
/// ```swift
/// let result = WorkflowCompiler().check(yaml: text, path: "banking.yaml")
/// for diagnostic in result.diagnostics { print(diagnostic) }
/// if let plan = result.plan { /* run it */ }
/// ```
///
/// Use ``compile(yaml:path:)`` when you only need the plan and the first error.
public struct WorkflowCompiler: Sendable {
    /// The outcome of checking one file.
    public struct Result: Sendable {
        /// The plan, when the file has no errors (and is a flowrun workflow: see ``kind``).
        public var plan: Plan?
        /// Every error and warning, sorted by location.
        public var diagnostics: [Diagnostic]
        /// What the file is. An Arazzo document has a plan only when the compiler ``compilesArazzo`` one of its
        /// workflows.
        public var kind: DocumentKind = .workflow
        /// Each workflow of an Arazzo document without errors, in the order written, as `run` compiles it (without
        /// `--server`); empty for a flowrun workflow.
        public var arazzoWorkflows: [ArazzoWorkflowCompilation] = []
        /// The names of the source descriptions of an Arazzo document, and of the Arazzo documents it calls, in no
        /// particular order; empty for a flowrun workflow.
        package var arazzoSourceNames: Set<String> = []

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// One workflow of an Arazzo document, compiled: its plan, or the first error that keeps it from running here
    /// (a server to name, a source to copy, as well as a mistake).
    public struct ArazzoWorkflowCompilation: Sendable {
        /// Its `workflowId`.
        public var id: String
        /// The plan, when it has no errors.
        public var plan: Plan?
        /// Its first error, when it has one.
        public var error: Diagnostic?
    }

    /// The kinds of file the compiler reads.
    public enum DocumentKind: Sendable {
        /// A flowrun workflow (`flowrun: 1`).
        case workflow
        /// An Arazzo 1.0.x document (`arazzo: 1.0.1`): checked by the Arazzo front end, and each of its workflows
        /// lowered into a flowrun workflow to compile and run.
        case arazzo
    }

    /// The limits the YAML loader enforces.
    public var loaderLimits: YAMLLoader.Limits

    /// Reads the workflow files that `workflow:` steps call, by path (relative to the calling file's directory,
    /// joined to it). Reads from disk with ``FileReader``, at most ``YAMLLoader/Limits/maxFileSize`` bytes;
    /// replace it to compile workflows that live elsewhere (a bundle, a database, a test's memory).
    public var readFile: @Sendable (_ path: String) -> Swift.Result<[UInt8], FlowError>

    /// Reads the OpenAPI documents that `openapi:` declares; `nil` when this compiler has none (FlowCore alone),
    /// and a workflow with `openapi:` is then refused. FlowOpenAPI's `WorkflowCompiler.withOpenAPI()` sets it.
    package var operationSourceLoader: OperationSourceLoader?

    /// Local copies of an Arazzo document's source descriptions, by source name: the path to read instead of the
    /// source's `url` (a remote one, which flowrun does not fetch, or one that moved). `flowrun lint --source` sets it.
    package var sourceDescriptionCopies: [String: String] = [:]

    /// Which workflow of an Arazzo document becomes the plan; when `nil`, the document's only one, and a document
    /// with several gets no plan (each is still checked). `flowrun run --workflow` sets it.
    package var arazzoWorkflowID: String?

    /// Base URLs by Arazzo source name, used instead of the first server of the source's OpenAPI document.
    /// `flowrun run --server NAME=URL` sets it.
    package var arazzoServerURLs: [String: String] = [:]

    /// Whether a name of ``arazzoServerURLs`` or ``sourceDescriptionCopies`` that the Arazzo document being run has
    /// no source of is an error at the document's sources. A test file turns it off to report its `servers:` names
    /// itself, where they are written (``Result/arazzoSourceNames`` has the names to check them against).
    package var reportsUnknownSourceNames = true

    /// Whether an Arazzo document's workflow is compiled into a plan, with every finding of its compilation, as
    /// `run`, `test` and `graph` need. Without it (`lint`) the workflows are still lowered and compiled, but only
    /// their binding type errors are reported: the rest is about running the document here and now (a remote
    /// source, a server to name, …), which valid Arazzo may leave open.
    package var compilesArazzo = false

    /// Whether a workflow without errors becomes a plan (``Result/plan``, and each of an Arazzo document's
    /// ``Result/arazzoWorkflows``). `flowrun lint`, which reports findings only, turns it off unless it explains:
    /// the findings are the same, and the plan's run-time tables (output slots, lowered requests, the step graph)
    /// and their release are a tenth of what checking a small file costs. The files that `workflow:` steps call
    /// are compiled into plans either way: the checks of the calling step read them.
    package var buildsPlan = true

    /// Creates a compiler.
    /// - Parameter loaderLimits: The limits on file size, nesting depth and alias expansion.
    public init(loaderLimits: YAMLLoader.Limits = .default) {
        self.loaderLimits = loaderLimits
        let limit = loaderLimits.maxFileSize
        self.readFile = { path in FileReader.read(path, limit: limit) }
    }

    /// Loads, decodes and checks a workflow given as text.
    /// - Parameters:
    ///   - yaml: The file's text.
    ///   - path: The file's path, for locations.
    /// - Returns: The plan, if any, and every diagnostic.
    public func check(yaml: String, path: String) -> Result {
        check(bytes: Array(yaml.utf8), path: path)
    }

    /// Loads, decodes and checks a workflow given as raw bytes.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - path: The file's path, for locations.
    /// - Returns: The plan, if any, and every diagnostic.
    public func check(bytes: [UInt8], path: String) -> Result {
        check(bytes: bytes, path: path, loader: SubWorkflowLoader(compiler: self, path: path))
    }

    /// Loads, decodes and checks a workflow, with the files its `workflow:` steps call read through `loader`.
    func check(bytes: [UInt8], path: String, loader: SubWorkflowLoader) -> Result {
        let root: YAMLNode
        do {
            root = try YAMLLoader(limits: loaderLimits).load(bytes, path: path)
        } catch {
            return Result(plan: nil, diagnostics: [Diagnostic(error)])
        }
        if ArazzoDecoder.isArazzoDocument(root) { return checkArazzo(root, path: path, loader: loader) }
        if let key = OpenAPIDocumentDetection.versionKey(of: root) {
            return Result(plan: nil, diagnostics: [Diagnostic(
                .error, .typeMismatch, OpenAPIDocumentDetection.notAWorkflow, at: key.location)])
        }
        var decoder = WorkflowDecoder()
        let workflow = decoder.decode(root, path: path)
        return check(workflow, decodingDiagnostics: decoder.diagnostics, loader: loader)
    }

    /// Checks a decoded workflow.
    /// - Parameters:
    ///   - workflow: The workflow.
    ///   - decodingDiagnostics: What decoding it found, to be reported with the rest.
    /// - Returns: The plan, when there are no errors, and every diagnostic.
    package func check(_ workflow: Workflow, decodingDiagnostics: [Diagnostic] = []) -> Result {
        check(workflow, decodingDiagnostics: decodingDiagnostics,
              loader: SubWorkflowLoader(compiler: self, path: workflow.path))
    }

    private func check(_ workflow: Workflow, decodingDiagnostics: [Diagnostic], loader: SubWorkflowLoader) -> Result {
        var workflow = workflow
        var found = decodingDiagnostics
        // `operation:` steps become ordinary requests first, so every check after this sees one kind of step.
        var lowering = OperationLowering(compiler: self, loader: loader)
        lowering.lower(&workflow)
        found += lowering.diagnostics
        var session = CompilationSession(workflow: workflow, subWorkflows: loader)
        session.diagnostics = found
        let plan: Plan?
        if buildsPlan {
            plan = session.run()
        } else {
            _ = session.check()
            plan = nil
        }
        let diagnostics = Diagnostic.sortedByLocation(session.diagnostics)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return Result(plan: hasErrors ? nil : plan, diagnostics: diagnostics)
    }

    /// Checks an Arazzo document and the workflows it calls (``checkArazzoWorkflows(_:path:loader:)``); running the
    /// top-level one, also that every source name given a server URL or a local copy is one of theirs.
    private func checkArazzo(_ root: YAMLNode, path: String, loader: SubWorkflowLoader) -> Result {
        let (document, checked) = checkArazzoWorkflows(root, path: path, loader: loader)
        loader.noteArazzoSources(document.sourceNames)
        var result = checked
        result.arazzoSourceNames = loader.arazzoSourceNames
        // `lint`, which applies `--source` to every document it checks, asks this of the documents together.
        guard compilesArazzo, reportsUnknownSourceNames, loader.isCompilingTopLevel else { return result }
        let unknown = document.unknownSourceNames(
            arazzoServerURLs.keys.sorted(), given: "a server URL", known: loader.arazzoSourceNames)
            + document.unknownSourceNames(
                sourceDescriptionCopies.keys.sorted(), given: "a local copy", known: loader.arazzoSourceNames)
        guard !unknown.isEmpty else { return result }
        result.diagnostics = Diagnostic.sortedByLocation(result.diagnostics + unknown)
        result.plan = nil
        return result
    }

    /// Checks an Arazzo document, then lowers its workflows into flowrun's and compiles them: every workflow is
    /// checked, and the one ``arazzoWorkflowID`` names (or the only one) becomes the plan.
    /// - Returns: The decoded document and the result.
    private func checkArazzoWorkflows(_ root: YAMLNode, path: String, loader: SubWorkflowLoader)
        -> (ArazzoDocument, Result)
    {
        let operations = operationSourceLoader.map { (loader: loader, read: $0, copies: sourceDescriptionCopies) }
        let checked = ArazzoCheck.checkForLowering(root, path: path, operations: operations)
        let result = checkArazzoWorkflows(checked, path: path, loader: loader)
        return (checked.document, result)
    }

    /// Lowers the workflows of a checked Arazzo document into flowrun's and compiles them.
    private func checkArazzoWorkflows(_ checked: ArazzoCheck.Checked, path: String, loader: SubWorkflowLoader)
        -> Result
    {
        var result = Result(plan: nil, diagnostics: checked.diagnostics, kind: .arazzo)
        // Without an OpenAPI reader no step can be lowered; with errors, lowering would only repeat them.
        guard operationSourceLoader != nil, !result.hasErrors else { return result }
        // Linting, every workflow is lowered and compiled too: for what lowering finds in the document (a criterion
        // flowrun cannot evaluate, a replacement target not in its payload) and flowrun's binding type checks (an
        // object bound into a path parameter). What else compiling finds is about running here (a server to name,
        // a source to copy) and `run`'s to report (see ``compilesArazzo``).
        let keepsCompiled: (Diagnostic) -> Bool = compilesArazzo ? { _ in true } : { $0.code == .bindingTypeMismatch }
        var lowering = ArazzoLowering(checked, serverURLs: arazzoServerURLs)
        var chosen: ArazzoWorkflow?
        if arazzoWorkflowID != nil || checked.document.workflows.count == 1 {
            chosen = lowering.select(arazzoWorkflowID)
            guard chosen != nil else {
                result.diagnostics += lowering.diagnostics
                return result
            }
        }
        // The Arazzo checks and the compilation may find the same thing (a response read the schema forbids): once.
        func identity(_ diagnostic: Diagnostic) -> String {
            "\(diagnostic.location.map(String.init(describing:)) ?? "")\u{0}\(diagnostic.message)"
        }
        var seen = Set(result.diagnostics.map(identity))
        for arazzo in checked.document.workflows where chosen == nil || arazzo.id.value == chosen?.id.value {
            let before = lowering.diagnostics.count
            let workflow = lowering.lower(arazzo)
            let lowered = Array(lowering.diagnostics[before...])
            let compiled = loader.compiling(path, arazzoWorkflowID: arazzo.id.value) {
                check(workflow, decodingDiagnostics: lowered, loader: loader)
            }
            let aboutTheDocument = Set(lowered.filter { $0.code != .unreadableFile }.map(identity))
            for diagnostic in compiled.diagnostics
            where (keepsCompiled(diagnostic) || aboutTheDocument.contains(identity(diagnostic)))
                && seen.insert(identity(diagnostic)).inserted
            {
                result.diagnostics.append(diagnostic)
            }
            if chosen != nil, compilesArazzo { result.plan = compiled.plan }
            result.arazzoWorkflows.append(ArazzoWorkflowCompilation(
                id: arazzo.id.value, plan: compiled.plan, error: compiled.diagnostics.first { $0.severity == .error }))
        }
        result.diagnostics = Diagnostic.sortedByLocation(result.diagnostics)
        if result.hasErrors { result.plan = nil }
        return result
    }

    /// Loads, decodes and checks a workflow, throwing its first error.
    /// - Parameters:
    ///   - yaml: The file's text.
    ///   - path: The file's path, for locations.
    /// - Returns: The plan.
    /// - Throws: A ``FlowError`` for the first error, by location; warnings don't throw.
    public func compile(yaml: String, path: String) throws(FlowError) -> Plan {
        let result = check(yaml: yaml, path: path)
        if let error = result.diagnostics.first(where: { $0.severity == .error }) {
            throw FlowError(error.code, error.message, at: error.location)
        }
        guard let plan = result.plan else {
            throw FlowError(
                .unsupported,
                "\(path) is an Arazzo document: set compilesArazzo, and arazzoWorkflowID when it has several "
                    + "workflows, to compile one of its workflows")
        }
        return plan
    }
}
