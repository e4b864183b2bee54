/// A type that watches a run as it happens, for progress displays and live logs.
///
/// The engine calls the observer from its scheduling loop, so a call should
/// return quickly; both methods have empty default implementations.
public protocol RunObserver: Sendable {
    /// A step was started (its first attempt is about to be built).
    /// - Parameter stepID: The step's id.
    func stepStarted(_ stepID: String)

    /// A step finished: it succeeded, failed, was recovered by a `catch` rule, or was skipped.
    /// - Parameter report: The step's report, secrets redacted.
    func stepFinished(_ report: StepReport)
}

extension RunObserver {
    /// Does nothing.
    public func stepStarted(_ stepID: String) {}
    /// Does nothing.
    public func stepFinished(_ report: StepReport) {}
}
