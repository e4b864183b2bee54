import FlowCore
import FlowOpenAPI
import FlowTesting
import Foundation

/// The official pet-coupons Arazzo example run in-process on stubs, against the same workflow written in flowrun's
/// own format: what running an Arazzo document costs over a flowrun workflow (issue target: at most 2×).
///
/// The Arazzo side is `buy-available-pet` as the specification's repository writes it: `find-pet`, then a step
/// that runs the document's `place-order` workflow. The flowrun side is the same two steps as `operation:` steps of
/// the same OpenAPI document, the second a `workflow:` step calling a `place-order.yaml` with the same one step.
/// Both run on the same MockDispatcher with the stubs of `Tests/flowrunTests/Fixtures/arazzo-official`.
struct ArazzoBenchmark {
    /// Runs per timed round of each side.
    var runs = 5_000
    /// Timed rounds per side; the fastest counts.
    var rounds = 5

    static let flowrunWorkflow = """
        flowrun: 1
        name: buy-available-pet
        openapi: { pet-coupons: pet-coupons.openapi.yaml }
        servers: { pet-coupons: { url: "http://petstore.local" } }
        steps:
          - id: find-pet
            operation: pet-coupons.findPetsByStatus
            parameters: { status: available, page: 1, pageSize: 10 }
            outputs: { my_pet_id: $response.body#/0/id }
          - id: place-order
            workflow: place-order.yaml
            inputs: { pet_id: $steps.find-pet.outputs.my_pet_id }
        outputs:
          buy_pet_order_id: $steps.place-order.outputs.workflow_order_id
        """

    /// The called workflow. The Arazzo one also sends `quantity` and `couponCode`, null when not given; a flowrun
    /// workflow cannot read an input it was not given, so these two are left out here.
    static let flowrunPlaceOrder = """
        flowrun: 1
        name: place-order
        openapi: { pet-coupons: pet-coupons.openapi.yaml }
        servers: { pet-coupons: { url: "http://petstore.local" } }
        inputs:
          type: object
          properties: { pet_id: { type: integer }, quantity: { type: integer }, coupon_code: { type: string } }
        steps:
          - id: place-order
            operation: pet-coupons.placeOrder
            body: { petId: $inputs.pet_id, status: placed, complete: false }
            outputs: { step_order_id: $response.body#/id }
        outputs:
          workflow_order_id: $steps.place-order.outputs.step_order_id
        """

    func run() async throws {
        guard let examples = Self.examples else {
            print("arazzo: the Arazzo examples are absent (set FLOWRUN_CONFORMANCE_DIR or run from the repository, "
                  + "with ../shared/conformance beside it); nothing measured")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-arazzo-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["pet-coupons.arazzo.yaml", "pet-coupons.openapi.yaml"] {
            try FileManager.default.copyItem(
                at: examples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try Self.flowrunWorkflow.write(to: folder.appendingPathComponent("buy.yaml"), atomically: true, encoding: .utf8)
        try Self.flowrunPlaceOrder.write(
            to: folder.appendingPathComponent("place-order.yaml"), atomically: true, encoding: .utf8)

        var arazzoCompiler = WorkflowCompiler().withOpenAPI()
        arazzoCompiler.compilesArazzo = true
        arazzoCompiler.arazzoWorkflowID = "buy-available-pet"
        arazzoCompiler.arazzoServerURLs = ["pet-coupons": "http://petstore.local"]
        let arazzoPath = folder.appendingPathComponent("pet-coupons.arazzo.yaml").path
        let flowrunPath = folder.appendingPathComponent("buy.yaml").path
        let arazzo = try arazzoCompiler.compile(yaml: try String(contentsOfFile: arazzoPath, encoding: .utf8), path: arazzoPath)
        let flowrun = try WorkflowCompiler().withOpenAPI().compile(yaml: Self.flowrunWorkflow, path: flowrunPath)

        let stubs = try MockStubs.load(
            yaml: try Bench.repositoryFile("Tests/flowrunTests/Fixtures/arazzo-official/pet-coupons.mock.yaml"),
            path: "pet-coupons.mock.yaml")
        let mock = MockDispatcher(stubs: stubs)
        let engine = Engine(dispatchers: DispatcherRegistry(["http": mock]), logger: Bench.quietLogger)
        for (label, plan) in [("Arazzo", arazzo), ("flowrun", flowrun)] {
            let report = await engine.run(plan, inputs: [:], environment: [:])
            guard report.succeeded, report.outputs["buy_pet_order_id"] == .int(77) else {
                throw BenchError("the \(label) side failed: \(report.error.map { "\($0)" } ?? "outputs \(report.outputs)")")
            }
        }
        for _ in 0..<500 {
            _ = await engine.run(arazzo, inputs: [:], environment: [:])
            _ = await engine.run(flowrun, inputs: [:], environment: [:])
        }
        var arazzoBest = Bench.Timed.infinity
        var flowrunBest = Bench.Timed.infinity
        for _ in 0..<rounds {
            flowrunBest = flowrunBest.best(await Bench.measure {
                for _ in 0..<runs { _ = await engine.run(flowrun, inputs: [:], environment: [:]) }
            })
            arazzoBest = arazzoBest.best(await Bench.measure {
                for _ in 0..<runs { _ = await engine.run(arazzo, inputs: [:], environment: [:]) }
            })
        }
        let arazzoRun = arazzoBest.wall / Double(runs) * 1e6
        let flowrunRun = flowrunBest.wall / Double(runs) * 1e6
        print("arazzo: pet-coupons' buy-available-pet on stubs (MockDispatcher), \(runs) runs per round, best of \(rounds)")
        print(String(format: "  Arazzo document:       %8.2f µs/run  (CPU %6.2f µs/run)", arazzoRun,
                     arazzoBest.cpu / Double(runs) * 1e6))
        print(String(format: "  flowrun's own format:  %8.2f µs/run  (CPU %6.2f µs/run)", flowrunRun,
                     flowrunBest.cpu / Double(runs) * 1e6))
        print(String(format: "  ratio: the Arazzo document takes %.2f× the flowrun workflow's time (target ≤ 2×)",
                     arazzoRun / flowrunRun))
    }

    /// `arazzo/examples` of `$FLOWRUN_CONFORMANCE_DIR`, or of `../shared/conformance` beside the working directory.
    static var examples: URL? {
        let suites = ProcessInfo.processInfo.environment["FLOWRUN_CONFORMANCE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            .map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                .appendingPathComponent("../shared/conformance").standardized
        let examples = suites.appendingPathComponent("arazzo/examples")
        return FileManager.default.fileExists(atPath: examples.appendingPathComponent("pet-coupons.arazzo.yaml").path)
            ? examples : nil
    }
}
