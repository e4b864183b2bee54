public import FlowCore

/// A workflow test file together with the compiled workflow it tests: what ``WorkflowTestRunner`` runs.
///
/// ```swift
/// let loaded = WorkflowTestSuite.load(path: "workflows/banking.test.yaml")
/// guard let suite = loaded.suite else {
///     loaded.diagnostics.forEach { print($0) }   // file:line:col: error: …
///     return
/// }
/// let results = await WorkflowTestRunner(logger: logger).run(suite)
/// ```
public struct WorkflowTestSuite: Sendable {
    /// The decoded test file.
    public var file: WorkflowTestFile
    /// The compiled workflow.
    public var plan: Plan

    /// Creates a suite from a test file and a plan compiled from its workflow.
    /// - Parameters:
    ///   - file: The test file.
    ///   - plan: The compiled workflow.
    public init(file: WorkflowTestFile, plan: Plan) {
        self.file = file
        self.plan = plan
    }

    /// What loading a test file found.
    public struct LoadResult: Sendable {
        /// The suite, when the test file, its stub files and its workflow have no errors.
        public var suite: WorkflowTestSuite?
        /// Every problem, in the test file, its stub files or the workflow, each with its location.
        public var diagnostics: [Diagnostic]
    }

    /// Reads a test file, its stub files and its workflow from disk, compiles the workflow and lints the test
    /// file against it.
    ///
    /// Problems of every kind are collected: the test file's format (see
    /// ``WorkflowTestFile/check(bytes:path:loader:loadMock:)``), its stub files, the workflow's compile
    /// errors (its warnings are `flowrun lint`'s business and are left out), and the test file's
    /// references to the workflow (see ``WorkflowTestFile/lint(against:)``).
    /// - Parameters:
    ///   - path: The test file's path.
    ///   - compiler: The compiler for the workflow; its loader limits apply to the test file too.
    /// - Returns: The suite, or `nil` with the problems that prevent it.
    public static func load(path: String, compiler: WorkflowCompiler = WorkflowCompiler()) -> LoadResult {
        let limit = compiler.loaderLimits.maxFileSize
        let bytes: [UInt8]
        switch FileReader.read(path, limit: limit, kind: "a test file") {
        case .success(let read): bytes = read
        case .failure(let error): return LoadResult(suite: nil, diagnostics: [Diagnostic(error)])
        }
        let checked = WorkflowTestFile.check(
            bytes: bytes, path: path, loader: YAMLLoader(limits: compiler.loaderLimits))
        guard let file = checked.file else { return LoadResult(suite: nil, diagnostics: checked.diagnostics) }
        var diagnostics = checked.diagnostics
        let workflowBytes: [UInt8]
        switch FileReader.read(file.workflowPath, limit: limit) {
        case .success(let read):
            workflowBytes = read
        case .failure(var error):
            error.message = "cannot test \(file.workflowPath): \(error.message)"
            error.location = file.workflow.location
            return LoadResult(suite: nil, diagnostics: diagnostics + [Diagnostic(error)])
        }
        // An Arazzo document's workflow is compiled into the plan under test, the one `workflowId:` names.
        var compiler = compiler
        compiler.compilesArazzo = true
        compiler.arazzoWorkflowID = file.arazzoWorkflowID?.value
        compiler.arazzoServerURLs = file.arazzoServerURLs
        compiler.reportsUnknownSourceNames = false  // reported below, at the names in this file
        let compiled = compiler.check(bytes: workflowBytes, path: file.workflowPath)
        diagnostics += compiled.diagnostics.filter { $0.severity == .error }
        diagnostics += file.unknownServerNames(compiled)
        if compiled.kind == .arazzo, !compiled.hasErrors, compiled.plan == nil {
            diagnostics.append(Diagnostic(
                .error, .missingKey,
                "\(file.workflow.value) is an Arazzo document with several workflows: name the one to test with "
                    + "'workflowId:'",
                at: file.workflow.location))
        } else if compiled.kind == .workflow, let key = file.arazzoWorkflowID {
            diagnostics.append(Diagnostic(
                .error, .invalidValue,
                "'workflowId' chooses a workflow of an Arazzo document; \(file.workflow.value) is a flowrun workflow",
                at: key.location))
        }
        guard let plan = compiled.plan, !compiled.hasErrors else {
            return LoadResult(suite: nil, diagnostics: diagnostics)
        }
        diagnostics += file.lint(against: plan)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return LoadResult(suite: hasErrors ? nil : WorkflowTestSuite(file: file, plan: plan), diagnostics: diagnostics)
    }
}

extension WorkflowTestFile {
    /// An error at each name under `servers:` that is not a source of the Arazzo document under test (nor of an
    /// Arazzo document it calls), with a did-you-mean; or one at `servers:` when the workflow is a flowrun workflow,
    /// whose servers take their URLs from the workflow itself. A name that is not there would otherwise be ignored,
    /// and the case would send the source's requests to its OpenAPI document's own server.
    /// - Parameter compiled: What compiling the workflow found.
    fileprivate func unknownServerNames(_ compiled: WorkflowCompiler.Result) -> [Diagnostic] {
        switch compiled.kind {
        case .arazzo:
            return arazzoServerNames.filter { !compiled.arazzoSourceNames.contains($0.value) }.map { name in
                Diagnostic(
                    .error, .unknownReference,
                    ArazzoDocument.unknownSourceMessage(
                        name.value, given: "a server URL", known: compiled.arazzoSourceNames, document: workflow.value),
                    at: name.location)
            }
        case .workflow:
            guard let serversKey, !compiled.hasErrors else { return [] }
            return [Diagnostic(
                .error, .invalidValue,
                "'servers' gives base URLs to the sources of an Arazzo document; \(workflow.value) is a flowrun "
                    + "workflow: give the URLs its own 'servers:' read with 'env' or 'inputs'",
                at: serversKey)]
        }
    }
}
