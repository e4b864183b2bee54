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
        testCase.properties = properties(of: step)
        var out = attemptLines(of: step)
        if step.workflow != nil { out += subStepLines(of: step.subSteps, indent: "") }
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

    /// One line per attempt, with the item or iteration it was for: `page 1: GET … → 200 (4 ms)`,
    /// `item 0, attempt 2: GET … → 503 (3 ms) (http: status 503: down)`.
    private static func attemptLines(of step: StepReport) -> [String] {
        step.attempts.map { attempt in
            var line = (attempt.positionText(loop: step.loop) ?? "attempt \(attempt.number)")
                + ": \(attempt.method) \(attempt.urlText)"
            if let status = attempt.statusText { line += " → \(status)" }
            line += " (\(RunPrinter.format(attempt.duration)))"
            if let error = attempt.error { line += " (\(error.code): \(error.message))" }
            return line
        }
    }

    /// A `workflow:` step's called steps: `step token: succeeded (3 ms)`, then each one's attempt lines and its
    /// own called steps, indented.
    private static func subStepLines(of steps: [StepReport], indent: String) -> [String] {
        steps.flatMap { sub in
            var lines = ["\(indent)step \(sub.id): \(sub.status.rawValue) (\(RunPrinter.format(sub.duration)))"]
            lines += attemptLines(of: sub).map { indent + "  " + $0 }
            if sub.workflow != nil { lines += subStepLines(of: sub.subSteps, indent: indent + "  ") }
            return lines
        }
    }

    /// What the step's report says beyond its attempts: its item or iteration count, its loop, the workflow
    /// it called and the case it chose.
    private static func properties(of step: StepReport) -> [Property] {
        var properties: [Property] = []
        if let count = step.itemCount { properties.append(Property(name: "itemCount", value: String(count))) }
        if let loop = step.loop { properties.append(Property(name: "loop", value: loop.rawValue)) }
        if let count = step.iterationCount {
            properties.append(Property(name: "iterationCount", value: String(count)))
        }
        if let workflow = step.workflow {
            properties.append(Property(name: "workflow", value: workflow))
            properties.append(Property(name: "subSteps", value: String(step.subSteps.count)))
        }
        if let chose = step.chose { properties.append(Property(name: "chose", value: chose)) }
        if let key = step.matchedCase { properties.append(Property(name: "matchedCase", value: key)) }
        return properties
    }

    private static func problem(_ error: FlowError) -> Problem {
        var text = error.description
        if let request = error.request { text += "\nrequest: \(request)" }
        if let excerpt = error.responseExcerpt { text += "\nresponse: \(excerpt)" }
        return Problem(message: error.message, type: error.code.name, text: text)
    }
}
