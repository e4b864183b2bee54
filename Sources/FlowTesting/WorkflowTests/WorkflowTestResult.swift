public import FlowCore

/// How one ``WorkflowTestCase`` went: passed, or failed with a readable diff.
public struct WorkflowTestResult: Sendable {
    /// The path of the test file.
    public var file: String
    /// The case's name.
    public var name: String
    /// Where the case is written.
    public var location: SourceLocation?
    /// Every way the case failed; empty when it passed.
    public var failures: [WorkflowTestFailure]
    /// The report of the (last) run; `nil` when the case timed out before a run ended.
    public var report: RunReport?
    /// The calls the (last) run made, in order.
    public var calls: [RecordedCall]
    /// The virtual time the (last) run took: what `elapsed` compares.
    public var elapsed: Duration
    /// The real time the case took, every run included.
    public var wallTime: Duration

    /// Whether every expectation held.
    public var passed: Bool { failures.isEmpty }

    /// Creates a result.
    /// - Parameters:
    ///   - file: The path of the test file.
    ///   - name: The case's name.
    ///   - location: Where the case is written.
    ///   - failures: Every way the case failed.
    ///   - report: The report of the last run.
    ///   - calls: The calls of the last run.
    ///   - elapsed: The virtual time of the last run.
    ///   - wallTime: The real time of the case.
    public init(
        file: String, name: String, location: SourceLocation?, failures: [WorkflowTestFailure],
        report: RunReport?, calls: [RecordedCall], elapsed: Duration, wallTime: Duration
    ) {
        self.file = file
        self.name = name
        self.location = location
        self.failures = failures
        self.report = report
        self.calls = calls
        self.elapsed = elapsed
        self.wallTime = wallTime
    }
}
