/// How long one send of an attempt may take: the attempt timeout, or what is left of the step's total
/// timeout when that ends sooner.
struct AttemptTimeLimit {
    /// Which timeout the limit comes from, with that timeout's declared length.
    enum Kind {
        case attempt(Duration)
        case total(Duration)
    }

    /// The time the send may take from now.
    var duration: Duration
    /// The timeout it comes from.
    var kind: Kind

    /// The error of a send cut short by this limit.
    var error: FlowError {
        switch kind {
        case .attempt(let timeout):
            FlowError(.attemptTimeout, "no response within \(timeout.workflowText)")
        case .total(let timeout):
            FlowError(.totalTimeout, "the step did not finish within its total timeout of \(timeout.workflowText)")
        }
    }

    /// The sooner of the two limits, or `nil` when the step has neither.
    /// - Parameters:
    ///   - attempt: The attempt timeout.
    ///   - total: The total timeout.
    ///   - deadline: When the total timeout ends; `nil` when there is none.
    ///   - now: The clock's time now.
    static func sooner<Instant: InstantProtocol>(
        attempt: Duration?, total: Duration?, deadline: Instant?, now: @autoclosure () -> Instant
    ) -> AttemptTimeLimit? where Instant.Duration == Duration {
        let attemptLimit = attempt.map { AttemptTimeLimit(duration: $0, kind: .attempt($0)) }
        guard let total, let deadline else { return attemptLimit }
        let remaining = max(now().duration(to: deadline), .zero)
        if let attemptLimit, attemptLimit.duration <= remaining { return attemptLimit }
        return AttemptTimeLimit(duration: remaining, kind: .total(total))
    }
}
