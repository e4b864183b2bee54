/// When one send of an attempt must have its whole response, and the error it fails with otherwise: what
/// the engine hands a dispatcher that ends requests at a deadline itself (``Dispatcher/enforcesTimeLimits``).
///
/// It is the sooner of the attempt timeout and what is left of the step's total timeout, as an instant on the
/// continuous clock, so it holds across the redirects a dispatcher follows and the replay after a refresh.
public struct AttemptDeadline: Sendable {
    /// When the response, body included, must have arrived.
    public var instant: ContinuousClock.Instant
    /// The error to throw when it has not: `timeout.attempt` (`no response within 5s`) or `timeout.total`,
    /// exactly as the engine's own time limit reports it.
    public var error: FlowError

    /// Creates a deadline.
    /// - Parameters:
    ///   - instant: When the response must have arrived.
    ///   - error: The error to throw when it has not.
    public init(instant: ContinuousClock.Instant, error: FlowError) {
        self.instant = instant
        self.error = error
    }
}
