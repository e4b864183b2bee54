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
        /// What the file is. An Arazzo document is checked, but not yet compiled into a plan.
        public var kind: DocumentKind = .workflow

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// The kinds of file the compiler reads.
    public enum DocumentKind: Sendable {
        /// A flowrun workflow (`flowrun: 1`).
        case workflow
        /// An Arazzo 1.0.x document (`arazzo: 1.0.1`): checked by the Arazzo front end, not yet run.
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
        if ArazzoDecoder.isArazzoDocument(root) {
            let operations = operationSourceLoader.map { (loader: loader, read: $0, copies: sourceDescriptionCopies) }
            return Result(
                plan: nil, diagnostics: ArazzoCheck.check(root, path: path, operations: operations).diagnostics,
                kind: .arazzo)
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
        let plan = session.run()
        let diagnostics = Diagnostic.sortedByLocation(session.diagnostics)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return Result(plan: hasErrors ? nil : plan, diagnostics: diagnostics)
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
        return result.plan!
    }
}
