import InMemoryTracing
import Logging
import Testing
import Tracing

@testable import FlowCore

/// docs/failure-handling.md, `fallback` and `end`: a value that cannot be evaluated fails the step, and the run,
/// with that `binding` error, naming the step and its attempt.
struct FallbackBindingFailureTests {
    @Test func aFallbackValueThatCannotBeEvaluatedFailsTheStep() async throws {
        let workflow = apiServerByDefault + """
            policies:
              twice: { retry: { when: { status: 503 }, attempts: 2, delay: 1ms } }
            steps:
              - id: a
                policy: twice
                request: { method: GET, path: /a }
                outputs: { v: $response.body#/n }
                on-error:
                  - fallback: { v: $response.body#/nope }
              - id: b
                request: { method: GET, path: /b }
                outputs: { v: $steps.a.outputs.v }
            """
        let report = try await run(workflow, on: ScriptedDispatcher { _, _ in json(503, #"{"n":1}"#) })
        let error = try #require(report.error)
        #expect(error.code == .binding)
        #expect(error.stepID == "a")
        #expect(error.attempt == 2)
        let step = try #require(report.steps.first { $0.id == "a" })
        #expect(step.status == .failed)
        #expect(step.error?.code == .binding)
        #expect(step.error?.stepID == "a")
        #expect(step.error?.attempt == 2)
        #expect(step.outputs.isEmpty)
        #expect(report.steps.first { $0.id == "b" }?.status != .succeeded)
    }

    @Test func aFallbackThatEvaluatesStillRecoversTheStep() async throws {
        let report = try await Self.runFailingStep(recoveredBy: "fallback", reading: "/n")
        #expect(report.error == nil)
        #expect(report.steps.first?.status == .recovered)
        #expect(report.outputs == ["v": 1])
    }

    @Test func anEndValueThatCannotBeEvaluatedFailsTheStep() async throws {
        let report = try await Self.runFailingStep(recoveredBy: "end", reading: "/nope")
        let error = try #require(report.error)
        #expect(error.code == .binding)
        #expect(error.stepID == "a")
        #expect(error.attempt == 1)
        let step = try #require(report.steps.first)
        #expect(step.status == .failed)
        #expect(step.error?.code == .binding)
    }

    @Test func anEndThatEvaluatesEndsTheRunSuccessfully() async throws {
        let report = try await Self.runFailingStep(recoveredBy: "end", reading: "/n")
        #expect(report.error == nil)
        #expect(report.steps.first?.status == .recovered)
        #expect(report.outputs == ["v": 1])
    }

    /// docs/run-reports.md: the run span's `flowrun.catch` event says a rule's action applied, so a fallback or end
    /// that cannot be evaluated, which fails the step, adds none; one that evaluates adds one.
    @Test(arguments: ["fallback", "end"])
    func theRunSpanHasACatchEventOnlyWhenTheRecoveryApplied(action: String) async throws {
        let failed = try await Self.runFailingStep(recoveredBy: action, reading: "/nope", traced: true)
        #expect(failed.report.steps.first?.status == .failed)
        let failedRun = try #require(failed.spans.first { $0.operationName == "flowrun.run" })
        #expect(!failedRun.events.contains { $0.name == "flowrun.catch" })

        let recovered = try await Self.runFailingStep(recoveredBy: action, reading: "/n", traced: true)
        #expect(recovered.report.steps.first?.status == .recovered)
        let recoveredRun = try #require(recovered.spans.first { $0.operationName == "flowrun.run" })
        let event = try #require(recoveredRun.events.first { $0.name == "flowrun.catch" })
        #expect(event.attributes.get("flowrun.step.id") == .string("a"))
        #expect(event.attributes.get("flowrun.catch.action") == .string(action))
        #expect(event.attributes.get("error.type") == .string("http"))
    }

    /// ``runFailingStep(recoveredBy:reading:)`` with a tracer: the report and the finished spans.
    private static func runFailingStep(recoveredBy action: String, reading pointer: String, traced: Bool)
        async throws -> (report: RunReport, spans: [FinishedInMemorySpan])
    {
        let tracer = InMemoryTracer()
        let engine = Engine(
            dispatchers: DispatcherRegistry(["http": ScriptedDispatcher { _, _ in json(503, #"{"n":1}"#) }]),
            logger: Logger(label: "test"), tracer: tracer)
        let report = await engine.run(try plan(failingStep(recoveredBy: action, reading: pointer)), inputs: [:], environment: [:])
        return (report, tracer.finishedSpans)
    }

    /// Runs step `a`, answered 503, whose `on-error` rule `action` (`fallback` or `end`) gives output `v` the body
    /// member at `pointer`.
    private static func runFailingStep(recoveredBy action: String, reading pointer: String) async throws -> RunReport {
        try await run(failingStep(recoveredBy: action, reading: pointer), on: ScriptedDispatcher { _, _ in json(503, #"{"n":1}"#) })
    }

    /// The workflow of ``runFailingStep(recoveredBy:reading:)``.
    private static func failingStep(recoveredBy action: String, reading pointer: String) -> String {
        apiServerByDefault + """
            steps:
              - id: a
                request: { method: GET, path: /a }
                outputs: { v: $response.body#/n }
                on-error:
                  - \(action): { v: $response.body#\(pointer) }
            outputs: { v: $steps.a.outputs.v }
            """
    }
}
