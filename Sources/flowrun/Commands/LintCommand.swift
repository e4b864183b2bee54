import ArgumentParser
import FlowCore
import FlowOpenAPI
import Foundation

/// `flowrun lint`: checks workflow files without running them.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check workflow files for errors without running them.",
        discussion: """
            Every file is loaded, decoded and compiled: YAML syntax, unknown keys, value types, \
            durations, runtime expressions, references to steps, types, servers, interceptors, \
            policies and vars, the type of every binding, and dependency cycles. All problems of \
            a file are reported, not just the first.

            A file with a top-level 'arazzo' key is read as an Arazzo 1.0.x document and checked \
            the same way: every object of the specification, criteria, runtime expressions, every \
            reference across the document, and the operations its steps call in their OpenAPI \
            sources, with what each step reads from its response (docs/arazzo.md). --explain \
            explains each of its workflows.

            A folder is searched recursively for *.yaml and *.yml files; test files (*.test.yaml) \
            and mock stub files (*.mock.yaml) are skipped.

            With --explain, lint then prints, for each workflow without errors, every step's \
            worst case under its error policy: the policy, the most attempts and requests (a \
            refresh interceptor's replay and refresh step included) and the longest time, \
            capped by the total timeout. A repeat or paginate step counts maxIterations or maxPages \
            iterations and the waits between them; a forEach step's figures are per item (the \
            number of items is unknown until run time); a workflow step costs the called file's \
            total. A last line adds up the workflow's regular steps. docs/failure-handling.md says \
            how each figure is computed.

            --format sarif prints a SARIF 2.1.0 log for GitHub code scanning (upload it with \
            github/codeql-action/upload-sarif); --format junit prints JUnit XML with a test case \
            per file, failed by its errors (and warnings, with --strict). Neither includes the \
            --explain tables.

            Exit status: 0 when no file has errors (or warnings, with --strict), 1 when one \
            has, 2 when an argument is wrong or a file cannot be read.

            Examples:
              flowrun lint workflows/
              flowrun lint --strict --format github workflows/*.yaml
              flowrun lint --explain workflows/banking.yaml
              flowrun lint --format sarif workflows/ > flowrun.sarif
            """
    )

    @Argument(help: "Workflow files or folders to check.", completion: .file(extensions: ["yaml", "yml"]))
    var paths: [String]

    @Option(
        help: """
            How to print findings: human, json, github (GitHub Actions annotations), sarif (SARIF 2.1.0), \
            or junit (JUnit XML).
            """)
    var format: OutputFormat = .human

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Flag(help: "Print nothing for files without findings, and no summary.")
    var quiet = false

    @Flag(help: "Also print each step's worst-case attempts, requests and time under its policy.")
    var explain = false

    @Option(
        name: .customLong("exclude"),
        help: WorkflowFileFinder.excludeHelp)
    var excludes: [String] = []

    @Option(
        name: .customLong("max-findings"),
        help: ArgumentHelp(
            "The most findings printed per file in human and github output; 0 prints all.",
            discussion: "The rest are counted in one line. json, sarif and junit always list every finding.",
            valueName: "n"))
    var maxFindings = DiagnosticPrinter.defaultMaxFindings

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp(
            "A local copy of an Arazzo document's source description, read instead of its url.",
            discussion: """
                NAME is the source's 'name' in sourceDescriptions, PATH a file relative to the current \
                directory: flowrun does not fetch remote documents, so --source lets lint check the \
                operations of a source whose url is remote. Repeatable.
                """,
            valueName: "name=path"))
    var sources: [String] = []

    /// ``sources`` by source name.
    var sourceCopies: [String: String] {
        (try? ArazzoOptions.pairs(sources, option: "--source", example: "")) ?? [:]
    }

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one workflow file or folder.") }
        let copies = try ArazzoOptions.pairs(sources, option: "--source", example: "petstore=./petstore.openapi.yaml")
        // A copy named on the command line that is not there is a mistake in the command, not a finding in a file.
        for (name, path) in copies.sorted(by: { $0.key < $1.key }) where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("--source \(name)=\(path): no such file.")
        }
        if maxFindings < 0 { throw ValidationError("--max-findings takes 0 (all) or a positive number.") }
    }

    func run() async throws {
        let files = try WorkflowFileFinder(excludes: excludes).filesOrExit(
            in: paths, command: "flowrun lint", kind: "workflow files (*.yaml, *.yml)")
        let reports = await Self.lint(files, explain: explain, sourceCopies: sourceCopies)
        try Self.checkSourceNames(sourceCopies, in: reports)
        let printer = DiagnosticPrinter(
            format: format, color: format == .human && Terminal.isColorTerminal(STDOUT_FILENO),
            showsSummary: !quiet, explains: explain, strict: strict, maxFindings: maxFindings)
        // An explanation was asked for, so --quiet keeps the files without findings when explaining;
        // in JUnit a file without findings is a passed test case, which --quiet does not hide.
        let hidesClean = quiet && !explain && format != .junit
        let output = printer.render(hidesClean ? reports.filter { !$0.diagnostics.isEmpty } : reports)
        FileHandle.standardOutput.write(Data(output.utf8))
        let diagnostics = reports.flatMap(\.diagnostics)
        if reports.contains(where: { $0.source == nil }) { throw ExitCode(2) }
        if diagnostics.contains(where: { $0.severity == .error || strict }) { throw ExitCode(1) }
    }

    /// Lints `files` concurrently, at most one task per core, returning reports in the order of `files`.
    /// - Parameters:
    ///   - files: The workflow files.
    ///   - explain: Whether to analyse the policies of the files without errors.
    ///   - sourceCopies: Local copies of Arazzo source descriptions, by source name (`--source`).
    static func lint(_ files: [String], explain: Bool = false, sourceCopies: [String: String] = [:]) async
        -> [DiagnosticPrinter.FileReport]
    {
        let compiler = {
            var compiler = WorkflowCompiler().withOpenAPI()
            compiler.sourceDescriptionCopies = sourceCopies
            compiler.buildsPlan = explain  // only --explain reads the plan
            return compiler
        }()
        let limit = compiler.loaderLimits.maxFileSize
        return await files.concurrentMap { path -> DiagnosticPrinter.FileReport in
            switch SourceFile.read(path, limit: limit) {
            case .failure(let error):
                let source: SourceFile? = error.code == .limitExceeded ? SourceFile(path: path, bytes: []) : nil
                return .init(source: source, path: path, diagnostics: [Diagnostic(error)])
            case .success(let source):
                if let findings = Self.openAPIDocumentFindings(source, path: path, compiler: compiler) {
                    return .init(source: source, path: path, diagnostics: findings)
                }
                let result = compiler.check(bytes: source.bytes, path: path)
                var report = DiagnosticPrinter.FileReport(source: source, path: path, diagnostics: result.diagnostics)
                report.isArazzo = result.kind == .arazzo
                report.arazzoSourceNames = result.arazzoSourceNames
                guard explain, !result.hasErrors else { return report }
                if let plan = result.plan {
                    report.explained = [PolicyAnalysisPrinter.Explained(
                        heading: path, analysis: PolicyAnalysis(plan: plan), note: Self.rerunNote(plan))]
                }
                for workflow in result.arazzoWorkflows {
                    report.explained.append(Self.explain(workflow, of: path))
                }
                return report
            }
        }
    }

    /// Exits 2, saying so on standard error, when a `--source` names a source that none of the Arazzo documents
    /// checked has: a misspelt name would otherwise be ignored, and the copy never read.
    /// - Parameters:
    ///   - copies: The local copies, by source name (`--source NAME=PATH`).
    ///   - reports: The reports of the files checked.
    /// - Throws: `ExitCode(2)`.
    static func checkSourceNames(_ copies: [String: String], in reports: [DiagnosticPrinter.FileReport]) throws {
        let known = reports.reduce(into: Set<String>()) { $0.formUnion($1.arazzoSourceNames) }
        for (name, path) in copies.sorted(by: { $0.key < $1.key }) where !known.contains(name) {
            let message = reports.contains(where: \.isArazzo)
                ? "no Arazzo document checked has a source '\(name)'" + Suggestion.didYouMean(name, in: known.sorted())
                : "no Arazzo document was checked"
            FileHandle.standardError.write(Data("flowrun lint: --source \(name)=\(path): \(message)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// What the OpenAPI reader finds in `source` when it is an OpenAPI document (a top-level `openapi` key holding
    /// its version, and no `flowrun` or `arazzo` one), as a workflow's `openapi:` entry would report it; `nil` for
    /// any other file, which is checked as a workflow or Arazzo document. Named on its own, such a file is not a
    /// workflow with a dozen unknown keys but the document a workflow calls.
    private static func openAPIDocumentFindings(_ source: SourceFile, path: String, compiler: WorkflowCompiler)
        -> [Diagnostic]?
    {
        // A byte search first, for a line that starts with `openapi` and none with `flowrun`: every workflow lint
        // checks goes through here, and only a likely OpenAPI document is read twice.
        guard let read = compiler.operationSourceLoader, OpenAPIDocumentDetection.mayBeOpenAPIDocument(source.bytes),
            let root = try? YAMLLoader(limits: compiler.loaderLimits).load(source.bytes, path: path),
            OpenAPIDocumentDetection.versionKey(of: root) != nil
        else { return nil }
        return read(source.bytes, path, "").diagnostics
    }

    /// The worst case of `workflow` of the Arazzo document at `path`, compiled as `run` compiles it when lint
    /// checked the document.
    private static func explain(_ workflow: WorkflowCompiler.ArazzoWorkflowCompilation, of path: String)
        -> PolicyAnalysisPrinter.Explained
    {
        var explained = PolicyAnalysisPrinter.Explained(heading: "\(path)#\(workflow.id)", workflowID: workflow.id)
        guard let plan = workflow.plan else {
            explained.unexplained = workflow.error.map { "it cannot be run here: \($0.message)" } ?? "it has errors"
            return explained
        }
        explained.analysis = PolicyAnalysis(plan: plan)
        explained.note = rerunNote(plan)
        return explained
    }

    /// What the figures per run of a step leave out: the rules that run steps again (a `goto`, an Arazzo `retry`
    /// that runs a step first), with their bounds as the plan has them; `nil` when there are none.
    private static func rerunNote(_ plan: Plan) -> String? {
        let rules = plan.workflow.catchRules + plan.steps.flatMap(\.step.onError)
        let gotoVisits = rules.compactMap { if case .goto = $0.action { $0.maxVisits } else { nil } }
            + plan.steps.flatMap(\.step.onSuccess).compactMap { if case .goto = $0.action { $0.maxVisits } else { nil } }
        let retries = rules.compactMap { if case .run(_, .retry) = $0.action { $0.retryLimit } else { nil } }
        var notes: [String] = []
        if let most = gotoVisits.max() {
            notes.append("per run of a step: a goto runs its target and the steps after it again, its target at most "
                + "\(most) times in a run")
        }
        if let most = retries.max() {
            notes.append("a retry that runs a step or workflow first runs it and the failed step again, at most "
                + "\(most) time\(most == 1 ? "" : "s") per rule")
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}
