import Foundation
import Testing
@testable import FlowCore

/// A step's retry decisions without I/O: every transition of ``AttemptStateMachine``, driven by hand-made events,
/// with no engine, dispatcher or clock.
struct AttemptStateMachineTests {
    /// Step `a` of a workflow with policy `p` (YAML; none when `nil`), whose request is `method`.
    func step(_ policy: String?, method: String = "GET") throws -> PlannedStep {
        let compiled = try plan(apiServerByDefault + """
            policies:
              p: \(policy ?? "{ timeout: { attempt: 1s } }")
            steps:
              - { id: a, \(policy == nil ? "" : "policy: p, ")request: { method: \(method), path: /a } }
            """)
        return try #require(compiled.steps.first)
    }

    /// The attempts of ``step(_:method:)``.
    func machine(_ policy: String?, method: String = "GET", idempotent: Bool? = nil) throws -> AttemptStateMachine {
        let step = try step(policy, method: method)
        return AttemptStateMachine(policy: step.policy, idempotent: idempotent ?? step.step.idempotent)
    }

    /// The facts of an HTTP failure with `status`.
    func status(
        _ status: Int, method: String = "GET", retryAfter: Duration? = nil, key: Bool = false
    ) -> AttemptFailure {
        AttemptFailure(
            FlowError(.httpStatus, "status \(status)", status: status, excerpt: nil), retryAfter: retryAfter,
            method: method, hasIdempotencyKey: key)
    }

    /// The event of attempt `number` failing with `failure` at `now` after the step started.
    func failed(
        _ number: Int, _ failure: AttemptFailure, at now: Duration = .zero, random: Double = 0,
        runCancelled: Bool = false
    ) -> AttemptEvent {
        .attemptFailed(number: number, failure: failure, runCancelled: runCancelled, now: now, random: random)
    }

    /// An action as short words, for readable expectations.
    func words(_ action: AttemptStateMachine.Action) -> String {
        switch action {
        case .startAttempt(let number): "attempt \(number)"
        case .resend(let number): "resend \(number)"
        case .sleep(let delay): "sleep \(delay.workflowText)"
        case .finish(.success): "succeeded"
        case .finish(.failure(let error, .interrupted)): "failed (\(error.code.name): \(error.message))"
        case .finish(.failure(let error, .refused(let reason, let reported))):
            "failed (\(error.code.name)), not retried\(reported ? "" : " quietly"): \(reason)"
        }
    }

    /// The actions for `events`, in order, as words.
    func words(_ events: [AttemptEvent], on machine: inout AttemptStateMachine) -> [String] {
        events.map { words(machine.apply($0)) }
    }

    // MARK: Success and retries

    @Test func aFirstAttemptThatSucceedsFinishesTheStep() throws {
        var attempts = try machine("{ retry: { when: { status: 503 }, attempts: 3 } }")
        #expect(attempts.state == .idle)
        #expect(words(attempts.apply(.started)) == "attempt 1")
        #expect(attempts.state == .attempting(number: 1))
        #expect(words(attempts.apply(.attemptSucceeded(number: 1))) == "succeeded")
        #expect(attempts.state == .finished)
    }

    @Test func aRefreshedAttemptIsSentAgainOnceAndEndsAsItsReplayDoes() throws {
        var attempts = try machine("{ retry: { when: { status: 503 }, attempts: 2, delay: 1s } }")
        #expect(words([.started, .refreshDone(number: 1)], on: &attempts) == ["attempt 1", "resend 1"])
        #expect(attempts.state == .replaying(number: 1))
        // The replay's failure is the attempt's, retried as any other.
        #expect(words(attempts.apply(failed(1, status(503)))) == "sleep 1s")
        #expect(words([.timerFired, .refreshDone(number: 2), .attemptSucceeded(number: 2)], on: &attempts) == [
            "attempt 2", "resend 2", "succeeded",
        ])
        #expect(attempts.state == .finished)
    }

    @Test func aRetryableFailureSleepsTheBackoffThenStartsTheNextAttempt() throws {
        var attempts = try machine("{ retry: { when: { status: 503 }, attempts: 3, delay: 100ms, backoff: exponential } }")
        _ = attempts.apply(.started)
        #expect(words(attempts.apply(failed(1, status(503), at: .milliseconds(30)))) == "sleep 100ms")
        #expect(attempts.state == .waiting(retry: 2, until: .milliseconds(130)))
        #expect(words(attempts.apply(.timerFired)) == "attempt 2")
        #expect(attempts.state == .attempting(number: 2))
        #expect(words(attempts.apply(failed(2, status(503), at: .milliseconds(160)))) == "sleep 200ms")
        #expect(attempts.state == .waiting(retry: 3, until: .milliseconds(360)))
        #expect(words(attempts.apply(.timerFired)) == "attempt 3")
        #expect(words(attempts.apply(.attemptSucceeded(number: 3))) == "succeeded")
    }

    @Test func aRuleWhoseAttemptsAreAllMadeRefusesTheNextRetry() throws {
        var attempts = try machine("""
            { retry: [{ when: { status: 404 } }, { when: { status: 503 }, attempts: 2, delay: 1s }] }
            """)
        #expect(words([.started, failed(1, status(503)), .timerFired, failed(2, status(503))], on: &attempts) == [
            "attempt 1", "sleep 1s", "attempt 2", "failed (http), not retried: retry rule 2 allows 2 attempts, all made",
        ])
        #expect(attempts.state == .finished)
    }

    @Test func aFailureNoRuleMatchesIsNotRetried() throws {
        var attempts = try machine("{ retry: { when: { status: 429 }, attempts: 3 } }")
        #expect(words([.started, failed(1, status(503))], on: &attempts) == [
            "attempt 1", "failed (http), not retried: no retry rule matches http",
        ])
    }

    @Test func aStepWithoutRetryRulesIsNotRetriedQuietly() throws {
        var attempts = try machine(nil)
        #expect(words([.started, failed(1, status(503))], on: &attempts) == [
            "attempt 1", "failed (http), not retried quietly: the step's policy has no retry rules",
        ])
    }

    // MARK: Jitter and Retry-After

    /// (jitter, the driver's draw, the delay before the first retry of a 1s backoff)
    @Test(arguments: [
        ("none", 0.3, Duration.seconds(1)),
        ("full", 0.25, .milliseconds(250)),
        ("full", 0, .zero),
        ("full", 1, .seconds(1)),
        ("equal", 0.5, .milliseconds(750)),
        ("equal", 0, .milliseconds(500)),
        ("equal", 1, .seconds(1)),
    ])
    func theJitterScalesTheBackoffByTheEventsDraw(jitter: String, draw: Double, delay: Duration) throws {
        var attempts = try machine("{ retry: { when: { status: 503 }, attempts: 2, delay: 1s, jitter: \(jitter) } }")
        _ = attempts.apply(.started)
        guard case .sleep(let slept) = attempts.apply(failed(1, status(503), random: draw)) else {
            Issue.record("no retry")
            return
        }
        #expect(slept == delay)
    }

    /// The driver's draw is what `Engine.jitter` returns for an upper bound of 1: a test engine's `{ $0 }` draws
    /// 1, and gets every delay at its maximum, the computed backoff, as it did when the engine called it with
    /// the backoff itself.
    @Test(arguments: ["full", "equal"], ["1ms", "300ms", "1.7s", "37s"])
    func aDrawOfOneGivesTheDelayThatDrawingUpToTheBackoffGave(jitter: String, delay: String) throws {
        let policy = try step("{ retry: { when: { status: 503 }, attempts: 2, delay: \(delay), jitter: \(jitter) } }")
            .policy
        var tracker = RetryTracker(rules: policy?.retry ?? [])
        let before = tracker.decide(after: status(503), idempotent: nil, random: { $0 })
        var attempts = AttemptStateMachine(policy: policy, idempotent: nil)
        _ = attempts.apply(.started)
        guard case .sleep(let slept) = attempts.apply(failed(1, status(503), random: 1)) else {
            Issue.record("no retry")
            return
        }
        #expect(before == .retry(after: slept))
        #expect(slept == (try DurationParser.parse(delay).get()))
    }

    @Test func theServersRetryAfterIsHonouredUpToItsCap() throws {
        var honoured = try machine("{ retry: { when: { status: 429 }, attempts: 3, delay: 100ms } }")
        var capped = try machine("{ retry: { when: { status: 429 }, attempts: 3, delay: 100ms, retryAfter: { max: 2s } } }")
        var ignored = try machine("{ retry: { when: { status: 429 }, attempts: 3, delay: 100ms, retryAfter: { honor: false } } }")
        var shorter = try machine("{ retry: { when: { status: 429 }, attempts: 3, delay: 3s } }")
        let asked = status(429, retryAfter: .seconds(5))
        #expect(words([.started, failed(1, asked)], on: &honoured) == ["attempt 1", "sleep 5s"])
        #expect(words([.started, failed(1, asked)], on: &capped) == ["attempt 1", "sleep 2s"])
        #expect(words([.started, failed(1, asked)], on: &ignored) == ["attempt 1", "sleep 100ms"])
        #expect(words([.started, failed(1, status(429, retryAfter: .seconds(1)))], on: &shorter) == [
            "attempt 1", "sleep 3s",
        ])
    }

    // MARK: Refusals

    @Test func aNonIdempotentMethodIsRefusedUnlessAKeyOrTheStepAllowsIt() throws {
        let policy = "{ retry: { when: { status: 503 }, attempts: 3, delay: 1s } }"
        var post = try machine(policy, method: "POST")
        #expect(words([.started, failed(1, status(503, method: "POST"))], on: &post) == [
            "attempt 1",
            "failed (http), not retried: POST is not idempotent; set 'idempotencyKey: true' or 'idempotent: true'",
        ])
        var keyed = try machine(policy, method: "POST")
        #expect(words([.started, failed(1, status(503, method: "POST", key: true))], on: &keyed) == [
            "attempt 1", "sleep 1s",
        ])
        var idempotent = try machine(policy, method: "PATCH", idempotent: true)
        #expect(words([.started, failed(1, status(503, method: "PATCH"))], on: &idempotent) == [
            "attempt 1", "sleep 1s",
        ])
    }

    @Test func aRetryThatCouldEndAfterTheTotalTimeoutIsRefused() throws {
        var attempts = try machine("{ timeout: { attempt: 1s, total: 2500ms }, retry: { attempts: 3, delay: 1s } }")
        #expect(words([.started, failed(1, status(503), at: .milliseconds(20))], on: &attempts) == [
            "attempt 1", "sleep 1s",
        ])
        #expect(words([.timerFired, failed(2, status(503), at: .milliseconds(1040))], on: &attempts) == [
            "attempt 2", "failed (http), not retried: a retry after 1s could end after the total timeout of 2.5s",
        ])
    }

    @Test func aRetryThatEndsExactlyAtTheTotalTimeoutIsMade() throws {
        var attempts = try machine("{ timeout: { attempt: 1s, total: 2500ms }, retry: { attempts: 3, delay: 1s } }")
        #expect(words([.started, failed(1, status(503), at: .milliseconds(500))], on: &attempts) == [
            "attempt 1", "sleep 1s",
        ])
        var late = try machine("{ timeout: { attempt: 1s, total: 2500ms }, retry: { attempts: 3, delay: 1s } }")
        #expect(words([.started, failed(1, status(503), at: .milliseconds(501))], on: &late).last?
            .hasPrefix("failed (http), not retried: a retry after 1s") == true)
    }

    // MARK: Polling

    @Test func aPendingResponseIsRetriedByTheRuleWhoseConditionHeld() throws {
        let policy = #"""
            { retry: [{ when: { status: 503 }, attempts: 2 }, \#
            { when: { if: "$response.body#/status != 'done'" }, attempts: 4, delay: 2s }] }
            """#
        var pending = FlowError(.pending, "the response (status 200) still matches the condition of retry rule 2")
        pending.status = 200
        var held = try machine(policy)
        #expect(words([.started, failed(1, AttemptFailure(pending, conditionsHeld: [1]))], on: &held) == [
            "attempt 1", "sleep 2s",
        ])
        var notHeld = try machine(policy)
        #expect(words([.started, failed(1, AttemptFailure(pending))], on: &notHeld) == [
            "attempt 1", "failed (pending), not retried: no retry rule matches pending",
        ])
    }

    // MARK: Cancellation

    @Test func aCancelledWaitEndsTheStepWithACancellation() throws {
        var attempts = try machine("{ retry: { when: { status: 503 }, attempts: 3, delay: 1s } }")
        #expect(words([.started, failed(1, status(503)), .cancelled], on: &attempts) == [
            "attempt 1", "sleep 1s", "failed (cancelled: the run was cancelled while waiting to retry)",
        ])
        #expect(attempts.state == .finished)
    }

    /// (the attempt's error, whether the run was cancelled)
    @Test(arguments: [
        (FlowError(.httpStatus, "status 503", status: 503, excerpt: nil), true),
        (FlowError(.cancelled, "the run was cancelled"), false),
        (FlowError(.totalTimeout, "the step's total timeout of 2s passed"), false),
    ])
    func aFailureWithNothingLeftToRetryInEndsWithItsOwnError(error: FlowError, runCancelled: Bool) throws {
        var attempts = try machine("{ retry: { attempts: 3, delay: 1s } }")
        _ = attempts.apply(.started)
        let action = attempts.apply(failed(1, AttemptFailure(error), runCancelled: runCancelled))
        #expect(words(action) == "failed (\(error.code.name): \(error.message))")
    }

    // MARK: Invalid events

    /// An event the state cannot take is a bug in the driver: the machine stops the process rather than guess.
    @Test(arguments: [
        [AttemptEvent.started, .timerFired],
        [.started, .cancelled],
        [.started, .attemptSucceeded(number: 2)],
        [.started, .attemptSucceeded(number: 1), .started],
        [.started, .refreshDone(number: 1), .refreshDone(number: 1)],
        [.started, .refreshDone(number: 2)],
    ])
    func anEventTheStateCannotTakeIsAPreconditionFailure(events: [AttemptEvent]) async {
        await #expect(processExitsWith: .failure) { [events] in
            var attempts = AttemptStateMachine(policy: nil, idempotent: nil)
            for event in events { _ = attempts.apply(event) }
        }
    }

    // MARK: Replay

    @Test func theEventsDecodedFromJSONLeadAFreshMachineToTheSameActions() throws {
        let policy = """
            { timeout: { attempt: 1s, total: 10s }, \
            retry: [{ when: { status: 429 }, attempts: 3, delay: 1s, jitter: full }, \
            { when: { errors: transport }, attempts: 3, delay: 400ms, backoff: linear, jitter: equal }] }
            """
        let events: [AttemptEvent] = [
            .started,
            failed(1, status(429, retryAfter: .milliseconds(300)), at: .milliseconds(12), random: 0.37),
            .timerFired,
            failed(2, AttemptFailure(FlowError(.transport, "connection reset")), at: .milliseconds(390), random: 0.81),
            .timerFired,
            failed(3, AttemptFailure(FlowError(.transport, "connection reset")), at: .milliseconds(1020), random: 0.05),
            .timerFired,
            .refreshDone(number: 4),
            failed(4, status(429), at: .milliseconds(1830), random: 0.5),
            .timerFired,
            failed(5, status(429), at: .milliseconds(2400), random: 0.9),
        ]
        var first = try machine(policy)
        let actions = words(events, on: &first)
        #expect(actions == [
            "attempt 1", "sleep 370ms",
            "attempt 2", "sleep 362ms",
            "attempt 3", "sleep 420ms",
            "attempt 4", "resend 4", "sleep 500ms",
            "attempt 5", "failed (http), not retried: retry rule 1 allows 3 attempts, all made",
        ])
        let data = try JSONEncoder().encode(events)
        let decoded = try JSONDecoder().decode([AttemptEvent].self, from: data)
        var replayed = try machine(policy)
        #expect(words(decoded, on: &replayed) == actions)
        #expect(replayed.state == first.state)
    }
}
