import Synchronization

/// Runs `operation`, or returns `onTimeout()` when `limit` passes first; the operation is then cancelled.
///
/// The operation runs in one child task, started on the caller's thread, and a
/// timer from `timers` watches it: no task sleeps beside it. A limit of zero or
/// less returns `onTimeout()` without starting the operation. The engine passes
/// its clock, so on a virtual clock a time limit expires when the test's virtual
/// time reaches it.
///
/// When the limit passes, the operation's task is cancelled and awaited before
/// this returns, so nothing it does outlives the call; its result is dropped.
/// An operation that ignores cancellation therefore delays the return.
///
/// ```swift
/// let body = await withTimeLimit(.seconds(5), timers: ContinuousClock()) {
///     try? await response.body.collect(upTo: 1 << 20)
/// } onTimeout: {
///     nil
/// }
/// ```
/// - Parameters:
///   - limit: How long the operation may take.
///   - timers: The clock whose timer measures the limit.
///   - operation: The work; it should return promptly when its task is cancelled.
///   - onTimeout: The result when the limit passes first.
/// - Returns: The operation's result, or `onTimeout()`'s.
public func withTimeLimit<T: Sendable>(
    _ limit: Duration,
    timers: any TimerScheduling,
    operation: @escaping @Sendable () async -> T,
    onTimeout: () -> T
) async -> T {
    guard limit > .zero else { return onTimeout() }  // No time at all: the operation does not start.
    let race = TimeLimitRace<T>()
    return await withTaskGroup(of: Void.self) { group in
        let timer = timers.scheduleTimer(after: limit) { race.finish(.expired) }
        if #available(macOS 26.0, *) {
            // The child starts on this thread and runs until it first suspends: an operation that finishes
            // without waiting costs no thread hand-off, and one that waits costs only its own.
            group.addImmediateTask { race.finish(.completed(await operation())) }
        } else {
            group.addTask { race.finish(.completed(await operation())) }
        }
        let outcome = await race.outcome()
        timer.cancel()
        switch outcome {
        case .completed(let value):
            return value
        case .expired:
            group.cancelAll()
            return onTimeout()
        }
    }
}

/// The first of "the operation completed" and "the limit expired", handed to the one task waiting for it.
private final class TimeLimitRace<T: Sendable>: Sendable {
    enum Outcome: Sendable {
        case completed(T)
        case expired
    }

    private struct State {
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
    }

    private let state = Mutex(State())

    /// Records `outcome` if nothing finished before, and wakes the waiting task.
    func finish(_ outcome: Outcome) {
        let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard case .none = state.outcome else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    /// Waits for the first outcome.
    func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Outcome? in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
