@testable import FlowCore
import FlowTestServer
import Testing

/// Why the engine did not retry a failed attempt, as the attempt's report says (and the log, at info).
struct RetryRefusalTests {
    private func lastAttempt(_ policy: String, method: String = "GET") async throws -> AttemptReport? {
        let workflow = apiServerByDefault + """
            policies:
              p: \(policy)
            steps:
              - { id: a, policy: p, request: { method: \(method), path: /a } }
            """
        let dispatcher = ScriptedDispatcher { _, _ in json(503, "{}") }
        let report = await Engine(http: dispatcher, clock: ImmediateClock())
            .run(try plan(workflow), inputs: [:], environment: [:])
        #expect(report.error?.status == 503)
        return report.steps.first?.attempts.last
    }

    /// (policy, method, the last attempt's number, why it was not retried)
    @Test(arguments: [
        ("{ retry: { when: { status: 503 }, attempts: 3 } }", "POST", 1,
         "POST is not idempotent; set 'idempotencyKey: true' or 'idempotent: true'"),
        ("{ retry: [{ when: { status: 404 } }, { when: { status: 503 }, attempts: 2 }] }", "GET", 2,
         "retry rule 2 allows 2 attempts, all made"),
        ("{ retry: { when: { status: 429 }, attempts: 3, retryAfter: { max: 1s } } }", "GET", 1,
         "no retry rule matches http"),
        ("{ timeout: { attempt: 1s, total: 2500ms }, retry: { attempts: 3, delay: 1s } }", "GET", 2,
         "a retry after 1s could end after the total timeout of 2.5s"),
    ])
    func theLastAttemptSaysWhyNoRetryFollowed(policy: String, method: String, number: Int, reason: String)
        async throws
    {
        let attempt = try await lastAttempt(policy, method: method)
        #expect(attempt?.number == number)
        #expect(attempt?.retryRefused == reason)
    }

    @Test func aStepWithoutRetryRulesHasNoRefusalToReport() async throws {
        let attempt = try await lastAttempt("{ timeout: { attempt: 1s } }")
        #expect(attempt?.retryRefused == nil)
    }

    @Test func theOpenCircuitMessageRoundsTheRemainingBreak() async throws {
        let workflow = apiServerByDefault + """
            policies:
              guarded:
                circuitBreaker: { failureRatio: 1, minimumThroughput: 1, window: 10s, breakDuration: 5s }
            steps:
              - { id: call, policy: guarded, request: { method: GET, path: /call } }
            """
        let clock = ImmediateClock()
        let engine = Engine(http: ScriptedDispatcher { _, _ in json(503, "{}") }, clock: clock)
        let compiled = try plan(workflow)
        _ = await engine.run(compiled, inputs: [:], environment: [:])
        try await clock.sleep(for: .nanoseconds(50_176_458))
        let message = await engine.run(compiled, inputs: [:], environment: [:]).error?.message ?? ""
        #expect(message.hasSuffix("it lets a probe through in 4.95s"), "\(message)")
    }
}
