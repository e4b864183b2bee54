import Foundation
import Tracing

/// The tracing `flowrun run` sets up from `--trace-out` and `--otlp-endpoint`: the tracer it installs
/// before the first request, and what it writes or sends when the runs end.
///
/// With `--trace-out` alone a ``JSONLinesTracer`` makes the spans. With `--otlp-endpoint` (a build with the
/// `OTLP` trait) swift-otel's tracer makes them and exports them; with both, the file gets the same spans,
/// ids included (``OTLPTracer``).
struct RunTracing {
    /// Why tracing could not start: the message `flowrun run` prints before exiting 2.
    struct Failure: Error {
        /// What went wrong, naming the file or endpoint.
        var message: String
    }

    /// The `--trace-out` tracer and its file.
    private let file: (tracer: JSONLinesTracer, path: String)?
    #if OTLP
    private let export: OTLPExport?
    #endif

    /// Installs the tracer the options ask for, for the whole process.
    /// - Parameters:
    ///   - traceOut: The `--trace-out` file, if any.
    ///   - otlpEndpoint: The `--otlp-endpoint`, if any; always `nil` in a build without the `OTLP` trait.
    /// - Returns: The tracing to finish when the runs end, or `nil` when neither option is given.
    /// - Throws: ``Failure`` when the file cannot be created or the exporter cannot be configured.
    static func start(traceOut: String?, otlpEndpoint: OTLPEndpoint?) throws(Failure) -> RunTracing? {
        guard traceOut != nil || otlpEndpoint != nil else { return nil }
        let fileTracer: JSONLinesTracer?
        do {
            fileTracer = try traceOut.map { try JSONLinesTracer(path: $0) }
        } catch {
            throw Failure(message: "cannot write the trace to \(traceOut ?? "")")
        }
        let file = fileTracer.map { (tracer: $0, path: traceOut ?? "") }
        #if OTLP
        if let otlpEndpoint {
            do {
                return RunTracing(file: file, export: try OTLPExport.start(endpoint: otlpEndpoint, mirror: fileTracer))
            } catch {
                fileTracer?.discard()
                throw Failure(message: "cannot export the trace to \(otlpEndpoint.tracesURL): \(error)")
            }
        }
        if let fileTracer { InstrumentationSystem.bootstrap(fileTracer) }
        return RunTracing(file: file, export: nil)
        #else
        if let fileTracer { InstrumentationSystem.bootstrap(fileTracer) }
        return RunTracing(file: file)
        #endif
    }

    /// Sends the spans still to be exported, then moves the trace file into place.
    ///
    /// An export that fails is a warning on standard error, printed as it happens; a file that cannot be
    /// written is returned, for `flowrun run` to report with the other unwritten files.
    /// - Returns: A message for each output that could not be written.
    func finish() async -> [String] {
        #if OTLP
        await export?.finish()
        #endif
        guard let file else { return [] }
        do {
            try file.tracer.close()
            return []
        } catch {
            return ["cannot write the trace to \(file.path): \(error.localizedDescription)"]
        }
    }
}
