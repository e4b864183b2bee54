import FlowCore

extension RunPrinter {
    /// The lines `--verbose` prints under a step's line, each starting with `indent`: one per attempt of a
    /// `repeat`, `paginate` or `forEach` step (`page 2`, `item 0, attempt 2`), with its request, status,
    /// duration and error; for a `workflow:` step, each called step's line and, deeper, its own details. Each
    /// attempt's exchanges follow it, taken from `exchanges` (further in under an iteration's or item's line).
    ///
    /// Every value comes from the report or is redacted, so URLs and messages are redacted as the report's are.
    func detailLines(of step: StepReport, indent: String, exchanges: inout [Exchange]) -> [String] {
        if step.workflow != nil {
            return step.subSteps.flatMap { sub in
                [indent + line(of: sub)] + detailLines(of: sub, indent: indent + "    ", exchanges: &exchanges)
            }
        }
        let isLoop = step.itemCount != nil || step.iterationCount != nil
        return step.attempts.flatMap { attempt in
            let own = Self.take(from: &exchanges, of: step.id, attempt)
            guard isLoop else { return exchangeLines(own, of: attempt, indent: indent) }
            return [indent + Self.detailLine(of: attempt, loop: step.loop)]
                + exchangeLines(own, of: attempt, indent: indent + "    ")
        }
    }

    /// `page 2  GET https://api.example/issues?page=3  200  4 ms`, `item 1, attempt 2  GET …  503  3 ms  http: …`.
    static func detailLine(of attempt: AttemptReport, loop: StepReport.Loop?) -> String {
        var line = attempt.positionText(loop: loop) ?? "attempt \(attempt.number)"
        line += "  \(attempt.method) \(attempt.urlText)"
        line += attempt.statusText.map { "  \($0)" } ?? ""
        line += "  \(format(attempt.duration))"
        // The message may quote the server, as a step's line's may: escaped, so it stays one line.
        if let error = attempt.error { line += "  \(error.code): \(TerminalText.escape(error.message))" }
        return line
    }

    /// Removes from `exchanges` and returns, in order, those of `attempt` of step `stepID`.
    private static func take(from exchanges: inout [Exchange], of stepID: String, _ attempt: AttemptReport)
        -> [Exchange]
    {
        var own: [Exchange] = []
        exchanges.removeAll { exchange in
            let matches = exchange.stepID == stepID && exchange.attempt == attempt.number
                && exchange.item == attempt.item && exchange.iteration == attempt.iteration
            if matches { own.append(exchange) }
            return matches
        }
        return own
    }
}
