/// The result of running one step: its outputs on success, its error otherwise, and its report.
struct StepResult: Sendable {
    var outputs: [String: JSONValue]
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
}
