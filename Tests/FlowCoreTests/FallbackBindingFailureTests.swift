import Testing

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

    /// Runs step `a`, answered 503, whose `on-error` rule `action` (`fallback` or `end`) gives output `v` the body
    /// member at `pointer`.
    private static func runFailingStep(recoveredBy action: String, reading pointer: String) async throws -> RunReport {
        let workflow = apiServerByDefault + """
            steps:
              - id: a
                request: { method: GET, path: /a }
                outputs: { v: $response.body#/n }
                on-error:
                  - \(action): { v: $response.body#\(pointer) }
            outputs: { v: $steps.a.outputs.v }
            """
        return try await run(workflow, on: ScriptedDispatcher { _, _ in json(503, #"{"n":1}"#) })
    }
}
