extension ContinuousClock: TimerScheduling {
    /// Runs `action` once `delay` has passed on this clock, unless the returned timer is cancelled first.
    ///
    /// One thread of the process serves every timer; see ``TimerScheduling``.
    public func scheduleTimer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        TimerThread.shared.scheduleTimer(after: delay, action)
    }
}

extension SuspendingClock: TimerScheduling {
    /// Runs `action` once `delay` has passed, unless the returned timer is cancelled first.
    ///
    /// The delay is measured like `ContinuousClock`'s, including time the machine is asleep.
    public func scheduleTimer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        TimerThread.shared.scheduleTimer(after: delay, action)
    }
}
