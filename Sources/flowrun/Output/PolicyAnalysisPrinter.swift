import FlowCore
import Foundation

/// Renders a ``PolicyAnalysis`` for `flowrun lint --explain`: an aligned table, or JSON values.
///
/// All figures come from FlowCore; this type only lays them out.
struct PolicyAnalysisPrinter {
    /// The table of one workflow's steps, with a heading naming the file.
    /// - Parameters:
    ///   - analysis: The workflow's analysis, or `nil` when the file has errors and so no plan.
    ///   - path: The file's path.
    ///   - hasGoto: Whether a catch rule uses `goto`, which can run steps again.
    /// - Returns: The text, ending with a newline.
    func table(_ analysis: PolicyAnalysis?, path: String, hasGoto: Bool) -> String {
        guard let analysis else { return "\(path): not explained: the file has errors\n" }
        var rows = [["step", "policy", "attempts", "requests", "longest", "notes"]]
        for step in analysis.steps {
            rows.append([
                step.id, step.policy ?? "-", String(step.attempts), String(step.requests),
                Self.text(step.duration), Self.notes(step).joined(separator: "; "),
            ])
        }
        let rightAligned: Set<Int> = [2, 3]
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var out = "\(path): worst case per step, in plan order\n"
        for row in rows {
            let cells = row.indices.map { column -> String in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                if column == row.count - 1 { return row[column] }
                return rightAligned.contains(column) ? padding + row[column] : row[column] + padding
            }
            out += "  " + cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        if hasGoto {
            out += "  (per run of a step: a catch rule's goto runs its target and the steps after it again, "
                + "at most 3 times in all)\n"
        }
        return out
    }

    /// The JSON value of one workflow's analysis: `{ "steps": [...] }`, or `NSNull` when there is none.
    /// - Parameter analysis: The analysis, or `nil` when the file has errors.
    /// - Returns: A value for `JSONSerialization`.
    func json(_ analysis: PolicyAnalysis?) -> Any {
        guard let analysis else { return NSNull() }
        return [
            "steps": analysis.steps.map { step -> [String: Any] in
                var entry: [String: Any] = [
                    "id": step.id,
                    "policy": step.policy ?? NSNull(),
                    "onDemand": step.isOnDemand,
                    "attempts": step.attempts,
                    "attemptLimit": step.attemptLimit.rawValue,
                    "attemptsByRules": step.attemptsByRules,
                    "requestsPerAttempt": step.requestsPerAttempt,
                    "requests": step.requests,
                    "retryDelaySeconds": step.retryDelays.map(Self.seconds) ?? NSNull(),
                ]
                switch step.duration {
                case .atMost(let duration):
                    entry["duration"] = ["bound": "attempts", "seconds": Self.seconds(duration)]
                case .totalTimeout(let duration):
                    entry["duration"] = ["bound": "total-timeout", "seconds": Self.seconds(duration)]
                case .unbounded(let reason):
                    entry["duration"] = ["bound": "unbounded", "reason": reason.rawValue]
                }
                if !step.switchCases.isEmpty { entry["switchCases"] = step.switchCases }
                if let refresh = step.refresh {
                    entry["refresh"] = [
                        "step": refresh.step, "statuses": refresh.statuses, "requests": refresh.requests,
                    ]
                }
                return entry
            },
        ]
    }

    // MARK: Private

    private static func text(_ bound: PolicyAnalysis.DurationBound) -> String {
        switch bound {
        case .atMost(let duration): duration.workflowText
        case .totalTimeout(let duration): "\(duration.workflowText) (total timeout)"
        case .unbounded(.noTimeout): "unbounded (no timeout)"
        case .unbounded(.retryAfter): "unbounded (Retry-After without max)"
        }
    }

    private static func notes(_ step: PolicyAnalysis.StepWorstCase) -> [String] {
        var notes: [String] = []
        if step.isOnDemand { notes.append("on-demand") }
        if !step.switchCases.isEmpty { notes.append("switch: the most of " + step.switchCases.joined(separator: ", ")) }
        switch step.attemptLimit {
        case .notIdempotent:
            notes.append("never retried: not idempotent")
        case .totalTimeout:
            notes.append("the total timeout leaves time for \(step.attempts) of \(step.attemptsByRules) attempts")
        case .noRetries, .retryRules:
            break
        }
        if let refresh = step.refresh {
            let statuses = refresh.statuses.map(String.init).joined(separator: "/")
            let requests = refresh.requests == 1 ? "1 request" : "\(refresh.requests) requests"
            notes.append("each attempt: \(statuses) → \(refresh.step) (\(requests)) + replay")
        }
        return notes
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension String {
    /// The string without trailing spaces.
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
