import FlowCore

/// `flowrun run --format junit`: a suite for the run, a test case per step run.
extension JUnitXML {
    /// The JUnit report of one run.
    static func run(_ report: RunReport) -> JUnitXML {
        let className = "flowrun.run.\(report.workflow)"
        var cases = report.steps.map { stepCase($0, className: className) }
        if let error = report.error, !report.steps.contains(where: { $0.status == .failed }) {
            cases.append(TestCase(name: "(workflow)", classname: className, result: .failure(problem(error))))
        }
        return JUnitXML(
            name: "flowrun run", suites: [Suite(name: report.workflow, time: report.duration, cases: cases)])
    }

    private static func stepCase(_ step: StepReport, className: String) -> TestCase {
        var testCase = TestCase(name: step.id, classname: className, time: step.duration)
        var out = step.attempts.map { attempt in
            var line = "attempt \(attempt.number): \(attempt.method) \(attempt.urlText)"
            if let status = attempt.statusText { line += " → \(status)" }
            if let error = attempt.error { line += " (\(error.code): \(error.message))" }
            return line
        }
        switch step.status {
        case .succeeded:
            break
        case .failed:
            if let error = step.error { testCase.result = .failure(problem(error)) }
        case .recovered:
            if let error = step.error { out.append("recovered from \(error.code): \(error.message)") }
        case .skipped:
            testCase.result = .skipped(message: step.skipReason ?? "the run ended before the step started")
        }
        testCase.systemOut = out.isEmpty ? nil : out.joined(separator: "\n")
        return testCase
    }

    private static func problem(_ error: FlowError) -> Problem {
        var text = error.description
        if let request = error.request { text += "\nrequest: \(request)" }
        if let excerpt = error.responseExcerpt { text += "\nresponse: \(excerpt)" }
        return Problem(message: error.message, type: error.code.name, text: text)
    }
}
