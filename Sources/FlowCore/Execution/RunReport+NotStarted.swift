extension RunReport {
    /// The report of a run that stopped before its first step: no steps, no outputs, a fresh run id, and
    /// `error` as its failure. `flowrun run --format json` prints one for a workflow file that does not
    /// compile, its error the first error diagnostic (its lint code, message and location).
    /// - Parameters:
    ///   - workflow: The workflow's name, or its path.
    ///   - error: Why the run could not start.
    /// - Returns: A failed report.
    public static func notStarted(workflow: String, error: FlowError) -> RunReport {
        RunReport(
            runID: RandomUUID.makeRunID(), workflow: workflow, outcome: .failed(error), outputs: [:], steps: [],
            duration: .zero)
    }
}
