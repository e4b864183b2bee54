import FlowCore
import NIOCore

/// When one attempt's request must have its whole response, as AsyncHTTPClient's delegate-based `execute`
/// keeps it: connecting, sending, the head and the body's last byte, across every redirect followed.
struct RequestDeadline {
    /// The longest time limit honoured; longer ones are cut to it so deadline arithmetic
    /// cannot overflow.
    private static let longestTimeout: Duration = .seconds(365 * 24 * 3600)

    /// The deadline for AsyncHTTPClient, `distantFuture` when there is no limit.
    let nio: NIODeadline

    /// Starts the clock for an attempt.
    /// - Parameter timeout: The attempt's time limit, already ``clamped(_:)``, or `nil` for none.
    init(timeout: Duration?) {
        nio = timeout.map { .now() + TimeAmount($0) } ?? .distantFuture
    }

    /// The deadline the engine handed over (``StepContext/deadline``).
    init(_ deadline: AttemptDeadline) {
        nio = .now() + TimeAmount(Self.clamped(ContinuousClock.now.duration(to: deadline.instant)))
    }

    /// `timeout` limited to between zero and a year.
    static func clamped(_ timeout: Duration) -> Duration {
        min(max(timeout, .zero), longestTimeout)
    }
}
