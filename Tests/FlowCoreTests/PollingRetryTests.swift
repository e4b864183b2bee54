import Synchronization
import Testing
@testable import FlowCore

/// Retry rules with an `if` condition: a successful response the condition holds for is `pending` and polled
/// again, a failure is retried only when the condition holds too, and lint checks the condition per step.
struct PollingRetryTests {
    static func workflow(rule: String, method: String = "GET", extra: String = "") -> String {
        """
        flowrun: 1
        types:
          Job: { type: object, required: [status], properties: { status: { type: string }, file: { type: string } } }
        policies:
          poll: { retry: [\(rule)] }
        steps:
          - id: job
            request: { method: \(method), path: "https://api.test/job" }
            response: { 200: Job, 202: Job }
            policy: poll
            outputs: { file: $response.body#/file }
            set: { polls: $response.body#/status }
        \(extra)
        vars: { polls: none }
        outputs: { file: $steps.job.outputs.file }
        """
    }

    /// Answers the bodies in order, the last one repeatedly.
    static func answering(_ replies: [(Int, String)]) -> ScriptedDispatcher {
        let next = Mutex(0)
        return ScriptedDispatcher { _, _ in
            let index = next.withLock { index in
                defer { index += 1 }
                return min(index, replies.count - 1)
            }
            return json(replies[index].0, replies[index].1)
        }
    }

    static let running = (200, #"{"status": "running"}"#)
    static let done = (200, #"{"status": "done", "file": "/f/1"}"#)

    @Test func aSuccessTheConditionHoldsForIsPolledUntilItNoLongerHolds() async throws {
        let dispatcher = Self.answering([Self.running, Self.running, Self.done])
        let report = try await run(
            Self.workflow(rule: #"{ when: { if: "$response.body#/status != 'done'" }, attempts: 5, delay: 1ms }"#),
            on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["file"] == "/f/1")
        let attempts = try #require(report.steps.first?.attempts)
        #expect(attempts.map(\.status) == [200, 200, 200])
        #expect(attempts.map { $0.error?.code } == [.pending, .pending, nil])
        #expect(attempts.first?.retryDelay == .milliseconds(1))
    }

    @Test func runningOutOfAttemptsFailsAsPendingWithTheLastBody() async throws {
        let report = try await run(
            Self.workflow(rule: #"{ when: { if: "$response.body#/status != 'done'" }, attempts: 3, delay: 1ms }"#),
            on: Self.answering([Self.running]))
        let error = try #require(report.error)
        #expect(error.code == .pending)
        #expect(error.stepID == "job")
        #expect(error.attempt == 3)
        #expect(error.message == #"the response (status 200) still matches the condition of retry rule 1, $response.body#/status != "done""#)
        #expect(error.responseExcerpt == #"{"status": "running"}"#)
        #expect(report.steps.first?.attempts.last?.retryRefused == "retry rule 1 allows 3 attempts, all made")
    }

    @Test func aPendingResponseBindsNothing() async throws {
        // The step's `set` runs only for the response that is done: the var never sees "running".
        let yaml = Self.workflow(
            rule: #"{ when: { if: "$response.body#/status != 'done'" }, attempts: 2, delay: 1ms }"#,
            extra: """
              - id: after
                request: { method: GET, path: "https://api.test/after/{$vars.polls}" }
                after: job
            """)
        let dispatcher = Self.answering([Self.running, Self.done, (200, "{}")])
        let report = try await run(yaml, on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.requests.last?.url == "https://api.test/after/done")
    }

    @Test func aConditionOnlyRuleDoesNotRetryFailures() async throws {
        let report = try await run(
            Self.workflow(rule: #"{ when: { if: "$response.body#/status != 'done'" }, attempts: 3, delay: 1ms }"#),
            on: Self.answering([(503, #"{"status": "down"}"#), Self.done]))
        #expect(report.error?.code == .httpStatus)
        #expect(report.steps.first?.attempts.count == 1)
    }

    @Test func aStatusRuleWithAConditionRetriesOnlyWhenTheConditionHolds() async throws {
        let rule = #"{ when: { status: [202, 503], if: "$response.body#/status == 'queued'" }, attempts: 3, delay: 1ms }"#
        let polled = try await run(
            Self.workflow(rule: rule),
            on: Self.answering([(202, #"{"status": "queued"}"#), (503, #"{"status": "queued"}"#), Self.done]))
        #expect(polled.succeeded, "\(String(describing: polled.error))")
        #expect(polled.steps.first?.attempts.map(\.status) == [202, 503, 200])

        let notQueued = try await run(Self.workflow(rule: rule), on: Self.answering([(503, #"{"status": "down"}"#)]))
        #expect(notQueued.error?.code == .httpStatus)
        #expect(notQueued.steps.first?.attempts.count == 1)
    }

    @Test func aPostIsNotPolledWithoutIdempotency() async throws {
        let report = try await run(
            Self.workflow(
                rule: #"{ when: { if: "$response.body#/status != 'done'" }, attempts: 3, delay: 1ms }"#, method: "POST"),
            on: Self.answering([Self.running]))
        #expect(report.error?.code == .pending)
        #expect(report.steps.first?.attempts.count == 1)
        #expect(report.steps.first?.attempts.first?.retryRefused?.hasPrefix("POST is not idempotent") == true)
    }

    @Test func aCatchRuleCanHandlePending() async throws {
        let yaml = Self.workflow(
            rule: #"{ when: { if: "$response.body#/status != 'done'" }, attempts: 2, delay: 1ms }"#,
            extra: """
            catch:
              - { when: { step: job, errors: [pending] }, fallback: { file: $response.body#/status } }
            """)
        let report = try await run(yaml, on: Self.answering([Self.running]))
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["file"] == "running")
    }

    // MARK: Lint

    @Test func theConditionIsTypeCheckedAgainstTheResponseOfEachStepOfThePolicy() {
        let found = diagnostics("""
            flowrun: 1
            policies:
              poll: { timeout: { total: 1m }, retry: [{ when: { if: "$response.body#/state != 'done'" }, attempts: 3 }] }
            defaults: { policy: poll }
            steps:
              - { id: a, request: { method: GET, path: "https://api.test/a" }, response: { 200: { type: object, properties: { status: { type: string } }, additionalProperties: false } } }
              - { id: b, request: { method: GET, path: "https://api.test/b" }, response: { 200: { type: object, properties: { state: { type: string } } } } }
              - { id: c, request: { method: GET, path: "https://api.test/c" }, response: { 200: { type: object, properties: { status: { type: string } }, additionalProperties: false } } }
            """)
        #expect(found.map(\.code) == [.bindingTypeMismatch, .bindingTypeMismatch])
        #expect(found.map { $0.location?.line } == [3, 3])
        #expect(found.map { $0.location?.column } == [72, 72])
        #expect(found.first?.message == "'$response.body#/state' reads nothing from the response of step 'a': an object "
            + "has no property 'state'; did you mean 'status'?")
        #expect(found.last?.message.contains("of step 'c'") == true)
    }

    @Test func aConditionRuleNeverShadowsTheRulesAfterIt() {
        let found = diagnostics(Self.workflow(
            rule: #"{ when: { if: "$response.body#/status != 'done'" }, attempts: 3 }, { attempts: 2 }"#))
        #expect(!found.contains { $0.code == .unreachable }, "\(found)")
    }

    @Test func retryTrackerMatchesPendingOnlyThroughACondition() {
        let location = SourceLocation(path: "t.yaml", line: 1, column: 1)
        var conditionOnly = RetryRule(location: location)
        conditionOnly.when.condition = Condition(
            expression: try! RuntimeExpression(parsing: "$statusCode"), comparison: .equal, literal: 200,
            location: location)
        let plain = RetryRule(location: location)
        var pending = FlowError(.pending, "")
        pending.status = 200
        #expect(RetryTracker.applies(conditionOnly, to: pending, holds: { _ in true }))
        #expect(!RetryTracker.applies(conditionOnly, to: pending, holds: { _ in false }))
        #expect(!RetryTracker.applies(conditionOnly, to: FlowError(.transport, ""), holds: { _ in true }))
        #expect(!RetryTracker.applies(plain, to: pending, holds: { _ in true }))
        #expect(RetryTracker.applies(plain, to: FlowError(.transport, ""), holds: { _ in false }))
    }
}
