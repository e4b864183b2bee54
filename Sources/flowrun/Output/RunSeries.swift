import FlowCore
import Foundation

/// The runs of one `flowrun run --repeat N` or `--inputs-each FILE`: a line per run as it ends, then a summary.
///
/// Human format prints `run 3/10 ✓ 42 ms` per run on standard error (the row number too with
/// `--inputs-each`, and the error of a failed run), then `10 runs: 9 succeeded, 1 failed; duration p50 41 ms,
/// p95 58 ms, max 61 ms`. JSON format prints one document on standard output: the summary and each run's
/// report as `--format json` prints it for a single run, with its `run` and `row` numbers. Inputs are never
/// printed: they may hold secrets. Percentiles are nearest-rank.
struct RunSeries {
    /// One finished run.
    struct Run {
        /// The run's number, from 1.
        var number: Int
        /// The `--inputs-each` row it ran, from 1.
        var row: Int?
        var report: RunReport
    }

    /// The single run's printer: its format, colours and, with `-v`, the step lines.
    let printer: RunPrinter
    /// How many runs were planned.
    let total: Int
    private(set) var runs: [Run] = []

    private var format: RunOutputFormat { printer.format }

    /// Records a finished run and, in human format, prints its line.
    mutating func finished(_ run: Run) {
        runs.append(run)
        guard format == .human else { return }
        let symbol = run.report.succeeded ? printer.paint("✓", "32") : printer.paint("✗", "31")
        var line = "run \(run.number)/\(total)" + (run.row.map { " (row \($0))" } ?? "")
        line += " \(symbol) \(RunPrinter.format(run.report.duration))"
        if let error = run.report.error {
            var text = error.description
            if text.hasPrefix("error: ") { text.removeFirst("error: ".count) }
            line += "  \(text)"
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    var succeeded: Int { runs.filter(\.report.succeeded).count }
    var failed: Int { runs.count - succeeded }

    /// The nearest-rank `percentile` (0–100) of the runs' durations in milliseconds: the smallest duration
    /// that at least `percentile` % of the runs took no longer than.
    func percentile(_ percentile: Int) -> Int {
        Self.nearestRank(percentile, of: runs.map(\.report.duration.milliseconds))
    }

    /// The nearest-rank `percentile` (0–100) of `values`: the value at rank ⌈percentile / 100 × count⌉ (at
    /// least 1) in ascending order; 0 when there are none.
    static func nearestRank(_ percentile: Int, of values: [Int]) -> Int {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = max(1, (percentile * sorted.count + 99) / 100)
        return sorted[rank - 1]
    }

    /// Prints the summary: a line on standard error in human format, the whole document on standard output
    /// in JSON.
    func finish() {
        switch format {
        case .json:
            var summary: [String: JSONValue] = [
                "runs": .int(runs.count), "succeeded": .int(succeeded), "failed": .int(failed),
            ]
            if !runs.isEmpty {
                summary["p50Ms"] = .int(percentile(50))
                summary["p95Ms"] = .int(percentile(95))
                summary["maxMs"] = .int(percentile(100))
            }
            let entries: [JSONValue] = runs.map { run in
                guard case .object(var entry) = RunReportJSON.encode(run.report) else { return .null }
                entry["run"] = .int(run.number)
                if let row = run.row { entry["row"] = .int(row) }
                return .object(entry)
            }
            let document: JSONValue = ["summary": .object(summary), "runs": .array(entries)]
            FileHandle.standardOutput.write(Data((document.serialized(pretty: true) + "\n").utf8))
        default:
            var line = "\(runs.count) run\(runs.count == 1 ? "" : "s"): \(succeeded) succeeded, \(failed) failed"
            if !runs.isEmpty {
                line += "; duration p50 \(percentile(50)) ms, p95 \(percentile(95)) ms, max \(percentile(100)) ms"
            }
            if runs.count < total { line += " (\(total - runs.count) not run: interrupted)" }
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}
