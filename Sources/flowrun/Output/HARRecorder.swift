import FlowCore
import Foundation
import Synchronization

/// Keeps every exchange of a run and writes them as a HAR 1.2 file when it ends: `flowrun run --har-out FILE`.
///
/// The file is created (under a temporary name beside it) when the recorder is, before the first request, so
/// a path that cannot be written fails the run before anything is sent; it is written whole and renamed into
/// place by ``write(_:)`` — after a failed or cancelled run too — so it is never left half-written. The
/// exchanges are redacted as they are written, when the run's redactor knows every secret the run met.
final class HARRecorder: ExchangeObserver {
    private let exchanges = Mutex<[Exchange]>([])
    private let file: PartialFile

    /// Creates the recorder and the temporary file beside `path`.
    /// - Throws: ``PartialFile/Unwritable`` when `path` cannot be written.
    init(path: String) throws {
        file = try PartialFile(path: path)
    }

    func exchangeFinished(_ exchange: Exchange) {
        exchanges.withLock { $0.append(exchange) }
    }

    /// Writes the HAR file of the exchanges of the run that `report` describes.
    func write(_ report: RunReport) throws {
        let redacted = exchanges.withLock { $0 }.map { $0.redacted() }
        let outcome = report.succeeded ? "succeeded" : "failed"
        let comment = "flowrun run of \(report.workflow) (run \(report.runID), \(outcome))"
        try file.write(Data(HARLog.render(redacted, comment: comment).utf8))
    }

    /// Removes the temporary file: no HAR file is written.
    func discard() { file.discard() }
}
