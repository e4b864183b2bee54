import Synchronization

/// A clock whose sleeps return at once, advancing its time; it records every sleep.
///
/// Retry delays and a server's `Retry-After` waits can then be asserted exactly without waiting for them.
/// Engine tests over the test server use it too, as long as no timer (an attempt timeout) must fire.
package final class ImmediateClock: Clock, Sendable {
    /// A point in the clock's time: the duration since its start.
    package struct Instant: InstantProtocol {
        package var offset: Duration
        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Mutex<(now: Instant, sleeps: [Duration])>((Instant(offset: .zero), []))

    package init() {}

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .zero }
    /// Every sleep so far, in order.
    package var sleeps: [Duration] { state.withLock { $0.sleeps } }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            if deadline > state.now { state.now = deadline }
        }
    }
}
