
import Synchronization
public import FlowCore

/// A clock whose time moves only when everything running on it is waiting, and then straight to the next deadline.
///
/// Tests of backoff, `Retry-After` and timeouts run on it in microseconds
/// and see exact durations: a step that retries after 200 ms, 400 ms and
/// 800 ms takes 1.4 virtual seconds and no real time.
///
/// Time advances only inside ``run(_:)``: it runs an operation and, whenever
/// the operation is idle — every task is suspended, and at least one sleeps on
/// this clock — moves `now` to the earliest deadline and wakes the sleepers due.
/// Idle is detected by yielding until no sleep starts or ends for a while, so
/// work that runs for a long time without suspending (rare in workflow tests,
/// whose dispatcher is the in-process mock) could see a timer fire early.
///
/// ```swift
/// let clock = VirtualClock()
/// let engine = Engine(dispatchers: registry, clock: clock, logger: logger)
/// let report = await clock.run { await engine.run(plan, inputs: [:], environment: [:]) }
/// print(clock.now.offset)   // the virtual time the run took
/// ```
public final class VirtualClock: Clock, Sendable {
    /// A point in virtual time: the duration since the clock was created.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates an instant.
        /// - Parameter offset: The time since the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Orders instants by offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// A sleeping task or a timer, waiting for virtual time to reach its deadline.
    private struct Sleeper {
        enum Wake {
            case resume(CheckedContinuation<Void, any Error>)
            case run(@Sendable () -> Void)
        }

        var id: UInt64
        var deadline: Instant
        var wake: Wake
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        /// Counts sleeps started and ended, so the driver can tell that nothing happened between two looks.
        var activity: UInt64 = 0
        var sleeps: [Duration] = []
    }

    private let state = Mutex(State())

    /// Creates a clock at virtual time zero.
    public init() {}

    /// The current virtual time.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step the clock takes: one nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// The durations of every sleep requested so far, in the order requested.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// Suspends until virtual time reaches `deadline`; throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id: UInt64? = state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            state.activity &+= 1
            guard deadline > state.now else { return nil }
            state.nextID &+= 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, wake: .resume(continuation)))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                state.activity &+= 1
                return state.sleepers.remove(at: index)
            }
            if case .resume(let continuation) = sleeper?.wake { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Runs `operation`, advancing virtual time whenever it is idle, until it returns.
    ///
    /// The operation and every child task it creates run on one thread of their own (a task
    /// executor preference), so "idle" is exact: no job is left to run and some task sleeps on
    /// this clock. Then `now` moves to the earliest deadline and the sleepers due wake.
    /// Work that waits on something other than this clock (a real socket, another clock) is
    /// waited for; the clock does not move meanwhile.
    /// - Parameter operation: The work to run, such as an engine run.
    /// - Returns: What the operation returns.
    public func run<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T {
        let executor = VirtualTimeExecutor(clock: self)
        let task = Task(executorPreference: executor) {
            let value = await operation()
            executor.finish()
            return value
        }
        executor.start()
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Moves `now` to the earliest deadline and wakes every sleeper due then.
    /// - Returns: Whether any sleeper woke.
    @discardableResult
    func advanceToNextDeadline() -> Bool {
        let due: [Sleeper] = state.withLock { state in
            guard let earliest = state.sleepers.map(\.deadline).min() else { return [] }
            state.now = max(state.now, earliest)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            state.activity &+= 1
            return due
        }
        for sleeper in due {
            switch sleeper.wake {
            case .resume(let continuation): continuation.resume()
            case .run(let action): action()
            }
        }
        return !due.isEmpty
    }
}

extension VirtualClock: TimerScheduling {
    /// Runs `action` when virtual time has advanced by `delay`, unless the returned timer is cancelled first.
    ///
    /// A timer counts as waiting on the clock, as a sleeping task does: when everything else is idle,
    /// time moves to the earliest of them. A `delay` of zero or less runs the action at once, before this
    /// returns. Timers are not listed in ``sleeps``.
    public func scheduleTimer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let id: UInt64? = state.withLock { state in
            state.activity &+= 1
            guard delay > .zero else { return nil }
            state.nextID &+= 1
            let deadline = state.now.advanced(by: delay)
            state.sleepers.append(Sleeper(id: state.nextID, deadline: deadline, wake: .run(action)))
            return state.nextID
        }
        guard let id else {
            action()
            return ScheduledTimer {}
        }
        return ScheduledTimer { [self] in
            state.withLock { state in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return }
                state.activity &+= 1
                state.sleepers.remove(at: index)
            }
        }
    }
}
