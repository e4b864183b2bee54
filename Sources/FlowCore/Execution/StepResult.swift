/// The result of running one step: its outputs on success, its error otherwise, and its report.
struct StepResult: Sendable {
    var outputs: [String: JSONValue]
    var report: StepReport
    var error: FlowError?
    /// The decoded failing response, for `catch` rules that read `$response`.
    var failedResponse: DecodedResponse?
}
