/// The decisions of one step's attempts, as a value: whether a failed attempt is retried, after which delay,
/// and why not when it is not.
///
/// Events go in (the step started, an attempt's credentials were refreshed, an attempt succeeded or failed, the
/// wait before a retry is over or was cancelled) and one action comes out of each (start an attempt, send it
/// again, sleep, finish). It performs no I/O, reads no
/// clock and draws no random number: the step runner is the driver that runs the attempts and sleeps on the
/// engine's clock, and everything it observes or draws — the time since the step started, the jitter draw,
/// the facts of a failure, whether the run was cancelled — arrives in an ``AttemptEvent``. AsyncHTTPClient's
/// `HTTPRequestStateMachine` is the model, as for ``RunStateMachine``.
///
/// ```text
///              started                  attemptSucceeded, or attemptFailed
///   ┌────────┐        ┌────────────────┐     with no retry to make       ┌──────────┐
///   │  idle  │───────▶│ attempting(n)  │────────────────────────────────▶│ finished │
///   └────────┘        └────────────────┘                                 └──────────┘
///          refreshDone:  │   ▲      │ attemptFailed, a rule retries           ▲  ▲
///             resend(n)  ▼   │      ▼ in time: sleep(for: delay)              │  │ cancelled
///        ┌────────────────┐  │   ┌─────────────────────────┐                 │  │
///        │ replaying(n)   │  └───│ waiting(n + 1, until)   │─────────────────┼──┘
///        └────────────────┘ timer└─────────────────────────┘                 │
///                │   Fired      attemptSucceeded or attemptFailed, as above  │
///                └───────────────────────────────────────────────────────────┘
/// ```
///
/// A failed attempt is not retried when nothing is left to retry in (the run or the attempt was cancelled,
/// or the step's total timeout passed), when the retry rules refuse (see ``RetryTracker``), or when the delay
/// plus an attempt timeout would end after the step's total timeout: such a retry could only be cut off.
///
/// An event the current state cannot take — `timerFired` while an attempt runs, a second `started`, a second
/// `refreshDone` for one attempt, any event after `finished`, an attempt number other than the running one — is
/// a precondition failure, as in
/// ``RunStateMachine``: it is a bug in the driver, and no later decision could be trusted.
struct AttemptStateMachine {
    /// What the driver does next.
    enum Action {
        /// Run attempt `number` and report it with ``AttemptEvent/attemptSucceeded(number:)`` or
        /// ``AttemptEvent/attemptFailed(number:failure:runCancelled:now:random:)``, or its refreshed credentials
        /// with ``AttemptEvent/refreshDone(number:)``.
        case startAttempt(number: Int)
        /// Send attempt `number`'s request again, with the credentials its refresh set, and report it as the
        /// attempt's outcome. An attempt is sent again at most once: the replay passes a refresh status on.
        case resend(number: Int)
        /// Record the failed attempt as retried after `delay`, wait `delay` on the clock, then report
        /// ``AttemptEvent/timerFired``, or ``AttemptEvent/cancelled`` when the wait is cancelled.
        case sleep(for: Duration)
        /// The attempts are over, with this outcome.
        case finish(Outcome)
    }

    /// How a step's attempts ended.
    enum Outcome {
        /// The last attempt succeeded.
        case success
        /// The step failed with the error; the stop says why no retry followed.
        case failure(FlowError, Stop)
    }

    /// Why a failed attempt was the step's last.
    enum Stop: Equatable, Sendable {
        /// Nothing was left to retry in: the run was cancelled (before the attempt returned or while the step
        /// waited to retry), the attempt was cancelled, or the step's total timeout passed. Nothing is logged.
        case interrupted
        /// The retry rules or the total timeout refused a retry, for `reason`. When `reported`, the attempt's
        /// report carries the reason as `retryRefused` and the log says it at info; a step without retry rules
        /// was never going to retry, which is no news (its reason goes to the debug log only).
        case refused(reason: String, reported: Bool)
    }

    /// Where the step's attempts are.
    enum State: Equatable, Sendable, Codable {
        /// No attempt has started.
        case idle
        /// Attempt `number` is running.
        case attempting(number: Int)
        /// Attempt `number` is sent again after its credentials were refreshed.
        case replaying(number: Int)
        /// Attempt `retry` starts when the delay ends, `until` after the step started.
        case waiting(retry: Int, until: Duration)
        /// The outcome is known.
        case finished
    }

    /// Where the attempts are now.
    private(set) var state = State.idle
    /// The step's retry rules, with the retries each has used.
    private var tracker: RetryTracker
    /// The step's `idempotent`: whether a `POST` or `PATCH` may be retried without an `Idempotency-Key`.
    private let idempotent: Bool?
    /// The limit of one attempt, which a retry must have time for before the deadline.
    private let attemptTimeout: Duration?
    /// The step's deadline as an offset from its start: its total timeout.
    private let deadline: Duration?

    /// The attempts of a step with `policy`.
    /// - Parameters:
    ///   - policy: The step's policy: its retry rules, `timeout.attempt`, and `timeout.total`, the step's
    ///     deadline after its start; `nil` when the step has none.
    ///   - idempotent: The step's `idempotent`.
    init(policy: Policy?, idempotent: Bool?) {
        self.init(
            retry: policy?.retry ?? [], attemptTimeout: policy?.timeout?.attempt?.value,
            totalTimeout: policy?.timeout?.total?.value, idempotent: idempotent)
    }

    /// The attempts of a step with these parts of its policy, as a planned step keeps them (``PlannedStep/retryRules``,
    /// ``PlannedStep/timeLimits``).
    /// - Parameters:
    ///   - retry: The step's retry rules.
    ///   - attemptTimeout: Its `timeout.attempt`.
    ///   - totalTimeout: Its `timeout.total`, the step's deadline after its start.
    ///   - idempotent: The step's `idempotent`.
    init(retry: [RetryRule], attemptTimeout: Duration?, totalTimeout: Duration?, idempotent: Bool?) {
        tracker = RetryTracker(rules: retry)
        self.idempotent = idempotent
        self.attemptTimeout = attemptTimeout
        deadline = totalTimeout
    }

    // MARK: Events

    /// Takes in `event`: the one entry point a driver (or a replay of recorded events) needs.
    /// - Parameter event: What happened.
    /// - Returns: What the driver does next.
    mutating func apply(_ event: AttemptEvent) -> Action {
        switch (state, event) {
        case (.idle, .started):
            state = .attempting(number: 1)
            return .startAttempt(number: 1)
        case (.attempting(let current), .refreshDone(let number)):
            precondition(number == current, "attempt \(number) refreshed while attempt \(current) was running")
            state = .replaying(number: current)
            return .resend(number: current)
        case (.attempting(let current), .attemptSucceeded(let number)),
            (.replaying(let current), .attemptSucceeded(let number)):
            precondition(number == current, "attempt \(number) succeeded while attempt \(current) was running")
            state = .finished
            return .finish(.success)
        case (.attempting(let current), .attemptFailed(let number, let failure, let runCancelled, let now, let random)),
            (.replaying(let current), .attemptFailed(let number, let failure, let runCancelled, let now, let random)):
            precondition(number == current, "attempt \(number) failed while attempt \(current) was running")
            return attemptFailed(number, failure, runCancelled: runCancelled, now: now, random: random)
        case (.waiting(let retry, _), .timerFired):
            state = .attempting(number: retry)
            return .startAttempt(number: retry)
        case (.waiting, .cancelled):
            state = .finished
            let error = FlowError(.cancelled, "the run was cancelled while waiting to retry")
            return .finish(.failure(error, .interrupted))
        default:
            preconditionFailure("the attempts took \(event) while \(state)")
        }
    }

    /// Attempt `number` failed: finish, or wait and retry.
    private mutating func attemptFailed(
        _ number: Int, _ failure: AttemptFailure, runCancelled: Bool, now: Duration, random draw: Double
    ) -> Action {
        let error = failure.error
        // Nothing is left to retry in: the run was cancelled or the step's total time is up.
        if error.code == .cancelled || error.code == .totalTimeout || runCancelled {
            state = .finished
            return .finish(.failure(error, .interrupted))
        }
        let refusal: String
        switch tracker.decide(after: failure, idempotent: idempotent, random: { $0 * draw }) {
        case .fail(let reason):
            refusal = reason
        case .retry(let delay):
            // Start no retry that would end after the total timeout: it could only be cut off.
            guard let deadline, now + delay.saturatingAdd(attemptTimeout ?? .zero) > deadline else {
                state = .waiting(retry: number + 1, until: now + delay)
                return .sleep(for: delay)
            }
            refusal = "a retry after \(delay.roundedText) could end after the total timeout of "
                + deadline.workflowText
        }
        state = .finished
        return .finish(.failure(error, .refused(reason: refusal, reported: !tracker.rules.isEmpty)))
    }
}
