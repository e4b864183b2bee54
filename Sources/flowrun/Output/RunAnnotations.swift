import FlowCore

/// The GitHub Actions annotations of a run, which `flowrun run --format github` prints.
///
/// A failed run gives one `::error` titled with the error's code, naming the step and
/// attempt (and the place in the workflow file, when the error has one); a step that a
/// `catch` rule recovered gives a `::warning`; a successful run gives one `::notice`
/// with the step count, the time and the names of the outputs — not their values,
/// which annotations would keep on the run's page.
enum RunAnnotations {
    /// The annotation lines of `report`.
    /// - Parameter report: The run's report; secrets are already redacted.
    /// - Returns: One workflow command per line.
    static func render(_ report: RunReport) -> String {
        var out = ""
        for step in report.steps where step.status == .recovered {
            guard let error = step.error else { continue }
            out += WorkflowCommand(
                command: "warning", properties: [("title", "flowrun run (\(error.code))")],
                message: "step '\(step.id)' recovered from: \(error.message)"
            ).line
        }
        if let error = report.error {
            var properties: [(name: String, value: String)] = []
            if let location = error.location {
                properties = [
                    ("file", location.path), ("line", String(location.line)), ("col", String(location.column)),
                ]
            }
            properties.append(("title", "flowrun run (\(error.code))"))
            var message = error.stepID.map { "step '\($0)'" + (error.attempt.map { ", attempt \($0)" } ?? "") + ": " }
                ?? ""
            message += error.message
            if let request = error.request { message += "\nrequest: \(request)" }
            out += WorkflowCommand(command: "error", properties: properties, message: message).line
        } else {
            let steps = report.steps.count == 1 ? "1 step" : "\(report.steps.count) steps"
            var message = "\(report.workflow) succeeded in \(RunPrinter.format(report.duration)): \(steps)"
            if !report.outputs.isEmpty {
                message += "; outputs: " + report.outputs.keys.sorted().joined(separator: ", ")
            }
            out += WorkflowCommand(command: "notice", properties: [("title", "flowrun run")], message: message).line
        }
        return out
    }
}
