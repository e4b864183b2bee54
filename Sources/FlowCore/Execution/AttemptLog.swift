import Synchronization

/// The attempts of one step as they happen, kept outside the attempt loop so a total timeout that
/// cancels the loop still reports every attempt made.
final class AttemptLog: Sendable {
    private let state = Mutex<(attempts: [AttemptReport], failedResponse: DecodedResponse?)>(([], nil))

    func append(_ attempt: AttemptReport) {
        state.withLock { $0.attempts.append(attempt) }
    }

    var attempts: [AttemptReport] { state.withLock { $0.attempts } }

    var failedResponse: DecodedResponse? {
        get { state.withLock { $0.failedResponse } }
        set { state.withLock { $0.failedResponse = newValue } }
    }
}

/// Reports of steps that ran inside another step — a refresh step run by its interceptor — collected
/// so the run report lists them too.
final class NestedStepReports: Sendable {
    private let reports = Mutex<[StepReport]>([])

    func append(_ report: StepReport) {
        reports.withLock { $0.append(report) }
    }

    /// The reports collected since the last call, oldest first.
    func drain() -> [StepReport] {
        reports.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
