import FlowCore
import Foundation

/// Renders a ``PolicyAnalysis`` for `flowrun lint --explain`: an aligned table, or JSON values.
///
/// All figures come from FlowCore; this type only lays them out.
struct PolicyAnalysisPrinter {
    /// One workflow's analysis, as `lint --explain` prints it.
    struct Explained {
        /// What the table is headed with: the file's path, and `#<workflowId>` for a workflow of an Arazzo document.
        var heading: String
        /// The workflow of an Arazzo document it explains.
        var workflowID: String?
        /// The analysis, or `nil` when the workflow has no plan.
        var analysis: PolicyAnalysis?
        /// Why there is no analysis.
        var unexplained = "the file has errors"
        /// A note under the table: how a `goto` or a retry that runs a step first can run steps again, and its bound.
        var note: String?
    }

    /// The table of one workflow's steps, with its heading.
    /// - Parameter explained: The workflow's analysis.
    /// - Returns: The text, ending with a newline.
    func table(_ explained: Explained) -> String {
        let path = explained.heading
        guard let analysis = explained.analysis else { return "\(path): not explained: \(explained.unexplained)\n" }
        var rows = [["step", "policy", "attempts", "requests", "longest", "notes"]]
        for step in analysis.steps {
            let unit = step.loop?.isPerItem == true ? " per item" : ""
            rows.append([
                step.id, step.policy ?? "-", String(step.attempts) + unit, String(step.requests) + unit,
                Self.text(step.duration) + unit, Self.notes(step).joined(separator: "; "),
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
        out += "  total, the regular steps one after another: \(Self.text(analysis.total))\n"
        if let note = explained.note { out += "  (\(note))\n" }
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
                entry["duration"] = Self.json(step.duration)
                if !step.switchCases.isEmpty { entry["switchCases"] = step.switchCases }
                if let loop = step.loop {
                    entry["perItem"] = loop.isPerItem
                    entry["loop"] = [
                        "kind": loop.kind.rawValue,
                        "maxIterations": loop.maxIterations.map { $0 as Any } ?? NSNull(),
                        "maxConcurrency": loop.maxConcurrency.map { $0 as Any } ?? NSNull(),
                        "perIteration": [
                            "attempts": loop.attempts, "requests": loop.requests, "duration": Self.json(loop.duration),
                        ],
                        "waitSeconds": Self.seconds(loop.waits),
                    ]
                }
                if let call = step.subWorkflow {
                    entry["subWorkflow"] = ["path": call.path, "total": Self.json(call.total)]
                }
                if let refresh = step.refresh {
                    entry["refresh"] = [
                        "step": refresh.step, "statuses": refresh.statuses, "requests": refresh.requests,
                    ]
                }
                return entry
            },
            "total": Self.json(analysis.total),
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

    /// `42 requests, longest 62s`, with what each item of a `forEach` step adds.
    private static func text(_ total: PolicyAnalysis.Total) -> String {
        let longest = total.duration.map { $0.workflowText + (total.isDeadline ? " (deadline)" : "") }
            ?? "unbounded (a step has no timeout)"
        guard total.isLowerBound else { return "\(plural(total.requests, "request")), longest \(longest)" }
        let requests = total.perItem.map { "\($0.requests) × the items of \($0.id)" }
        let durations = total.perItem.map { "\(text($0.duration)) × ⌈items of \($0.id) / \($0.maxConcurrency)⌉" }
        return ([plural(total.requests, "request")] + requests).joined(separator: " + ")
            + ", longest " + ([longest] + durations).joined(separator: " + ")
            + " (item counts unknown until run time)"
    }

    /// What a loop, a `forEach` or a called workflow does to a step's figures.
    private static func loopNotes(_ step: PolicyAnalysis.StepWorstCase) -> [String] {
        var notes: [String] = []
        if let loop = step.loop {
            let one = "\(plural(loop.attempts, "attempt")), \(text(loop.duration))"
            switch (loop.kind, loop.maxIterations) {
            case (.forEach, _), (_, nil):
                let concurrency = loop.maxConcurrency ?? 1
                notes.append(
                    "forEach: × the number of items (unknown until run time), at most \(concurrency) at once; "
                        + "longest \(text(loop.duration)) × ⌈items / \(concurrency)⌉")
            case (.repeat, let limit?), (.paginate, let limit?):
                let name = loop.kind == .repeat ? "maxIterations" : "maxPages"
                let waits = loop.waits > .zero ? " + \(loop.waits.workflowText) of waits" : ""
                notes.append("\(loop.kind.rawValue): bounded by \(name) \(limit): \(limit) × (\(one))\(waits)")
            }
        }
        if let call = step.subWorkflow {
            var note = "workflow \(call.path): its total"
            if call.total.isLowerBound {
                note += " + " + call.total.perItem.map { "\($0.requests) × the items of \(step.id)/\($0.id)" }
                    .joined(separator: " + ")
            }
            notes.append(note)
        }
        return notes
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private static func json(_ bound: PolicyAnalysis.DurationBound) -> [String: Any] {
        switch bound {
        case .atMost(let duration): ["bound": "attempts", "seconds": seconds(duration)]
        case .totalTimeout(let duration): ["bound": "total-timeout", "seconds": seconds(duration)]
        case .unbounded(let reason): ["bound": "unbounded", "reason": reason.rawValue]
        }
    }

    private static func json(_ total: PolicyAnalysis.Total) -> [String: Any] {
        [
            "requests": total.requests,
            "durationSeconds": total.duration.map { seconds($0) as Any } ?? NSNull(),
            "bound": total.duration == nil ? "unbounded" : total.isDeadline ? "deadline" : "steps",
            "lowerBound": total.isLowerBound,
            "perItem": total.perItem.map { entry -> [String: Any] in
                [
                    "step": entry.id, "requests": entry.requests, "duration": json(entry.duration),
                    "maxConcurrency": entry.maxConcurrency,
                ]
            },
        ]
    }

    private static func notes(_ step: PolicyAnalysis.StepWorstCase) -> [String] {
        var notes: [String] = []
        if step.isOnDemand { notes.append("on-demand") }
        notes += loopNotes(step)
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
