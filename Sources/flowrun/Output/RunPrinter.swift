import FlowCore
import Foundation
import Synchronization

/// Prints a run as it happens: a line per finished step, then the outputs or the error.
///
/// Step lines go to standard error (progress), the outputs, JSON report, JUnit XML or
/// GitHub annotations to standard output, so `flowrun run … > out.json` captures only
/// the result. Step lines are printed in human and github format (a CI log reads well
/// with them), and in every format with `-v`. When standard error is a terminal, a status
/// line below the step lines shows the steps still running. With `-v` (``verbose`` 1), each
/// line of a loop, `forEach` or `workflow:` step is followed by an indented line per
/// iteration, item or called step, and every step's exchanges are printed under its line,
/// redacted: the request and status lines and header fields; with `-vv` (2) the bodies too.
///
/// Exchanges are held until their step finishes (see ``exchangeFinished(_:)``).
final class RunPrinter: RunObserver, ExchangeObserver {
    let format: RunOutputFormat
    let isTerminal: Bool
    /// How many times `-v` was given: 1 adds iterations, items, called steps and the exchanges' headers,
    /// 2 the bodies too.
    let verbose: Int
    private let running = Mutex<[String]>([])
    /// The exchanges of the steps still running, by step id.
    private let exchanges = Mutex<[String: [Exchange]]>([:])

    init(format: RunOutputFormat, stderrIsTerminal: Bool, verbose: Int = 0) {
        self.format = format
        self.isTerminal = stderrIsTerminal
        self.verbose = verbose
    }

    /// Whether step lines are printed to standard error.
    private var showsProgress: Bool { format == .human || format == .github || verbose > 0 }

    /// Keeps `exchange` until its step's line is printed: redacted then, when the run's redactor knows the
    /// credentials that a refresh step took from a response (the refresh step's line comes after the replay
    /// that sent them). Without `-vv` the bodies are dropped at once.
    func exchangeFinished(_ exchange: Exchange) {
        var exchange = exchange
        if verbose < 2 {
            exchange.request.body = nil
            exchange.response?.body = []
        }
        exchanges.withLock { $0[exchange.stepID, default: []].append(exchange) }
    }

    /// Removes and returns the exchanges of `step` and of the steps of the workflow it called, in order.
    private func takeExchanges(of step: StepReport) -> [Exchange] {
        var ids: [String] = []
        func collect(_ report: StepReport) {
            ids.append(report.id)
            report.subSteps.forEach(collect)
        }
        collect(step)
        return exchanges.withLock { held in ids.flatMap { held.removeValue(forKey: $0) ?? [] } }
    }

    func stepStarted(_ stepID: String) {
        guard showsProgress else { return }
        let names = running.withLock { list in
            list.append(stepID)
            return list
        }
        statusLine(names)
    }

    /// Prints one line for a finished step (human and github format).
    func stepFinished(_ step: StepReport) {
        guard showsProgress else { return }
        let names = running.withLock { list in
            list.removeAll { $0 == step.id }
            return list
        }
        // Warnings show at every verbosity: a response that does not conform is news even when the step succeeded.
        var details = step.attempts.flatMap { attempt in
            attempt.warnings.map { "    " + paint("warning:", "33") + " attempt \(attempt.number): " + TerminalText.escape($0) }
        }
        if verbose > 0 {
            var held = takeExchanges(of: step)
            details += detailLines(of: step, indent: "    ", exchanges: &held)
            details += exchangeLines(held, of: nil, indent: "    ")
        }
        write(clearing + ([line(of: step)] + details).joined(separator: "\n") + "\n")
        statusLine(names)
    }

    /// The summary line of a step: its symbol, id, last request and status (or, when no response arrived, the
    /// error kind), duration and counts.
    func line(of step: StepReport) -> String {
        let symbol: String = switch step.status {
        case .succeeded: paint("✓", "32")
        case .recovered: paint("↺", "33")
        case .failed: paint("✗", "31")
        case .skipped: paint("-", "2")
        }
        var line = "\(symbol) \(step.id)"
        if let chose = step.chose { line += " → \(chose) (case \(step.matchedCase ?? "?"))" }
        if let last = step.attempts.last {
            line += "  \(last.method) \(last.urlText)"
            // No response: the error kind, as the JSON report's error `code` names it.
            let outcome = last.statusText ?? (last.error ?? step.error)?.code.name
            line += outcome.map { "  \($0)" } ?? ""
        }
        if let workflow = step.workflow {
            line += "  workflow \(workflow) (\(step.subSteps.count) step\(step.subSteps.count == 1 ? "" : "s"))"
        }
        if step.status == .skipped {
            line += "  skipped" + (step.skipReason.map { ": \($0)" } ?? "")
        } else {
            line += "  \(Self.format(step.duration))"
            let attempts = "\(step.attempts.count) attempt\(step.attempts.count == 1 ? "" : "s")"
            if let count = step.itemCount {
                line += "  (\(count) item\(count == 1 ? "" : "s"), \(attempts))"
            } else if let count = step.iterationCount {
                let unit = step.loop?.unit ?? "iteration"
                line += "  (\(count) \(unit)\(count == 1 ? "" : "s"), \(attempts))"
            } else if step.attempts.count > 1 {
                line += "  (\(step.attempts.count) attempts)"
            }
        }
        if let requester = step.refreshFor { line += "  (refresh for \(requester))" }
        // The message may quote the server: it may not break the line or drive the terminal.
        if let error = step.error, step.status == .recovered {
            line += "  recovered from: \(TerminalText.escape(error.message))"
        }
        return line
    }

    /// Prints the outputs (or error) in human format, the whole report as JSON or JUnit XML, or the annotations.
    func finish(_ report: RunReport) {
        write(clearing)
        // Exchanges of a step whose line never came (none should be left): printed rather than lost.
        let left = exchanges.withLock { held in
            defer { held.removeAll() }
            return held.values.flatMap { $0 }
        }
        if !left.isEmpty { write(exchangeLines(left, of: nil, indent: "").joined(separator: "\n") + "\n") }
        switch format {
        case .json:
            FileHandle.standardOutput.write(Data((RunReportJSON.encode(report).serialized(pretty: true) + "\n").utf8))
        case .junit:
            FileHandle.standardOutput.write(Data(JUnitXML.run(report).render().utf8))
        case .github:
            FileHandle.standardOutput.write(Data(RunAnnotations.render(report).utf8))
        case .human:
            if let error = report.error {
                // The message may quote the server, and the excerpt is the server's: neither may drive the terminal.
                // Both keep their lines, the excerpt's indented under its first.
                var text = TerminalText.lines(error.description, continuation: "")
                if let label = text.range(of: "error:") { text.replaceSubrange(label, with: paint("error:", "31")) }
                write(text + "\n")
                if let excerpt = error.responseExcerpt {
                    write("  response: \(TerminalText.lines(excerpt, continuation: "            "))\n")
                }
            } else {
                let outputs = JSONValue.object(report.outputs).serialized(pretty: true)
                FileHandle.standardOutput.write(Data((outputs + "\n").utf8))
            }
        }
    }

    /// The escape that erases the status line, on a terminal.
    private var clearing: String { isTerminal ? "\r\u{1B}[K" : "" }

    private func statusLine(_ names: [String]) {
        guard isTerminal, !names.isEmpty else { return }
        write(clearing + paint("… running: \(names.joined(separator: ", "))", "2"))
    }

    private func write(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }

    func paint(_ text: String, _ code: String) -> String {
        isTerminal ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    static func format(_ duration: Duration) -> String {
        let ms = duration.milliseconds
        return ms < 1000 ? "\(ms) ms" : String(format: "%.2f s", Double(ms) / 1000)
    }
}
