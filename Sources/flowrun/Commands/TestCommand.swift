import ArgumentParser
import FlowCore
import FlowOpenAPI
import FlowTesting
import Foundation

/// `flowrun test`: runs workflow test files (`*.test.yaml`) in-process, with no network and in virtual time.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run workflow test files (*.test.yaml): no network, virtual time.",
        discussion: """
            A test file names a workflow and lists cases: inputs, env, stubs (the *.mock.yaml \
            format) and what the run must do — succeed or fail, outputs, the exact sequence of \
            calls, attempts per step, step statuses, the virtual time it takes. Every case runs \
            on its own mock dispatcher and virtual clock, so retries with backoff, Retry-After \
            waits and timeouts take no real time, and elapsed times are exact. Cases run in \
            parallel. docs/testing-workflows.md is the format reference.

            A folder is searched recursively for *.test.yaml and *.test.yml files (hidden \
            folders and .build are skipped). Test files are checked before anything runs, \
            against their workflow too: an expected output or step the workflow lacks, or a \
            stub no step can reach, is an error.

            Exit status: 0 when every case passes, 1 when one fails, 2 when a test file is \
            invalid, no test files are found, the --junit-out file cannot be written, or an \
            argument is wrong; 130, 143 or 129 when \
            SIGINT, SIGTERM or SIGHUP cancelled the run (the results so far are still printed).

            Examples:
              flowrun test
              flowrun test workflows/ --filter refresh
              flowrun test --format github --junit-out report.xml workflows/
            """
    )

    @Argument(help: "Test files or folders to search; the current folder by default.",
              completion: .file(extensions: ["yaml", "yml"]))
    var paths: [String] = ["."]

    @Option(help: ArgumentHelp(
        "Run only the cases whose \"file › case name\" contains this text or matches it as a regular expression.",
        valueName: "pattern"))
    var filter: String?

    @Option(help: "How to print results: human, json, junit (JUnit XML), or github (GitHub Actions annotations).")
    var format: TestOutputFormat = .human

    @Option(name: .customLong("junit-out"), help: ArgumentHelp(
        "Also write a JUnit XML report to this file.", valueName: "file"))
    var junitOut: String?

    @Option(name: .customLong("virtual-timeout"), help: ArgumentHelp(
        "The most virtual time a case may take.", valueName: "duration"))
    var virtualTimeout: String = "10m"

    @Option(name: .customLong("wall-timeout"), help: ArgumentHelp(
        "The most real time a case may take before it is cancelled.", valueName: "duration"))
    var wallTimeout: String = "10s"

    @Option(
        name: .customLong("exclude"),
        help: WorkflowFileFinder.excludeHelp)
    var excludes: [String] = []

    @Flag(help: ArgumentHelp(
        "Start the steps that are ready together in a random order instead of plan order.",
        discussion: "Stubs answer at once, so two steps that nothing orders always run in the same order in a "
            + "test, while over a network either may go first. --shuffle makes such a race fail here; the "
            + "summary prints the seed, and --seed reproduces the order."))
    var shuffle = false

    @Option(help: ArgumentHelp("The seed of --shuffle's order (implies --shuffle); random by default.", valueName: "n"))
    var seed: UInt64?

    @Option(help: "The most cases that run at once; the number of cores by default.")
    var jobs: Int?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        for (option, text) in [("--virtual-timeout", virtualTimeout), ("--wall-timeout", wallTimeout)] {
            if case .failure(let error) = DurationParser.parse(text) {
                throw ValidationError("\(option): \(error.message)")
            }
        }
    }

    func run() async throws {
        let started = ContinuousClock.now
        let files = try WorkflowFileFinder(accepts: WorkflowFileFinder.isTestFileName, excludes: excludes)
            .filesOrExit(in: paths, command: "flowrun test", kind: "test files (*.test.yaml, *.test.yml)")
            .map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
        // The report is created (under a temporary name beside it) before any case runs, so a path that cannot be
        // written fails at once, and is renamed into place when complete, so it is whole or absent.
        let junitFile = try junitOut.map { path in
            do {
                return try PartialFile(path: path)
            } catch {
                throw Self.unwritable(path, error)
            }
        }
        let loaded = await Self.load(files)
        let suites = loaded.compactMap(\.suite)
        let matcher = CaseFilter(filter)
        let selected = Set(suites.flatMap { suite in
            suite.file.cases.map { CaseFilter.label(file: suite.file.path, case: $0.name) }.filter(matcher.includes)
        })
        if let filter, selected.isEmpty, loaded.allSatisfy({ $0.suite != nil }) {
            junitFile?.discard()
            FileHandle.standardError.write(Data("flowrun test: no case matches --filter '\(filter)'\n".utf8))
            throw ExitCode(2)
        }

        var runner = WorkflowTestRunner(logger: logging.makeLogger())
        runner.virtualTimeLimit = (try? DurationParser.parse(virtualTimeout).get()) ?? .seconds(600)
        runner.wallTimeLimit = (try? DurationParser.parse(wallTimeout).get()) ?? .seconds(10)
        if let jobs { runner.maxConcurrentCases = jobs }
        let shuffleSeed = seed ?? (shuffle ? UInt64.random(in: 1...999_999) : nil)
        runner.readyOrderSeed = shuffleSeed
        let configured = runner
        let (results, signal) = await Interrupt.cancelling {
            await configured.run(suites) { suite, testCase in
                selected.contains(CaseFilter.label(file: suite.file.path, case: testCase.name))
            }
        }

        var reports: [TestReportPrinter.FileReport] = []
        var next = 0
        for file in loaded {
            var report = TestReportPrinter.FileReport(path: file.path, diagnostics: file.diagnostics)
            if file.suite != nil {
                report.results = results[next]
                next += 1
            }
            reports.append(report)
        }
        let elapsed = started.duration(to: .now)
        var printer = TestReportPrinter(
            format: format, color: format == .human && Terminal.isColorTerminal(STDOUT_FILENO))
        printer.shuffleSeed = shuffleSeed
        FileHandle.standardOutput.write(Data(printer.render(reports, wallTime: elapsed).utf8))
        if let junitFile {
            let xml = TestReportPrinter(format: .junit, color: false).render(reports, wallTime: elapsed)
            do {
                try junitFile.write(Data(xml.utf8))
            } catch {
                throw Self.unwritable(junitFile.path, error)
            }
        }
        if let signal { throw ExitCode(Interrupt.exitCode(for: signal)) }
        if reports.contains(where: { $0.isInvalid }) { throw ExitCode(2) }
        if reports.contains(where: { $0.results.contains { !$0.passed } }) { throw ExitCode(1) }
    }

    /// Says on standard error that the `--junit-out` file at `path` cannot be written, and why, and returns exit
    /// status 2 to throw.
    private static func unwritable(_ path: String, _ error: any Error) -> ExitCode {
        let reason = error.localizedDescription  // a PartialFile.Unwritable's is its reason
        FileHandle.standardError.write(Data("flowrun test: cannot write \(path): \(reason)\n".utf8))
        return ExitCode(2)
    }

    /// A test file as loaded: its suite, or the problems that prevent one.
    struct LoadedFile: Sendable {
        var path: String
        var suite: WorkflowTestSuite?
        var diagnostics: [Diagnostic]
    }

    /// Loads and checks `files` concurrently, at most one task per core, in the order of `files`.
    static func load(_ files: [String]) async -> [LoadedFile] {
        await files.concurrentMap { path in
            let result = WorkflowTestSuite.load(path: path, compiler: WorkflowCompiler().withOpenAPI())
            return LoadedFile(path: path, suite: result.suite, diagnostics: result.diagnostics)
        }
    }
}

/// Selects cases by `--filter`: a case is run when its `file › name` label contains the text or matches it as a
/// regular expression.
struct CaseFilter {
    let text: String?
    /// The text compiled as a regular expression, when it is one.
    let regex: Regex<AnyRegexOutput>?

    init(_ text: String?) {
        self.text = text
        self.regex = text.flatMap { try? Regex($0) }
    }

    /// The label a filter sees: `workflows/banking.test.yaml › happy path`.
    static func label(file: String, case name: String) -> String { "\(file) › \(name)" }

    /// Whether the case with this label is selected.
    func includes(_ label: String) -> Bool {
        guard let text else { return true }
        if label.contains(text) { return true }
        guard let regex else { return false }
        return label.contains(regex)
    }
}

/// How `flowrun test` prints its results.
enum TestOutputFormat: String, CommandLineChoice {
    /// A line per case with a diff under each failure, then a summary.
    case human
    /// One JSON document.
    case json
    /// JUnit XML, for CI test-report viewers.
    case junit
    /// GitHub Actions annotations (`::error file=…,line=…::`) for failed cases and invalid files.
    case github
}
