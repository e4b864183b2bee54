import FlowCore

extension RunPrinter {
    /// The lines `--verbose` prints under a step's line, each starting with `indent`: one per attempt of a
    /// `repeat`, `paginate` or `forEach` step (`page 2`, `item 0, attempt 2`), with its request, status,
    /// duration and error; for a `workflow:` step, each called step's line and, deeper, its own details.
    ///
    /// Every value comes from the report, so URLs and messages are redacted as the report's are.
    func detailLines(of step: StepReport, indent: String) -> [String] {
        if step.workflow != nil {
            return step.subSteps.flatMap { sub in [indent + line(of: sub)] + detailLines(of: sub, indent: indent + "    ") }
        }
        guard step.itemCount != nil || step.iterationCount != nil else { return [] }
        return step.attempts.map { attempt in indent + Self.detailLine(of: attempt, loop: step.loop) }
    }

    /// `page 2  GET https://api.example/issues?page=3  200  4 ms`, `item 1, attempt 2  GET …  503  3 ms  http: …`.
    static func detailLine(of attempt: AttemptReport, loop: StepReport.Loop?) -> String {
        var line = attempt.positionText(loop: loop) ?? "attempt \(attempt.number)"
        line += "  \(attempt.method) \(attempt.urlText)"
        line += attempt.statusText.map { "  \($0)" } ?? ""
        line += "  \(format(attempt.duration))"
        if let error = attempt.error { line += "  \(error.code): \(error.message)" }
        return line
    }
}
