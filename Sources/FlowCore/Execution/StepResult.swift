/// The result of running one step: its outputs on success, its error otherwise, and its report.
///
/// It is `Codable` as what a run's state machine reads of it — outputs, report, error and failed response — so
/// a recorded ``RunEvent`` carries it; the rest is the runner's, for the loops that run a step again.
struct StepResult: Sendable, Codable {
    var outputs: StepOutputs
    var report: StepReport
    var error: FlowError?
    /// The decoded failing response, for `catch` rules that read `$response`.
    var failedResponse: DecodedResponse?
    /// The decoded successful response, which a loop's `until`, `while` or `next` reads.
    var response: DecodedResponse?
    /// The URL the successful request was built with, unredacted, for resolving a relative next-page URL.
    var requestURL: String?
    /// For an iteration of a `repeat` step: whether the loop goes on (the iteration bound no outputs).
    var loopGoesOn = false
    /// For a step that succeeded: the position of the success rule (Arazzo's `onSuccess`) whose criteria held,
    /// which the run follows.
    var successRule: Int?

    /// Moves the report out, leaving an empty one: for the one consumer that keeps the report as its own (the
    /// run machine, which records it and may change it), so that its box is not shared and a change to it does
    /// not copy it.
    mutating func takeReport() -> StepReport {
        var report = Self.taken
        swap(&report, &self.report)
        return report
    }

    /// What a result holds once its report is taken: one report shared by all, so taking one allocates nothing.
    private static let taken = StepReport(
        id: "", status: .skipped, attempts: [], startedAfter: .zero, duration: .zero, outputs: [:], error: nil)

    private enum CodingKeys: String, CodingKey {
        case outputs, report, error, failedResponse, successRule
    }
}
