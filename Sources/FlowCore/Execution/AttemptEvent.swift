/// Something that happened to a step's attempts, from its ``AttemptStateMachine``'s point of view: the only way
/// anything the machine decides on reaches it.
///
/// Every value from outside the machine arrives in an event, drawn by the driver: the time, as a duration since
/// the step started (the step's total timeout is an offset from the same start), the random draw for a retry
/// delay's jitter, whether the run's task was cancelled, and the facts of a failed attempt. So the events of
/// one step, encoded and decoded again, lead a new machine with the same policy to the same actions.
///
/// The time is carried where the machine decides on it, after a failed attempt: starting the step, a timer
/// firing and a cancelled wait need none, and carry none.
enum AttemptEvent: Sendable, Codable {
    /// The step starts its first attempt.
    case started
    /// Attempt `number` succeeded: its outputs are bound, and the step is done.
    case attemptSucceeded(number: Int)
    /// Attempt `number` failed.
    /// - Parameters:
    ///   - number: The attempt's number, from 1.
    ///   - failure: What the retry rules read of the failure.
    ///   - runCancelled: Whether the run's task was cancelled when the attempt returned; a cancelled run is
    ///     not retried.
    ///   - now: The time since the step started, when the attempt returned: a retry that could end after the
    ///     step's total timeout is refused.
    ///   - random: The jitter draw, normally in `0...1`: a rule with `jitter: full` waits this fraction of its
    ///     backoff, one with `jitter: equal` half its backoff plus this fraction of the other half. `1` gives
    ///     the longest delay, the computed backoff itself. The machine reads it only when the deciding rule
    ///     jitters.
    case attemptFailed(number: Int, failure: AttemptFailure, runCancelled: Bool, now: Duration, random: Double)
    /// Attempt `number`'s chain refreshed the credentials: a `refresh` interceptor got one of its statuses, ran
    /// the refresh step (once for every step that got one at the same time) and asks for the request to be
    /// sent again with the new credentials. A refresh that failed fails the attempt instead
    /// (``attemptFailed(number:failure:runCancelled:now:random:)``).
    case refreshDone(number: Int)
    /// The wait that ``AttemptStateMachine/Action/sleep(for:)`` asked for is over.
    case timerFired
    /// The wait before a retry was cancelled: the run was cancelled while the step waited.
    case cancelled
}
