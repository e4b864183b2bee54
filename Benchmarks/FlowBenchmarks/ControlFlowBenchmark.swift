import FlowCore
import FlowTesting
import Foundation

/// The control-flow pieces of the engine: the run state machine's transitions on their own against a whole
/// `Engine.run` of the same chain, and polling on the virtual clock of `flowrun test`: a retry rule with `if` (at
/// most 100 attempts) and a `repeat` loop (the 1,000-iteration poll).
struct ControlFlowBenchmark {
    var chainLength = 1_000
    var rounds = 20
    /// A retry rule allows at most 100 attempts; a longer poll is a loop.
    var pollIterations = [10, 100]
    /// The iterations of the `repeat` poll.
    var repeatIterations = [100, 1_000]

    var fanOutItems = 10_000

    func run() async throws {
        try await transitions()
        try await fanOut()
        for iterations in pollIterations { try await poll(iterations: iterations, loop: false) }
        for iterations in repeatIterations { try await poll(iterations: iterations, loop: true) }
    }

    /// Events per second of ``RunStateMachine`` alone, and its share of a run of the same chain on a no-op
    /// dispatcher.
    private func transitions() async throws {
        var generator = WorkflowGenerator(seed: 1)
        let plan = try Bench.compile(generator.workflow(index: 0, steps: chainLength), path: "chain.yaml")
        var events = 0
        var machine = Bench.Timed.infinity
        for _ in 0..<5 { machine = machine.best(await Bench.measure { events = plan.driveStateMachine(rounds: rounds) }) }
        let engine = Engine(
            dispatchers: DispatcherRegistry(["http": EngineBenchmark.CannedDispatcher()]), logger: Bench.quietLogger)
        var run = Bench.Timed.infinity
        for _ in 0..<5 {
            run = run.best(await Bench.measure {
                for _ in 0..<rounds { _ = await engine.run(plan, inputs: ["token": "t-1"], environment: [:]) }
            })
        }
        let perEvent = machine.cpu / Double(events) * 1e9
        let perStepRun = run.cpu / Double(rounds * chainLength) * 1e6
        print("state machine: \(events) events (\(rounds) runs of a \(chainLength)-step chain)")
        print(String(
            format: "  %.0f events/s, %.0f ns per event; Engine.run of the same chain %.2f µs per step: "
                + "the decisions are %.1f%% of it",
            Double(events) / machine.cpu, perEvent, perStepRun, perEvent / 1e3 / perStepRun * 100))
    }

    /// A `forEach` over `fanOutItems` items on a no-op dispatcher, 16 at a time: µs per item and the resident
    /// memory it added, against the same number of one-step runs.
    private func fanOut() async throws {
        let yaml = """
            flowrun: 1
            inputs: { type: object, properties: { ids: { type: array, items: { type: string } } } }
            steps:
              - id: each
                forEach: $inputs.ids
                maxConcurrency: 16
                request: { method: GET, path: "https://bench.local/items/{$item}" }
                outputs: { id: $response.body#/id }
            outputs: { ids: $steps.each.outputs.id }
            """
        let plan = try Bench.compile(yaml, path: "fan-out.yaml")
        let engine = Engine(
            dispatchers: DispatcherRegistry(["http": EngineBenchmark.CannedDispatcher()]), logger: Bench.quietLogger)
        let ids = JSONValue.array((0..<fanOutItems).map { .string("i-\($0)") })
        let before = Bench.residentBytes()
        var report: RunReport?
        let timed = await Bench.measure { report = await engine.run(plan, inputs: ["ids": ids], environment: [:]) }
        let after = Bench.residentBytes()
        guard let report, report.succeeded, report.outputs["ids"]?.arrayValue?.count == fanOutItems else {
            throw BenchError("the fan-out failed: \(report?.error.map { "\($0)" } ?? "no report")")
        }
        print(String(
            format: "forEach: %d items, 16 at a time: %.1f µs per item (CPU %.1f), resident memory +%@ "
                + "(outputs and every item's attempt kept for the report)",
            fanOutItems, timed.wall * 1e6 / Double(fanOutItems), timed.cpu * 1e6 / Double(fanOutItems),
            Bench.megabytes(max(0, after - before))))
    }

    /// A job polled `iterations` times (a retry rule with `if`, or with `loop` a `repeat` step; exponential
    /// backoff capped at 30 s) on the virtual clock: the wall time of the whole test case.
    private func poll(iterations: Int, loop: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-poll-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = loop
            ? """
            flowrun: 1
            steps:
              - id: status
                request: { method: GET, path: "https://jobs.example/exports/1" }
                repeat: { until: "$response.body#/status == 'done'", maxIterations: \(iterations), delay: 1s, backoff: exponential, maxDelay: 30s }
                outputs: { file: $response.body#/file }
            outputs: { file: $steps.status.outputs.file }
            """
            : """
            flowrun: 1
            policies:
              poll:
                retry:
                  - { when: { if: "$response.body#/status != 'done'" }, attempts: \(iterations), delay: 1s, backoff: exponential, maxDelay: 30s }
            steps:
              - id: status
                request: { method: GET, path: "https://jobs.example/exports/1" }
                policy: poll
                outputs: { file: $response.body#/file }
            outputs: { file: $steps.status.outputs.file }
            """
        let running = Array(repeating: "      - { body: { status: running } }", count: iterations - 1)
        let test = """
            flowrun-test: 1
            workflow: poll.yaml
            stubs:
              - match: { path: /exports/1 }
                respond:
            \(running.joined(separator: "\n"))
                  - { body: { status: done, file: /f/1 } }
            cases:
              - name: polled until done
                expect: { outputs: { file: /f/1 } }
            """
        try workflow.write(to: folder.appendingPathComponent("poll.yaml"), atomically: true, encoding: .utf8)
        let testPath = folder.appendingPathComponent("poll.test.yaml").path
        try test.write(toFile: testPath, atomically: true, encoding: .utf8)
        guard let suite = WorkflowTestSuite.load(path: testPath).suite else { throw BenchError("the poll test did not load") }
        let runner = WorkflowTestRunner(
            logger: Bench.quietLogger, virtualTimeLimit: .seconds(365 * 24 * 3600), wallTimeLimit: .seconds(600))
        var results: [WorkflowTestResult] = []
        let timed = await Bench.measure { results = await runner.run(suite) }
        guard let result = results.first, result.failures.isEmpty, let report = result.report else {
            throw BenchError("the poll test failed: \(results.first?.failures.map(\.message) ?? [])")
        }
        let attempts = report.steps.first?.attempts.count ?? 0
        print(String(
            format: "poll (%@): %d attempts over %@ of virtual time in %.1f ms of wall time (%.1f µs per poll)",
            loop ? "repeat" : "retry rule", attempts, report.duration.roundedText, timed.wall * 1e3,
            timed.wall * 1e6 / Double(max(1, attempts))))
    }
}
