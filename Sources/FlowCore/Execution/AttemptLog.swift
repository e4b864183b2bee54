import Synchronization

/// The attempts of one step as they happen, and the decoded response of the last failed one.
struct AttemptLog {
    private(set) var attempts: [AttemptReport] = []
    /// The last failed attempt's response, which `catch` rules read as `$response`.
    var failedResponse: DecodedResponse?
    /// The successful attempt's response, which a loop's condition reads.
    var response: DecodedResponse?
    /// The URL the successful attempt's request was built with (before interceptors), unredacted: a relative
    /// next-page URL is resolved against it.
    var requestURL: String?
    /// For an iteration of a `repeat` step: whether the successful response left the loop going on.
    var loopGoesOn = false

    mutating func append(_ attempt: AttemptReport) {
        attempts.append(attempt)
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
