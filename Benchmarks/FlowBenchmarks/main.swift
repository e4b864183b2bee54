import Foundation

/// flowrun's benchmarks, run on demand, never as tests:
///
///     swift build -c release --scratch-path .build-release --product flowrun-benchmarks
///     swift build -c release --scratch-path .build-release --product flowrun
///     .build-release/release/flowrun-benchmarks lint | engine | http | scale | control
///
/// `fuzz` is not a benchmark but shares the executable: `swift build --product flowrun-benchmarks`, then
/// `.build/debug/flowrun-benchmarks fuzz --seconds 600 --seed 1` from the package root.
///
/// Each benchmark compares in one run and prints ratios, because the machines are shared and noisy.
let arguments = Array(CommandLine.arguments.dropFirst())
let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

/// The integer after `--name`, if given.
func option(_ name: String) -> Int? {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
    return Int(arguments[index + 1])
}

do {
    switch arguments.first {
    case "lint":
        try LintBenchmark(flowrun: products.appendingPathComponent("flowrun").path).run()
    case "test":
        try TestBenchmark(flowrun: products.appendingPathComponent("flowrun").path).run()
    case "soak":
        try await SoakBenchmark(arguments: Array(arguments.dropFirst())).run()
    case "engine":
        var benchmark = EngineBenchmark()
        if let runs = option("runs") { benchmark.runs = runs }
        if let rounds = option("rounds") { benchmark.rounds = rounds }
        if let runs = option("memory-runs") { benchmark.memoryRuns = runs }
        benchmark.only = arguments.dropFirst().first { $0 == "overhead" || $0 == "memory" || $0 == "banking" }
        benchmark.profileEngine = arguments.contains("--profile-engine")
        benchmark.profileHandWritten = arguments.contains("--profile-hand-written")
        try await benchmark.run()
    case "scale":
        try await ScaleBenchmark().run()
    case "mock-serve":
        var benchmark = MockServeBenchmark(flowrun: products.appendingPathComponent("flowrun").path)
        if let seconds = option("seconds") { benchmark.seconds = seconds }
        if let rounds = option("rounds") { benchmark.rounds = rounds }
        try await benchmark.run()
    case "control":
        try await ControlFlowBenchmark().run()
    case "arazzo":
        var benchmark = ArazzoBenchmark()
        if let runs = option("runs") { benchmark.runs = runs }
        if let rounds = option("rounds") { benchmark.rounds = rounds }
        try await benchmark.run()
    case "fuzz" where arguments.contains("--replay"):
        try FuzzHarness.replay(arguments: arguments)
    case "fuzz":
        try FuzzHarness(arguments: arguments).run(executable: CommandLine.arguments[0])
    case "fuzz-child":
        try FuzzHarness.runChild(arguments: arguments)
    case "http":
        var benchmark = HTTPBenchmark()
        if let runs = option("runs") { benchmark.runs = runs }
        if let rounds = option("rounds") { benchmark.rounds = rounds }
        if let concurrency = option("concurrency") { benchmark.concurrency = concurrency }
        benchmark.profileEngine = arguments.contains("--profile-engine")
        benchmark.profileWithoutTimeouts = arguments.contains("--without-timeouts")
        benchmark.profileHandWritten = arguments.contains("--profile-hand-written")
        benchmark.sequential = arguments.contains("--sequential")
        if benchmark.sequential && option("runs") == nil { benchmark.runs = 2_000 }
        try await benchmark.run()
    default:
        print("""
            usage: flowrun-benchmarks lint
                   flowrun-benchmarks engine [overhead | memory] [--runs N] [--rounds N] [--memory-runs N]
                   flowrun-benchmarks arazzo [--runs N] [--rounds N]
                   flowrun-benchmarks engine --profile-engine | --profile-hand-written [--runs N]
                   flowrun-benchmarks engine banking [--profile-engine] [--runs N] [--rounds N]
                   flowrun-benchmarks http [--runs N] [--concurrency N] [--rounds N]
                   flowrun-benchmarks http --sequential [--runs N] [--rounds N]
                   flowrun-benchmarks scale
                   flowrun-benchmarks mock-serve [--seconds N] [--rounds N]
                   flowrun-benchmarks control
                   flowrun-benchmarks fuzz [--seconds N] [--seed S] [--out DIR] | fuzz --seed S --replay I
                   flowrun-benchmarks http --profile-engine [--without-timeouts] | --profile-hand-written [--runs N] [--rounds N]

              lint     generate 1,000 workflows; time `flowrun lint` on all of them (process start included),
                       on one small file, and `check-jsonschema` on the same files for comparison
              engine   overhead: a 3-step chain through Engine.run on a no-op dispatcher against the same
                       calls hand-written (default 20,000 runs, best of 5); memory: workflows/banking.yaml on
                       MockDispatcher, VmRSS at 1k, 10k, 50k and 100k runs. --profile-engine runs only the
                       engine side of the overhead chain, for callgrind or perf (--profile-hand-written only
                       the hand-written side); banking (only when named):
                       the http benchmark's workflow without timeouts (interceptors, a secret input, typed
                       responses) on an in-process dispatcher against the same calls hand-written, or with
                       --profile-engine only its engine side
              http     5,000 runs of user → account → transactions, 32 at a time, through the engine and
                       AsyncHTTPClientDispatcher against a hand-written AsyncHTTPClient loop, one shared
                       client, against an in-process SwiftNIO server on 127.0.0.1; --profile-engine runs
                       only the engine side (with the banking policy's timeouts unless --without-timeouts);
                       --sequential: 2,000 chains one at a time instead, µs per chain and the latency ratio
              mock-serve
                       requests per second of `flowrun mock serve` answering one stub, under wrk at 32
                       connections (10 s, best of 3), beside the same load on the in-process SwiftNIO test
                       server; needs wrk (apt-get install wrk) and a release flowrun beside this executable
              scale    chains of 1,000, 4,000 and 16,000 steps: compile, graph and run time per step, and
                       how it grows (≈1× when every stage is linear)
              control  the run state machine's events per second against Engine.run of the same 1,000-step
                       chain, a forEach over 10,000 items (µs per item, resident memory), and a job polled
                       10 and 100 times (a retry rule with if) on the virtual clock
              arazzo   the official pet-coupons example's buy-available-pet on stubs against the same workflow
                       in flowrun's format (µs per run, the ratio; target ≤ 2×); reads ../shared/conformance
              test     500 generated test cases (5-step workflows with retries and a refresh) through
                       `flowrun test`
              soak     1,000 runs against seeded random faults over real sockets (--seed N)
              fuzz     seeded mutations of the example workflows, mocks and tests and the test fixtures
                       (byte flips, token swaps, huge numbers and durations, deep nesting, aliases) through
                       the loader, decoders, compiler, policy analysis and graph rendering, in child processes
                       that log each input first; prints executions and distinct crashes (default 60 s,
                       seed 1, inputs in /tmp/flowrun-fuzz-<seed>); --replay I reruns execution I in-process
            """)
        exit(arguments.isEmpty ? 0 : 2)
    }
} catch {
    FileHandle.standardError.write(Data("flowrun-benchmarks: \(error)\n".utf8))
    exit(1)
}
