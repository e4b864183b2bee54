#if OTLP
import Foundation
import Logging
import Synchronization

/// swift-otel's diagnostic log as `flowrun run --otlp-endpoint` shows it: each problem exporting the trace
/// once, as a warning on standard error; nothing else.
///
/// A collector that is down or refuses the spans is not the run's failure: the run's report and exit status
/// stay the run's, and this warning says what was lost and why.
struct OTLPExportWarnings: LogHandler {
    /// The lines printed so far, shared by every copy of the handler, so a repeated failure is said once.
    private final class Printed: Sendable {
        let lines = Mutex<Set<String>>([])
    }

    /// The URL the spans were posted to, which every warning names.
    let endpoint: OTLPEndpoint
    private let printed = Printed()

    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    init(endpoint: OTLPEndpoint) {
        self.endpoint = endpoint
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Prints a warning or worse once; ignores the rest.
    func log(event: LogEvent) {
        guard event.level >= .warning else { return }
        let line: String
        if let error = event.error {
            line = "flowrun run: warning: the trace was not exported to \(endpoint.tracesURL): \(Self.describe(error))"
        } else {
            line = "flowrun run: warning: exporting the trace to \(endpoint.tracesURL): \(event.message)"
        }
        guard printed.lines.withLock({ $0.insert(line).inserted }) else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A readable account of an export error: swift-otel's timeout says how long it waited, and SwiftNIO's
    /// `connection reset (error set): Connection refused) (errno: 111)` is the refusal it reports.
    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.hasPrefix("TimeoutError") { return "no answer within \(OTLPExport.exportTimeout)" }
        if text.contains("Connection refused") { return "connection refused" }
        return text
    }
}
#endif
