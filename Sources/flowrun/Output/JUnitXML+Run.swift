import FlowCore

extension JUnitXML {
    /// The JUnit suite of `flowrun run --format junit` and `--junit-out`: one test case per step run.
    ///
    /// Cases follow the order in which steps finished; a step that ran more than once (a refresh
    /// step, a `goto` target) has a case per run. A failed step's case fails with its error (the
    /// message, the code as the type, and the full error with request and response excerpt as
    /// text); a recovered step passes, saying what it recovered from in `<system-out>`; a step
    /// that never started is `<skipped/>`. Every case's `<system-out>` lists its attempts. When
    /// the run failed without a failed step — a deadline, an output that cannot be produced, bad
    /// inputs — a case named `(workflow)` carries the error.
    /// - Parameter report: The run's report; secrets are already redacted.
    /// - Returns: The suite, named after the workflow.
    static func runSuite(_ report: RunReport) -> Suite {
        let className = "flowrun.run.\(report.workflow)"
        var cases = report.steps.map { stepCase($0, className: className) }
        if let error = report.error, !report.steps.contains(where: { $0.status == .failed }) {
            cases.append(Case(
                name: "(workflow)", className: className, failure: failure(error)))
        }
        return Suite(name: report.workflow, cases: cases, time: seconds(report.duration))
    }

    private static func stepCase(_ step: StepReport, className: String) -> Case {
        var testCase = Case(name: step.id, className: className, time: seconds(step.duration))
        var out = step.attempts.map { attempt in
            var line = "attempt \(attempt.number): \(attempt.method) \(attempt.url)"
            if let status = attempt.status { line += " → \(status)" }
            if let error = attempt.error { line += " (\(error.code): \(error.message))" }
            return line
        }
        switch step.status {
        case .succeeded:
            break
        case .failed:
            if let error = step.error { testCase.failure = failure(error) }
        case .recovered:
            if let error = step.error { out.append("recovered from \(error.code): \(error.message)") }
        case .skipped:
            testCase.skipped = "the run ended before the step started"
        }
        testCase.systemOut = out.isEmpty ? nil : out.joined(separator: "\n")
        return testCase
    }

    private static func failure(_ error: FlowError) -> Failure {
        var text = error.description
        if let request = error.request { text += "\nrequest: \(request)" }
        if let excerpt = error.responseExcerpt { text += "\nresponse: \(excerpt)" }
        return Failure(message: error.message, type: error.code.name, text: text)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
