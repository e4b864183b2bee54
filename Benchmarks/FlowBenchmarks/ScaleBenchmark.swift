import FlowCore
import Foundation

/// How compile, graph and run times grow with the number of steps: a generated chain of 1,000 steps (types,
/// a policy with timeouts and retries, interceptors, a secret input) against chains 4 and 16 times as long,
/// on a no-op dispatcher, in one process.
///
/// Every stage should be linear (or `n log n`): the time per step of the longest chain over that of the
/// shortest is the figure to watch, and stays near 1× when nothing is quadratic.
struct ScaleBenchmark {
    var sizes = [1_000, 4_000, 16_000]

    func run() async throws {
        let engine = Engine(
            dispatchers: DispatcherRegistry(["http": EngineBenchmark.CannedDispatcher()]), logger: Bench.quietLogger)
        print("scale: a chain of N steps on a no-op dispatcher, µs per step")
        print("steps".leftPad(8) + "compile".leftPad(12) + "graph".leftPad(12) + "run".leftPad(12))
        var perStep: [(compile: Double, graph: Double, run: Double)] = []
        for size in sizes {
            var generator = WorkflowGenerator(seed: 1)
            let yaml = generator.workflow(index: 0, steps: size)
            var plan: Plan?
            let compile = try await Bench.measure { plan = try Bench.compile(yaml, path: "scale-\(size).yaml") }
            guard let plan else { throw BenchError("no plan") }
            let graph = await Bench.measure { _ = PlanGraph(plan) }
            var report: RunReport?
            let run = await Bench.measure { report = await engine.run(plan, inputs: ["token": "t-1"], environment: [:]) }
            guard let report, report.succeeded, report.steps.count == size else {
                throw BenchError("the \(size)-step chain failed: \(report?.error.map { "\($0)" } ?? "no report")")
            }
            let micros = (compile: compile.cpu * 1e6 / Double(size), graph: graph.cpu * 1e6 / Double(size),
                run: run.cpu * 1e6 / Double(size))
            perStep.append(micros)
            print(
                "\(size)".leftPad(8) + String(format: "%.1f", micros.compile).leftPad(12)
                    + String(format: "%.1f", micros.graph).leftPad(12) + String(format: "%.1f", micros.run).leftPad(12))
        }
        guard let first = perStep.first, let last = perStep.last else { return }
        print(String(
            format: "per-step growth from %d to %d steps: compile %.2f×, graph %.2f×, run %.2f× (linear: ≈1×)",
            sizes.first!, sizes.last!, last.compile / first.compile, last.graph / first.graph, last.run / first.run))
    }
}
