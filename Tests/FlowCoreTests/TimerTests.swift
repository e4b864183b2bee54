import Synchronization
import Testing

@testable import FlowCore

/// The timers behind attempt and total timeouts: the process's timer thread and `withTimeLimit`.
@Suite struct TimerTests {
    /// Records when each action ran, in order.
    final class Firings: Sendable {
        private let log = Mutex<[(label: String, at: ContinuousClock.Instant)]>([])
        func record(_ label: String) { log.withLock { $0.append((label, .now)) } }
        var labels: [String] { log.withLock { $0.map(\.label) } }
        var times: [ContinuousClock.Instant] { log.withLock { $0.map(\.at) } }

        /// Waits until `count` actions ran, or 5 s passed: a loaded machine may run them late, never early.
        func wait(for count: Int) async throws {
            let end = ContinuousClock.now.advanced(by: .seconds(5))
            while log.withLock({ $0.count }) < count && ContinuousClock.now < end {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    @Test func timersFireInDeadlineOrderAndNotBeforeTheirDelay() async throws {
        let firings = Firings()
        let delays = [("c", 60), ("a", 20), ("d", 80), ("b", 40)]
        // Each deadline counts from when its timer was scheduled: on a loaded machine the four are not scheduled
        // at the same instant, and the order to expect is that of the deadlines.
        var deadlines: [(label: String, deadline: ContinuousClock.Instant)] = []
        let timers = delays.map { label, milliseconds in
            let scheduled = ContinuousClock.now
            let timer = ContinuousClock().scheduleTimer(after: .milliseconds(milliseconds)) { firings.record(label) }
            deadlines.append((label, scheduled.advanced(by: .milliseconds(milliseconds))))
            return timer
        }
        try await firings.wait(for: 4)
        let expected = deadlines.sorted { $0.deadline < $1.deadline }
        #expect(firings.labels == expected.map(\.label))
        for (time, deadline) in zip(firings.times, expected.map(\.deadline)) {
            #expect(time >= deadline)
        }
        _ = timers
    }

    @Test func aCancelledTimerNeverRunsAndReleasesItsAction() async throws {
        let firings = Firings()
        let thread = TimerThread()
        let cancelled = thread.scheduleTimer(after: .milliseconds(30)) { firings.record("cancelled") }
        let kept = thread.scheduleTimer(after: .milliseconds(60)) { firings.record("kept") }
        #expect(thread.pendingCount == 2)
        cancelled.cancel()
        cancelled.cancel()  // Harmless twice.
        try await firings.wait(for: 1)
        // Timers fire in deadline order, so had the cancelled one not been cancelled, it would be first.
        #expect(firings.labels == ["kept"])
        kept.cancel()  // Harmless after it ran.
        #expect(thread.pendingCount == 0)
    }

    @Test func anEarlierTimerWakesTheThreadWaitingForALaterOne() async throws {
        let firings = Firings()
        let thread = TimerThread()
        let late = thread.scheduleTimer(after: .seconds(30)) { firings.record("late") }
        try await Task.sleep(for: .milliseconds(20))  // The thread now waits for the 30-s timer.
        let start = ContinuousClock.now
        let early = thread.scheduleTimer(after: .milliseconds(10)) { firings.record("early") }
        try await firings.wait(for: 1)
        late.cancel()
        #expect(firings.labels == ["early"])
        // Far sooner than the thread's longest wait (1 s): it was woken, not polling.
        #expect(try start.duration(to: #require(firings.times.first)) < .milliseconds(500))
        _ = early
    }

    @Test func thousandsOfCancelledTimersLeaveNothingPendingAndTheThreadIdle() async throws {
        let thread = TimerThread()
        for _ in 0..<10_000 {
            thread.scheduleTimer(after: .seconds(60)) { Issue.record("a cancelled timer ran") }.cancel()
        }
        #expect(thread.pendingCount == 0)
        // With only a far deadline pending, the thread sleeps rather than polls: it may wake for its 1-s
        // look at the clock or for signals of the 20,000 schedules and cancellations that a loaded machine
        // delivers late (seen: 4 under a load of 11 on 2 cores), but a poll would wake hundreds of times.
        let farTimer = thread.scheduleTimer(after: .seconds(60)) {}
        try await Task.sleep(for: .milliseconds(100))
        let wakeUps = thread.wakeUps
        try await Task.sleep(for: .milliseconds(300))
        #expect(thread.wakeUps - wakeUps <= 12, "the timer thread woke \(thread.wakeUps - wakeUps) times in 0.3 s")
        farTimer.cancel()
    }

    @Test func withTimeLimitReturnsTheOperationsResultWhenItIsInTime() async {
        let value = await withTimeLimit(.seconds(5), timers: ContinuousClock()) { 42 } onTimeout: { -1 }
        #expect(value == 42)
    }

    @Test func withTimeLimitCancelsASlowOperationAndReturnsTheTimeoutValue() async {
        let start = ContinuousClock.now
        let sawCancellation = Mutex(false)
        let value = await withTimeLimit(.milliseconds(50), timers: ContinuousClock()) {
            do {
                try await Task.sleep(for: .seconds(180))
                return "finished"
            } catch {
                sawCancellation.withLock { $0 = true }
                return "cancelled"
            }
        } onTimeout: {
            "timed out"
        }
        #expect(value == "timed out")
        // The operation was cancelled and had ended before withTimeLimit returned.
        #expect(sawCancellation.withLock { $0 })
        // Not the operation's 3 min. Far above 50 ms: the whole suite runs at once, and on a busy machine the
        // timer's job has waited 20 s behind the others.
        #expect(start.duration(to: .now) < .seconds(90))
    }

    @Test func withTimeLimitPassesOnTheCallersCancellation() async {
        let task = Task {
            await withTimeLimit(.seconds(30), timers: ContinuousClock()) {
                do {
                    try await Task.sleep(for: .seconds(30))
                    return "finished"
                } catch {
                    return "cancelled"
                }
            } onTimeout: {
                "timed out"
            }
        }
        task.cancel()
        #expect(await task.value == "cancelled")
    }

    @Test func aTimerWaitReturnsTrueWhenItsTimeHasPassed() async {
        let start = ContinuousClock.now
        #expect(await TimerWait.wait(for: .milliseconds(20), on: ContinuousClock()))
        #expect(start.duration(to: .now) >= .milliseconds(20))
    }

    @Test func aCancelledTimerWaitReturnsFalseAtOnceAndFreesItsTimer() async {
        let thread = TimerThread()
        let task = Task { await TimerWait.wait(for: .seconds(60), on: thread) }
        while thread.pendingCount == 0 { await Task.yield() }
        let start = ContinuousClock.now
        task.cancel()
        #expect(await task.value == false)
        #expect(start.duration(to: .now) < .seconds(20))  // Not the wait's 60 s.
        #expect(thread.pendingCount == 0)
    }

    @Test func aTimerWaitCancelledBeforeItBeginsReturnsFalse() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await TimerWait.wait(for: .seconds(60), on: ContinuousClock())
        }
        #expect(await task.value == false)
    }

    @Test func aClockWithoutTimersOfItsOwnGetsSleepingTaskTimers() async throws {
        let firings = Firings()
        let timers = SleepingTimers(clock: SuspendingClock.Wrapper())
        timers.scheduleTimer(after: .milliseconds(10)) { firings.record("cancelled") }.cancel()
        _ = timers.scheduleTimer(after: .milliseconds(20)) { firings.record("ran") }
        try await firings.wait(for: 1)
        try await Task.sleep(for: .milliseconds(50))
        #expect(firings.labels == ["ran"])
    }
}

extension SuspendingClock {
    /// A clock that does not conform to `TimerScheduling`: `SuspendingClock`'s time, its own type.
    struct Wrapper: Clock {
        let base = SuspendingClock()
        var now: SuspendingClock.Instant { base.now }
        var minimumResolution: Duration { base.minimumResolution }
        func sleep(until deadline: SuspendingClock.Instant, tolerance: Duration?) async throws {
            try await base.sleep(until: deadline, tolerance: tolerance)
        }
    }
}
