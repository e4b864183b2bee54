/// What the retry rules read of a failed attempt, as plain values: the error, the wait the server asked for,
/// the request's method and key, and which rules' `if` conditions held.
///
/// The driver of an ``AttemptStateMachine`` gathers these facts where they are (the response's headers, the
/// request, the run's scope) and hands them over in an ``AttemptEvent``, so that the machine needs no scope, no
/// clock and no response, and the event encodes.
struct AttemptFailure: Sendable, Codable {
    /// The attempt's error, as the step's report records it.
    var error: FlowError
    /// How long the response's headers (`Retry-After`, `RateLimit-Reset`, `RateLimit`) ask the client to wait;
    /// `nil` without a response or such a header. The driver reads it: an HTTP date is read against the wall
    /// clock.
    var retryAfter: Duration?
    /// The method of the request as it was built; `nil` when no request was built (it then counts as `GET`).
    var method: String?
    /// Whether the request carried an `Idempotency-Key` header, which makes a `POST` or `PATCH` retryable.
    var hasIdempotencyKey: Bool
    /// The indexes, in the step's policy, of the retry rules whose `if` condition held for the attempt's
    /// response (read in the run's scope); empty when no rule has a condition.
    var conditionsHeld: Set<Int>

    /// The facts of a failure.
    /// - Parameters:
    ///   - error: The attempt's error.
    ///   - retryAfter: The wait the response's headers ask for.
    ///   - method: The request's method; `nil` when none was built.
    ///   - hasIdempotencyKey: Whether the request carried an `Idempotency-Key`.
    ///   - conditionsHeld: The indexes of the retry rules whose `if` condition held.
    init(
        _ error: FlowError, retryAfter: Duration? = nil, method: String? = nil, hasIdempotencyKey: Bool = false,
        conditionsHeld: Set<Int> = []
    ) {
        self.error = error
        self.retryAfter = retryAfter
        self.method = method
        self.hasIdempotencyKey = hasIdempotencyKey
        self.conditionsHeld = conditionsHeld
    }
}
