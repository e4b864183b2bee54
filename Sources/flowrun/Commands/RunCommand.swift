import ArgumentParser
import FlowCore
import FlowHTTP
import FlowTesting
import Foundation
import Logging

/// `flowrun run`: compiles a workflow and runs it.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workflow.",
        discussion: """
            The file is checked first, exactly as `flowrun lint` does; a file with errors never \
            sends a request. Before the first request, inputs are checked against the workflow's \
            `inputs` schema, every variable declared under `env:` without a default must be set \
            (the workflow reads no other environment variable), and every dispatcher and `use:` \
            interceptor it names must exist.

            Requests go over HTTP (the `http` dispatcher) unless --mock names a stub file, which \
            answers every request in-process with no network.

            An Arazzo 1.0 document (a top-level `arazzo` key) runs too: its steps in order, judged by \
            their successCriteria, with their onSuccess and onFailure actions. --workflow chooses one of \
            its workflows, --server NAME=URL sends a source's operations to another base URL, --source \
            NAME=PATH reads a local copy of a source (docs/arazzo.md). Each response is compared with \
            what its OpenAPI operation describes (status, content type, body): a mismatch is a warning \
            under the step, or fails the attempt with --check-responses error.

            --format junit prints a JUnit XML report (a test case per step) instead; --junit-out \
            writes one to a file alongside any format. --format github prints GitHub Actions \
            annotations: an error naming the failed step and attempt, or a notice on success.

            A repeat, paginate or forEach step prints one line with its counts, (3 pages, 3 attempts); \
            -v/--verbose adds under it a line per iteration or item (its index, request, status, duration \
            and error), and under a workflow step a line per step of the called workflow.

            -v also prints, under each step's line on standard error, every request as it went out (after \
            the interceptors) and every response: the request and status lines and the header fields, \
            curl-style (> sent, < received, * flowrun's notes), one exchange per attempt, per replay after \
            a refresh and per redirect hop. -vv adds the bodies, the first 2 KiB of each (then \
            "… (N more bytes)"); a body that is not text is summarised as <N bytes, content type>. \
            Secrets are redacted everywhere: credential header fields (Authorization, Cookie, X-Api-Key, \
            …), credential query parameters, secret inputs and every credential an interceptor sent. \
            Standard output is untouched, so `flowrun run -v --format json | jq` still works.

            --har-out writes every exchange, redacted the same way, to a HAR 1.2 file that browsers' \
            developer tools and HTTP debuggers open: an entry per attempt, replay and redirect hop, with \
            whole bodies and a _flowrun field naming the step, attempt, item and iteration. It is written \
            when the run ends, whether it succeeded, failed or was interrupted, under a temporary name \
            that is renamed into place, so a crash never leaves a half-written file.

            --record writes every exchange of the run as a stub file that replays it offline (run it again \
            with --mock FILE, no server needed): a stub per method, path and query, the responses in order \
            when a path was called more than once, path segments that a binding filled written as {name} \
            patterns, and credentials matched by presence (Authorization: !present), never written; every \
            secret the run met is *** in the responses. --record-test writes a test file whose case replays \
            the run on those stubs and expects its outputs (or failure) and its exact calls; `flowrun test` \
            runs it. Both are written when the run ends, like --har-out.

            --trace-out writes the run's spans, one JSON object per line: a flowrun.run span, a \
            flowrun.step span per step and an "HTTP <METHOD>" span per attempt, whose context \
            is sent as the W3C traceparent header so the servers' spans join the trace.

            --otlp-endpoint sends the same spans to an OpenTelemetry collector over OTLP/HTTP \
            (protobuf) when the run ends, also when it failed or was interrupted: give the \
            collector's base URL, as OTEL_EXPORTER_OTLP_ENDPOINT holds it (http://127.0.0.1:4318; \
            the spans go to its /v1/traces path). The option's URL wins over OTEL_EXPORTER_OTLP_ENDPOINT \
            and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_SERVICE_NAME (flowrun by default), \
            OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS and the other OTEL_EXPORTER_OTLP_* \
            variables are honoured. A collector that is down or slow (5 s) costs a warning on \
            standard error, never the run's exit status. \(RunCommand.otlpAvailability)

            Responses are read up to 10 MiB (after decompression); --max-body-size raises or lowers \
            the limit.

            Requests go through the proxies that HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (or \
            their lower-case forms), or all through --proxy; --connect-timeout bounds connecting. \
            --cacert trusts a private CA instead of the system's; --cert and --key present a client \
            certificate (mutual TLS). A server under the workflow's servers: may set its own proxy \
            (or none), connectTimeout, cacert, cert, key and insecure: its keys win for the requests sent \
            to it, and these options and variables apply to whatever it leaves unset.

            --repeat N runs the workflow N times, one run after another, in this process: on one engine and \
            one HTTP client, so circuit breakers, the connection pool and a mock's sequences carry over \
            from run to run. --inputs-each FILE runs it once per row of FILE, JSON Lines (an object of \
            inputs per line) or, for a .csv file, CSV (a header row of input names, then a row per run, each \
            cell converted as --input converts a value); each row's inputs are merged over --input and \
            --inputs (the row wins), and with --repeat every row runs N times. A row that cannot be read \
            stops the command with exit status 2, naming the file and line, before the first request. Each \
            run prints one line (run 3/10 ✓ 42 ms, or ✗ with its error; -v adds the step lines), then a \
            summary: the runs that succeeded and failed, and the nearest-rank p50 and p95 and the longest \
            duration. --format json prints one document instead: {"summary": …, "runs": […]}, each run's \
            report as a single run's, with its run and row numbers. They exit 0 when every run succeeds, 1 \
            when any fails; a signal stops the series after the run it cancels. --junit-out, --har-out, \
            --trace-out, --record, --record-test and --format junit or github describe one run and are refused \
            (exit 2); --otlp-endpoint sends every run's trace.

            Exit status: 0 when the run succeeds, 1 when it fails, 2 when the file, an input, an \
            environment variable or an argument is invalid, a dispatcher or interceptor it names is \
            not registered (nothing was sent), or a report, trace, HAR or recording file cannot be written (a path \
            that cannot be written fails before the first request). Ctrl-C (SIGINT), \
            SIGTERM and SIGHUP cancel the requests in flight, print the report of what ran, and exit \
            with 128 + the signal's number: 130, 143 or 129.

            Examples:
              flowrun run workflows/banking.yaml --input token=t-123 --env-file .env
              BANK_URL=https://bank.example flowrun run workflows/banking.yaml \\
                  --mock workflows/banking.mock.yaml --inputs workflows/banking.inputs.json
              flowrun run wf.yaml --inputs inputs.yaml --format json > report.json
              flowrun run wf.yaml --junit-out results.xml --trace-out trace.jsonl
              flowrun run wf.yaml --otlp-endpoint http://127.0.0.1:4318
              flowrun run wf.yaml -v
              flowrun run wf.yaml -vv --har-out run.har
              flowrun run wf.yaml --record wf.mock.yaml --record-test wf.test.yaml
              HTTPS_PROXY=http://proxy.corp:3128 flowrun run wf.yaml --connect-timeout 5s
              flowrun run wf.yaml --repeat 20 --input token=t-123
              flowrun run wf.yaml --inputs-each customers.csv --format json > runs.json
              flowrun run workflows/adopt-pet.arazzo.yaml --server shop=http://127.0.0.1:8080/v1 \\
                  --input species=cat --input adopter=ada
            """
    )

    @Argument(help: "The workflow file, or an Arazzo document.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    @OptionGroup(title: "Arazzo documents")
    var arazzo: ArazzoOptions

    @Option(
        name: .customLong("check-responses"),
        help: ArgumentHelp(
            "For an Arazzo document: what a response its OpenAPI operation does not describe (status, content type, body) leads to: warn (the default), error, or off.",
            valueName: "mode"))
    var checkResponses: ResponseConformance = .warn

    @Option(
        name: .customLong("input"),
        help: ArgumentHelp(
            "An input as name=value; repeatable. The value is read as JSON when the input is not a string (count=3, tags=[\"a\"]).",
            valueName: "name=value"))
    var inputPairs: [String] = []

    @Option(name: .customLong("inputs"), help: "A JSON or YAML file with the inputs as an object.")
    var inputsFile: String?

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp(
            "Run the workflow N times in this process, one run after another, then print a summary.",
            valueName: "N"))
    var repeatCount: Int?

    @Option(
        name: .customLong("inputs-each"),
        help: ArgumentHelp(
            "Run the workflow once per row of this file: JSON Lines (an object per line) or CSV (a header of input names).",
            valueName: "file"),
        completion: .file(extensions: ["jsonl", "csv"]))
    var inputsEach: String?

    @Option(name: .customLong("env-file"), help: "A .env file of NAME=value lines for $env; the process environment wins.")
    var envFile: String?

    @Option(help: "Send every request through this dispatcher, whatever the steps say: http, or mock with --mock.")
    var dispatcher: String?

    @Option(help: "A mock stub file (*.mock.yaml): answer requests in-process, with no network. Implies --dispatcher mock.")
    var mock: String?

    @Option(
        help: """
            How to print the result: human, json (the full run report), junit (JUnit XML), \
            or github (GitHub Actions annotations).
            """)
    var format: RunOutputFormat = .human

    @Option(
        name: .customLong("junit-out"),
        help: ArgumentHelp("Also write a JUnit XML report, a test case per step, to this file.", valueName: "file"))
    var junitOut: String?

    @Option(
        name: .customLong("trace-out"),
        help: ArgumentHelp("Write the run's trace spans to this file, one JSON object per line.", valueName: "file"))
    var traceOut: String?

    @Option(
        name: .customLong("otlp-endpoint"),
        help: ArgumentHelp(
            "Send the run's trace spans over OTLP/HTTP to this OpenTelemetry collector: its base URL, "
                + "such as http://127.0.0.1:4318.",
            discussion: RunCommand.otlpAvailability,
            valueName: "url"))
    var otlpEndpoint: String?

    @Option(
        name: .customLong("har-out"),
        help: ArgumentHelp(
            "Write every request and response, redacted, to this HAR 1.2 file (browsers' developer tools open it).",
            discussion: "An entry per attempt, replay after a refresh and redirect hop; written when the run ends, "
                + "even when it fails.",
            valueName: "file"))
    var harOut: String?

    @Option(
        name: .customLong("record"),
        help: ArgumentHelp(
            "Write every exchange of this run, redacted, as a stub file (*.mock.yaml) that replays it offline with --mock.",
            discussion: "Bound path segments become {name} patterns, a path called more than once answers in order, "
                + "and credentials are matched by presence (Authorization: !present), never written.",
            valueName: "file"),
        completion: .file(extensions: ["yaml"]))
    var record: String?

    @Option(
        name: .customLong("record-test"),
        help: ArgumentHelp(
            "Write a test file (*.test.yaml) with a case that replays this run and expects its outputs and calls.",
            discussion: "It uses the --record file as its mock, or holds the stubs itself.",
            valueName: "file"),
        completion: .file(extensions: ["yaml"]))
    var recordTest: String?

    @Option(
        name: .customLong("max-body-size"),
        help: ArgumentHelp(
            "The largest response body to accept, counted after gzip/deflate decompression (default 10 MiB).",
            discussion: "A size such as 50MiB, 512KiB, 2MB or a number of bytes. A larger body fails the attempt "
                + "with a transport error naming the limit.",
            valueName: "size"))
    var maxBodySize: String?

    @Flag(
        name: [.short, .long],
        help: ArgumentHelp(
            "Print each request and response (-vv: with bodies) and a line per iteration, item or called step.",
            discussion: "On standard error, redacted, under each step's line: the request and status lines and "
                + "header fields of every attempt, replay and redirect hop; -vv adds the bodies, the first "
                + "2 KiB of each, and a binary body's size and type. Without -v, a loop, forEach or workflow "
                + "step prints one summary line: (3 pages, 3 attempts)."))
    var verbose: Int

    @Flag(help: "Do not verify TLS certificates. Only for test servers you control.")
    var insecure = false

    @Option(
        help: ArgumentHelp(
            "Send every request through this HTTP proxy: http://[user:password@]host:port.",
            discussion: """
                Without it, HTTPS_PROXY (for https URLs), HTTP_PROXY (for http URLs) and NO_PROXY \
                (hosts reached directly) are honoured, also in lower case. The proxy tunnels each \
                request (CONNECT), https ones too.
                """,
            valueName: "url"))
    var proxy: String?

    @Option(
        help: ArgumentHelp(
            "How long connecting to a server or proxy may take, within the attempt's limit: 5s, 500ms (10s by default).",
            valueName: "duration"))
    var connectTimeout: String?

    @Option(
        name: .customLong("cacert"),
        help: ArgumentHelp(
            "Trust the certificate authorities in this PEM file instead of the system's: for an API behind a private CA.",
            valueName: "file"))
    var caCertificates: String?

    @Option(
        name: .customLong("cert"),
        help: ArgumentHelp(
            "Present this client certificate (PEM, optionally followed by its chain) for mutual TLS.",
            discussion: "Its private key comes from --key, or from this file when it holds the key too.",
            valueName: "file"))
    var certificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("The client certificate's private key (PEM, unencrypted).", valueName: "file"))
    var key: String?

    @Option(help: "The most steps that run at once.")
    var maxConcurrency = 8

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if maxConcurrency < 1 { throw ValidationError("--max-concurrency must be at least 1.") }
        for pair in inputPairs where !pair.contains("=") {
            throw ValidationError("--input takes name=value; '\(pair)' has no '='.")
        }
        if let repeatCount, repeatCount < 1 { throw ValidationError("--repeat must be at least 1.") }
        if let otlpEndpoint {
            #if OTLP
            guard OTLPEndpoint(otlpEndpoint) != nil else {
                throw ValidationError(
                    "--otlp-endpoint: '\(otlpEndpoint)' is not an http or https URL; give the collector's base URL, "
                        + "such as http://127.0.0.1:4318.")
            }
            #else
            throw ValidationError(
                "--otlp-endpoint: this flowrun was built without OTLP export (--disable-default-traits); build it with `swift build`, which includes it.")
            #endif
        }
        if repeatCount != nil || inputsEach != nil {
            let option = repeatCount != nil ? "--repeat" : "--inputs-each"
            let refused = [
                ("--junit-out", junitOut), ("--har-out", harOut), ("--trace-out", traceOut), ("--record", record),
                ("--record-test", recordTest),
            ]
                .filter { $0.1 != nil }.map(\.0) + (format == .junit || format == .github ? ["--format \(format)"] : [])
            if let first = refused.first {
                // A report option has a series' counterpart; a recording has none.
                let hint = first.hasPrefix("--record") ? "record one run" : "use --format json for every run's report"
                throw ValidationError("\(option) runs the workflow several times; \(first) describes one run and cannot be combined with it (\(hint)).")
            }
        }
    }

    func run() async throws {
        let logger = logging.makeLogger()
        let processEnvironment = ProcessInfo.processInfo.environment
        // The HTTP client needs only the options: it is made while the workflow compiles. A bad option is
        // reported where it always was, after the workflow's own errors.
        let bodyLimit: Int? =  // nil: --max-body-size is not a size
            if let maxBodySize { ByteCount(parsing: maxBodySize)?.bytes } else {
                AsyncHTTPClientDispatcher.Configuration.defaultMaxResponseBodySize
            }
        let network = Result { () throws(NetworkOptions.Invalid) in
            try NetworkOptions(
                proxy: proxy, connectTimeout: connectTimeout, caCertificates: caCertificates, certificate: certificate,
                key: key, environment: processEnvironment)
        }
        let http: PreparedHTTPDispatcher? =
            if let bodyLimit, case .success(let network) = network {
                PreparedHTTPDispatcher(insecure: insecure, maxResponseBodySize: bodyLimit, network: network)
            } else {
                nil
            }
        var loader = PlanLoader(commandName: "run", format: format == .github ? .github : .human, arazzo: arazzo)
        if format == .json || format == .junit, repeatCount == nil, inputsEach == nil {
            // A file that does not compile is a failed run too: its report names the first error, located.
            let printer = RunPrinter(format: format, stderrIsTerminal: false, verbose: 0)
            let file = file
            loader.failureReport = { error in printer.finish(.notStarted(workflow: file, error: error)) }
        }
        let plan = try loader.load(file)
        let inputs = try RunInputs(plan: plan).collect(pairs: inputPairs, file: inputsFile)
        // Every row is read before the first request, so a malformed one sends nothing.
        let rows = inputsEach.map { InputRows(inputs: RunInputs(plan: plan)).load($0) }
        let environment: [String: String]
        do {
            environment = try (envFile.map { try DotEnv.load($0) } ?? [:])
                .merging(processEnvironment) { _, process in process }
        } catch {
            Self.fail("\(error)")
        }

        var registry = DispatcherRegistry()
        var selected = dispatcher
        if let mock {
            registry.register(MockDispatcher(stubs: try StubFileLoader(commandName: "run").load([mock])), as: "mock")
            selected = selected ?? "mock"
        }
        if let selected, selected != "http", registry[selected] == nil {
            let hint = selected == "mock" ? " (the mock dispatcher needs --mock <stub file>)" : ""
            Self.fail("no dispatcher named '\(selected)'\(hint); available: \((registry.names + ["http"]).sorted().joined(separator: ", "))")
        }
        if let maxBodySize, bodyLimit == nil {
            Self.fail("--max-body-size: '\(maxBodySize)' is not a size; write one such as 50MiB, 512KiB, 2MB or 1048576")
        }
        do {
            _ = try network.get()
            // A server's proxy and certificate files are the HTTP dispatcher's: a mock run does not read them.
            if selected == nil || selected == "http" {
                try NetworkOptions.checkServers(of: plan, environment: environment)
            }
        } catch {
            Self.fail("\(error)")
        }
        // Report files are created before the first request, so a bad path fails before anything is sent.
        let junitFile: PartialFile? = junitOut.map { path in
            do {
                return try PartialFile(path: path)
            } catch {
                Self.fail("cannot write the JUnit report to \(path): \(error)")
            }
        }
        let har: HARRecorder? = harOut.map { path in
            do {
                return try HARRecorder(path: path)
            } catch {
                junitFile?.discard()
                Self.fail("cannot write the HAR file to \(path): \(error)")
            }
        }
        let recording: RunRecording?
        do {
            recording = try RunRecording(stubFile: record, testFile: recordTest, workflow: file)
        } catch {
            junitFile?.discard()
            har?.discard()
            Self.fail("\(error)")
        }
        let tracing: RunTracing?
        do {
            tracing = try RunTracing.start(traceOut: traceOut, otlpEndpoint: otlpEndpoint.flatMap(OTLPEndpoint.init))
        } catch {
            junitFile?.discard()
            har?.discard()
            recording?.discard()
            Self.fail(error.message)
        }
        let printer = RunPrinter(
            format: format, stderrIsTerminal: Terminal.isColorTerminal(STDERR_FILENO), verbose: verbose)
        let exchangeObservers: [any ExchangeObserver] =
            (verbose > 0 ? [printer] : []) + (har.map { [$0] } ?? []) + (recording.map { [$0.recorder] } ?? [])
        guard let http else { preconditionFailure("the options that make the HTTP client were checked above") }
        let engine = EngineSetup(
            registry: registry, selected: selected, logger: logger, maxConcurrency: maxConcurrency, http: http,
            exchangeObservers: exchangeObservers, responseConformance: checkResponses)
        if repeatCount != nil || rows != nil {
            let runs = (rows.map { $0.map(Optional.some) } ?? [nil]).flatMap { row in Array(repeating: row, count: repeatCount ?? 1) }
            let series = RunSeries(printer: printer, total: runs.count)
            let stepLines: RunPrinter? = verbose > 0 ? printer : nil  // -v: every step's line too
            let (finished, signal) = try await engine.run { engine in
                await Interrupt.cancelling {
                    var series = series
                    for (index, row) in runs.enumerated() where !Task.isCancelled {
                        let runInputs = inputs.merging(row?.inputs ?? [:]) { _, row in row }
                        let report = await engine.run(
                            plan, inputs: runInputs, environment: environment, observer: stepLines)
                        series.finished(RunSeries.Run(number: index + 1, row: row?.number, report: report))
                    }
                    return series
                }
            }
            finished.finish()
            _ = await tracing?.finish()  // --trace-out is refused here, so only an export is finished.
            if let signal { throw ExitCode(Interrupt.exitCode(for: signal)) }
            if finished.failed > 0 { throw ExitCode(1) }
            return
        }
        let (report, signal) = try await engine.run { engine in
            await Interrupt.cancelling {
                await engine.run(plan, inputs: inputs, environment: environment, observer: printer)
            }
        }
        printer.finish(report)
        // Reports are written whole or not at all (a temporary file renamed into place): a full disk leaves
        // no truncated file that looks like a passing run, and the run exits 2.
        var unwritten: [String] = []
        if let junitFile {
            do {
                try junitFile.write(Data(JUnitXML.run(report).render().utf8))
            } catch {
                unwritten.append("cannot write the JUnit report to \(junitFile.path): \(error.localizedDescription)")
            }
        }
        if let har, let harOut {
            do {
                try har.write(report)
            } catch {
                unwritten.append("cannot write the HAR file to \(harOut): \(error.localizedDescription)")
            }
        }
        if let recording {
            unwritten += recording.write(
                plan: plan, report: report, inputs: inputs,
                environment: RecordedTestFile.declaredEnvironment(of: plan, in: environment))
        }
        unwritten += await tracing?.finish() ?? []
        if !unwritten.isEmpty { Self.fail(unwritten.joined(separator: "\nflowrun run: ")) }
        if let signal { throw ExitCode(Interrupt.exitCode(for: signal)) }  // 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP)
        if let error = report.error {
            // Invalid inputs, unset environment variables and unregistered names are usage errors:
            // the run stopped before its first request.
            let nothingRan = report.steps.allSatisfy { $0.attempts.isEmpty }
            let usage: Set<FlowError.Code> = [.validation, .unknownReference]
            throw ExitCode(usage.contains(error.code) && nothingRan ? 2 : 1)
        }
    }

    /// The engine the options describe, on the run's own HTTP client, which is shut down after the runs.
    ///
    /// Every run of a `--repeat` or `--inputs-each` series runs on the one engine, so they share its
    /// circuit breakers, the HTTP client's connection pool and the mock's sequences.
    struct EngineSetup {
        var registry: DispatcherRegistry
        var selected: String?
        var logger: Logger
        var maxConcurrency: Int
        var http: PreparedHTTPDispatcher
        var exchangeObservers: [any ExchangeObserver]
        var responseConformance: ResponseConformance = .warn

        /// Runs `body` with the engine; its result comes back before the HTTP client has shut down
        /// (``PreparedHTTPDispatcher/use(_:)``).
        /// - Throws: The error of making the HTTP client, when it could not be made.
        func run<Result: Sendable>(_ body: @escaping @Sendable (Engine<ContinuousClock>) async -> Result) async throws
            -> Result
        {
            let setup = self
            return try await http.use { http in
                var registry = setup.registry
                registry.register(http, as: "http")
                var engine = Engine(dispatchers: registry, logger: setup.logger, maxConcurrentSteps: setup.maxConcurrency)
                engine.dispatcherOverride = setup.selected
                engine.responseConformance = setup.responseConformance
                if !setup.exchangeObservers.isEmpty {
                    engine.exchangeObserver = setup.exchangeObservers.count == 1
                        ? setup.exchangeObservers[0] : ExchangeFanOut(observers: setup.exchangeObservers)
                }
                return await body(engine)
            }
        }
    }

    /// Whether this build can export over OTLP, as `--help` says under `--otlp-endpoint`.
    static var otlpAvailability: String {
        #if OTLP
        "This build exports (the OTLP trait, on by default)."
        #else
        "Not in this build: it was built without the OTLP trait (--disable-default-traits); a plain `swift build` includes it."
        #endif
    }

    /// Prints `message` to standard error and exits 2.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("flowrun run: \(message)\n".utf8))
        Foundation.exit(2)
    }
}

/// How `flowrun run` prints its result.
enum RunOutputFormat: String, CommandLineChoice {
    /// A line per step as it finishes, then the outputs.
    case human
    /// One JSON document: outputs and the run report.
    case json
    /// JUnit XML: a test suite for the run, a test case per step.
    case junit
    /// GitHub Actions annotations: the error of a failed run, or a notice on success; step lines on standard error.
    case github
}
