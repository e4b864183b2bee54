/// A clock that can run a short action at a later time without a task sleeping until then.
///
/// The engine enforces time limits — attempt and total timeouts — with timers: one
/// per timed attempt, cancelled as soon as the attempt ends. A timer costs a heap
/// entry, where a racing `Task.sleep` costs a task, two thread hand-offs and a
/// runtime timer that a cancellation does not free before its deadline.
///
/// `ContinuousClock` and `SuspendingClock` conform (one background thread serves
/// every timer of the process); so does FlowTesting's `VirtualClock`, whose
/// timers fire when virtual time reaches them. An engine on a clock that does not
/// conform falls back to a task that sleeps on the clock for each timer.
///
/// ```swift
/// let timer = ContinuousClock().scheduleTimer(after: .seconds(5)) { task.cancel() }
/// let value = await task.value
/// timer.cancel()   // the action has not run and now never will
/// ```
public protocol TimerScheduling: Sendable {
    /// Runs `action` once `delay` has passed, unless the returned timer is cancelled first.
    ///
    /// The action runs on a thread of the implementation's choosing: keep it short (cancel
    /// a task, resume a continuation) and never block in it.
    /// - Parameters:
    ///   - delay: How long to wait; zero or less runs the action as soon as possible, possibly before
    ///     this returns.
    ///   - action: What to do when the time comes.
    /// - Returns: The timer, to cancel it.
    func scheduleTimer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer
}

/// A timer that ``TimerScheduling/scheduleTimer(after:_:)`` scheduled.
public struct ScheduledTimer: Sendable {
    private let onCancel: @Sendable () -> Void

    /// Creates a timer that `cancel` cancels.
    /// - Parameter cancel: Stops the action from running, if it has not started; called at most once
    ///   by ``cancel()`` callers that follow the protocol, but it must tolerate more calls.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.onCancel = cancel
    }

    /// Stops the action from running, if it has not started yet; harmless once it has run.
    public func cancel() {
        onCancel()
    }
}
