import Synchronization

/// One task waiting for a timer: like `Task.sleep`, but a cancelled wait frees its timer at once.
///
/// A cancelled `Task.sleep` keeps its runtime timer until the deadline it was
/// sleeping to; a run's deadline waiter is cancelled whenever the run ends
/// first, so it waits on a timer instead.
final class TimerWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var timer: ScheduledTimer?
        var result: Bool?
    }

    private let state = Mutex(State())

    /// Waits until `delay` has passed on `timers`.
    /// - Returns: `true` when the time passed, `false` when the task was cancelled first.
    static func wait(for delay: Duration, on timers: any TimerScheduling) async -> Bool {
        await TimerWait().wait(for: delay, on: timers)
    }

    private func wait(for delay: Duration, on timers: any TimerScheduling) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let early = state.withLock { state -> Bool? in
                    if let result = state.result { return result }  // Cancelled before it began.
                    state.continuation = continuation
                    return nil
                }
                if let early {
                    continuation.resume(returning: early)
                    return
                }
                let timer = timers.scheduleTimer(after: delay) { self.resolve(true) }
                let resolved = state.withLock { state -> Bool in
                    if state.result != nil { return true }
                    state.timer = timer
                    return false
                }
                if resolved { timer.cancel() }
            }
        } onCancel: {
            resolve(false)
        }
    }

    /// Ends the wait with `result`, once; a cancellation also cancels the timer.
    private func resolve(_ result: Bool) {
        let (continuation, timer) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, ScheduledTimer?) in
            guard state.result == nil else { return (nil, nil) }
            state.result = result
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        if !result { timer?.cancel() }
        continuation?.resume(returning: result)
    }
}
