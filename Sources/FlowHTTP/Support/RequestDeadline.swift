import NIOCore

/// One attempt's deadline, in the two clocks it is checked against.
///
/// AsyncHTTPClient's deadline covers connecting, sending and the response head only; once the
/// head arrived, the body streams without a limit. ``ResponseBodyCollector`` holds the body to
/// the same moment through ``instant``.
struct RequestDeadline {
    /// The longest time limit honoured; longer ones are cut to it so deadline arithmetic
    /// cannot overflow.
    private static let longestTimeout: Duration = .seconds(365 * 24 * 3600)

    /// The deadline for AsyncHTTPClient, `distantFuture` when there is no limit.
    let nio: NIODeadline
    /// The deadline for reading the body, `nil` when there is no limit.
    let instant: ContinuousClock.Instant?

    /// Starts the clock for an attempt.
    /// - Parameter timeout: The attempt's time limit, already ``clamped(_:)``, or `nil` for none.
    init(timeout: Duration?) {
        guard let timeout else {
            self.nio = .distantFuture
            self.instant = nil
            return
        }
        self.nio = .now() + TimeAmount(timeout)
        self.instant = .now + timeout
    }

    /// `timeout` limited to between zero and a year.
    static func clamped(_ timeout: Duration) -> Duration {
        min(max(timeout, .zero), longestTimeout)
    }
}
