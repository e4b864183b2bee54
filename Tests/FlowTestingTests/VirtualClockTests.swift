import FlowCore
import Synchronization
import Testing

@testable import FlowTesting

/// Virtual time: sleeps and timers wake when everything else waits, at exact virtual instants.
@Suite struct VirtualClockTests {
    @Test func aTimerFiresAtItsVirtualInstantWhenEverythingElseWaits() async {
        let clock = VirtualClock()
        let firedAt = Mutex<VirtualClock.Instant?>(nil)
        await clock.run {
            _ = clock.scheduleTimer(after: .seconds(3)) { firedAt.withLock { $0 = clock.now } }
            try? await clock.sleep(for: .seconds(5))
        }
        #expect(firedAt.withLock { $0 } == VirtualClock.Instant(offset: .seconds(3)))
        #expect(clock.now.offset == .seconds(5))
        #expect(clock.sleeps == [.seconds(5)])  // Timers are not sleeps.
    }

    @Test func aCancelledTimerNeverFiresAndDoesNotMoveTime() async {
        let clock = VirtualClock()
        let fired = Mutex(false)
        await clock.run {
            clock.scheduleTimer(after: .seconds(3)) { fired.withLock { $0 = true } }.cancel()
        }
        #expect(!fired.withLock { $0 })
        #expect(clock.now.offset == .zero)
    }

    @Test func withTimeLimitCutsAVirtualSleepAtTheLimit() async {
        let clock = VirtualClock()
        let value = await clock.run {
            await withTimeLimit(.seconds(2), timers: clock) {
                (try? await clock.sleep(for: .seconds(10))) == nil ? "cancelled" : "slept"
            } onTimeout: {
                "timed out"
            }
        }
        #expect(value == "timed out")
        #expect(clock.now.offset == .seconds(2))
    }

    @Test func aZeroDelayTimerRunsAtOnce() {
        let clock = VirtualClock()
        let fired = Mutex(false)
        _ = clock.scheduleTimer(after: .zero) { fired.withLock { $0 = true } }
        #expect(fired.withLock { $0 })
    }
}
