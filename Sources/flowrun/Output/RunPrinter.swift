import FlowCore
import Foundation
import Synchronization

/// Prints a run as it happens: a line per finished step, then the outputs or the error.
///
/// Step lines go to standard error (progress), the outputs or JSON report to
/// standard output, so `flowrun run … > out.json` captures only the result.
final class RunPrinter: Sendable {
    let format: RunOutputFormat
    let color: Bool

    init(format: RunOutputFormat, stderrIsTerminal: Bool) {
        self.format = format
        self.color = stderrIsTerminal
    }

    /// Prints one line for a finished step (human format only).
    func stepFinished(_ step: StepReport) {
        guard format == .human else { return }
        let symbol: String = switch step.status {
        case .succeeded: paint("✓", "32")
        case .recovered: paint("↺", "33")
        case .failed: paint("✗", "31")
        case .skipped: paint("-", "2")
        }
        var line = "\(symbol) \(step.id)"
        if let last = step.attempts.last {
            line += "  \(last.method) \(last.url)"
            line += last.status.map { "  \($0)" } ?? ""
        }
        if step.status != .skipped {
            line += "  \(Self.format(step.duration))"
            if step.attempts.count > 1 { line += "  (\(step.attempts.count) attempts)" }
        }
        if let error = step.error, step.status == .recovered { line += "  recovered from: \(error.message)" }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Prints the outputs (or error) in human format, or the whole report as JSON.
    func finish(_ report: RunReport) {
        switch format {
        case .json:
            FileHandle.standardOutput.write(Data((RunReportJSON.encode(report).serialized(pretty: true) + "\n").utf8))
        case .human:
            if let error = report.error {
                // The description already reads `place: step 'id', attempt n: error: message`; prefixing
                // another "error: " printed the word twice. Only the word is painted.
                var line = error.description
                let tail = "error: \(error.message)"
                if color, line.hasSuffix(tail) {
                    line = line.dropLast(tail.count) + paint("error", "31") + ": " + error.message
                }
                FileHandle.standardError.write(Data((line + "\n").utf8))
                if let excerpt = error.responseExcerpt {
                    FileHandle.standardError.write(Data("  response: \(excerpt)\n".utf8))
                }
            } else {
                FileHandle.standardOutput.write(Data((JSONValue.object(report.outputs).serialized(pretty: true) + "\n").utf8))
            }
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    static func format(_ duration: Duration) -> String {
        let ms = duration.milliseconds
        return ms < 1000 ? "\(ms) ms" : String(format: "%.2f s", Double(ms) / 1000)
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
