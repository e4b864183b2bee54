/// The engine's clock with its type erased: the time since the engine was created, sleeps and timers.
///
/// The engine is generic over its clock so a test can inject a virtual one, but
/// everything that runs a workflow uses this one concrete clock instead: that
/// code is then compiled once, fully specialised, and looks up no generic type
/// metadata while it runs.
struct EngineClock: Clock, Sendable {
    /// A point in the engine's time: the duration since its clock's origin.
    struct Instant: InstantProtocol, Sendable {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    /// The clock's own timers when it has them, else tasks sleeping on it.
    let timers: any TimerScheduling
    let minimumResolution: Duration
    /// Whether the wrapped clock is the system's `ContinuousClock`, whose deadlines a dispatcher can keep.
    let isContinuous: Bool

    /// Wraps `clock`, whose current time becomes this clock's origin.
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        if C.self == ContinuousClock.self {
            // The system clock read directly: through `C`'s witnesses, every read (a few per step) went through
            // the protocol's dispatch thunks, about twice the work of the read itself.
            let origin = ContinuousClock.now
            elapsed = { origin.duration(to: .now) }
        } else {
            let origin = clock.now
            elapsed = { origin.duration(to: clock.now) }
        }
        sleeper = { try await clock.sleep(for: $0) }
        timers = clock as? any TimerScheduling ?? SleepingTimers(clock: clock)
        minimumResolution = clock.minimumResolution
        isContinuous = C.self == ContinuousClock.self
    }

    var now: Instant { Instant(offset: elapsed()) }

    /// Sleeps on the wrapped clock until `deadline`.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await sleeper(now.duration(to: deadline))
    }

    /// Sleeps on the wrapped clock for `duration`.
    func sleep(for duration: Duration) async throws {
        try await sleeper(duration)
    }
}
