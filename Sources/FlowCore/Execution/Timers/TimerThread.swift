#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The timers of `ContinuousClock` and `SuspendingClock`: one thread of the process and a heap of deadlines.
///
/// Scheduling and cancelling take a lock and touch a heap and a dictionary; the
/// thread wakes only when the earliest deadline is due or a new timer comes
/// before it. With a constant timeout, every new deadline is later than those
/// already waiting, so timers that are cancelled in time never wake the thread
/// before the first of them is due. A cancelled timer releases its action at
/// once; its heap slot goes when it reaches the top or the heap is compacted.
///
/// The thread starts with the first timer and then stays, asleep while no timer
/// is pending, like the singleton event loop of SwiftNIO.
final class TimerThread: TimerScheduling, @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `mutex`.

    /// The timer thread of the process.
    static let shared = TimerThread()

    /// The longest delay honoured; longer ones wait this long, so deadline arithmetic cannot overflow.
    private static let longestDelay: Duration = .seconds(100 * 365 * 24 * 3600)
    /// The longest single wait: the thread looks at the clock again at least this often, so a
    /// difference between the clock it waits on and `ContinuousClock` (a suspended machine) costs
    /// at most this much lateness.
    private static let longestWait: Duration = .seconds(1)

    private struct Entry {
        var deadline: ContinuousClock.Instant
        var id: UInt64
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Pending deadlines, earliest first (a binary min-heap); cancelled ones stay until popped or compacted.
    private var heap: [Entry] = []
    /// The actions of the pending timers; a cancelled timer's is removed at once.
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 0
    private var started = false
    /// How many times the thread has looked at the heap, for tests: it must not poll.
    private var rounds = 0

    /// Creates a timer thread of its own, for tests; the process's is ``shared``. Its thread starts with the
    /// first timer and is never stopped.
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
        pthread_cond_init(condition, nil)
        #else
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
    }

    /// Runs `action` after `delay`, unless the returned timer is cancelled first.
    func scheduleTimer(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let deadline = ContinuousClock.now.advanced(by: min(delay, Self.longestDelay))
        pthread_mutex_lock(mutex)
        nextID &+= 1
        let id = nextID
        actions[id] = action
        push(Entry(deadline: deadline, id: id))
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "flowrun.timers"
            thread.start()
        } else if heap[0].id == id {
            pthread_cond_signal(condition)  // Earlier than what the thread waits for.
        }
        pthread_mutex_unlock(mutex)
        return ScheduledTimer { [self] in cancel(id) }
    }

    /// The number of timers scheduled and neither run nor cancelled, for tests.
    var pendingCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return actions.count
    }

    /// How many times the thread has woken to look at its timers, for tests.
    var wakeUps: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return rounds
    }

    private func cancel(_ id: UInt64) {
        pthread_mutex_lock(mutex)
        if actions.removeValue(forKey: id) != nil, heap.count > 64, heap.count > 2 * actions.count {
            // Mostly cancelled entries: rebuild from the live ones so memory follows the pending timers.
            heap.removeAll { actions[$0.id] == nil }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
        }
        pthread_mutex_unlock(mutex)
    }

    /// The thread: runs the due actions outside the lock, then waits for the next deadline or a new earlier one.
    private func run() {
        pthread_mutex_lock(mutex)
        while true {
            rounds += 1
            let now = ContinuousClock.now
            var due: [@Sendable () -> Void] = []
            while let first = heap.first, first.deadline <= now {
                popFirst()
                if let action = actions.removeValue(forKey: first.id) { due.append(action) }
            }
            if !due.isEmpty {
                pthread_mutex_unlock(mutex)
                for action in due { action() }
                pthread_mutex_lock(mutex)
                continue
            }
            if let first = heap.first {
                wait(for: min(now.duration(to: first.deadline), Self.longestWait))
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
    }

    /// Waits on the condition for at most `duration`, with `mutex` held.
    private func wait(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(attoseconds / 1_000_000_000)
        #if canImport(Darwin)
        var relative = timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
        pthread_cond_timedwait_relative_np(condition, mutex, &relative)
        #else
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_sec += Int(seconds)
        deadline.tv_nsec += nanoseconds
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_cond_timedwait(condition, mutex, &deadline)
        #endif
    }

    // MARK: Min-heap by deadline

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(from: 0)
    }

    private func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
