import Foundation

/// The executor that ``VirtualClock/run(_:)`` runs an operation on: one thread, a queue of jobs,
/// and virtual time advanced exactly when the queue is empty.
final class VirtualTimeExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private let clock: VirtualClock

    init(clock: VirtualClock) {
        self.clock = clock
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Marks the operation done; the thread exits once the queue is empty.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Starts the thread that runs the jobs.
    func start() {
        let thread = Thread { [self] in drive() }
        thread.name = "flowrun.VirtualClock"
        thread.start()
    }

    /// Runs jobs until the operation finishes; when none is left, advances virtual time.
    private func drive() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            if let job = jobs.first {
                jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: executor)
                continue
            }
            if finished {
                condition.unlock()
                return
            }
            condition.unlock()
            // Idle: every task waits. If some wait on this clock, move time; their wake-ups enqueue jobs.
            if clock.advanceToNextDeadline() { continue }
            // Nothing sleeps on the clock: the operation waits for the outside world (real I/O).
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            condition.unlock()
        }
    }
}
