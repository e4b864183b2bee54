/// Timers for a clock that does not schedule them itself: each one is a task sleeping on the clock.
///
/// A cancelled timer cancels its task; the clock's `sleep` decides how soon that frees it.
struct SleepingTimers<C: Clock>: TimerScheduling where C.Duration == Duration {
    let clock: C

    func scheduleTimer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let clock = self.clock
        let task = Task {
            do {
                try await clock.sleep(for: delay)
            } catch {
                return  // Cancelled.
            }
            action()
        }
        return ScheduledTimer { task.cancel() }
    }
}
