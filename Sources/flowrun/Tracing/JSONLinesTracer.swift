import FlowCore
import Foundation
import Synchronization
import Tracing

/// A tracer that writes every finished span as one JSON object per line: `flowrun run --trace-out FILE`.
///
/// It is deliberately small — no batching, no exporter protocol — so a run's trace can be
/// inspected with `jq`, diffed, or converted for another tool. Each line is
///
/// ```json
/// {"attributes":{…},"endTimeUnixNano":"…","events":[…],"kind":"client","name":"HTTP GET",
///  "parentSpanId":"…","spanId":"…","startTimeUnixNano":"…","status":{"code":"ok"},"traceId":"…"}
/// ```
///
/// with ids in lowercase hex and times as decimal strings of nanoseconds since the Unix epoch
/// (strings, as in OpenTelemetry's JSON encoding, so no reader rounds them to a double). A root
/// span's `parentSpanId` is `null`. The status `code` is `unset`, `ok` or `error`; an error's
/// message is in `message`. Lines are written when spans end, so children come before parents.
///
/// It propagates context as W3C Trace Context: ``inject(_:into:using:)`` writes `traceparent`,
/// ``extract(_:into:using:)`` reads it.
final class JSONLinesTracer: Tracer {
    typealias Span = JSONLinesSpan

    private let output: Mutex<FileHandle>

    /// Creates a tracer that writes to `path`, creating or truncating the file.
    /// - Parameter path: The file to write.
    /// - Throws: `CocoaError` when the file cannot be created or opened.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        output = Mutex(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
    }

    /// Starts a span: a child of the context's span, or the root of a new trace.
    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> InstrumentationContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> JSONLinesSpan {
        var context = context()
        let parent = context.traceContext
        let identity = TraceContext(
            traceID: parent?.traceID ?? TraceContext.randomTraceID(), spanID: TraceContext.randomSpanID(),
            sampled: parent?.sampled ?? true)
        context.traceContext = identity
        return JSONLinesSpan(
            operationName: operationName, context: context, identity: identity, parentSpanID: parent?.spanID,
            kind: kind, start: instant().nanosecondsSinceEpoch
        ) { [weak self] line in
            self?.write(line)
        }
    }

    /// Does nothing: every span is written when it ends.
    func forceFlush() {}

    /// Writes the context's span as a `traceparent` header.
    func inject<Carrier, Inject: Injector>(
        _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let identity = context.traceContext else { return }
        injector.inject(identity.traceparent, forKey: "traceparent", into: &carrier)
    }

    /// Reads a `traceparent` header into the context, so spans started from it continue that trace.
    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let value = extractor.extract(key: "traceparent", from: carrier),
            let identity = TraceContext(traceparent: value)
        else { return }
        context.traceContext = identity
    }

    /// Closes the file; spans that end afterwards are dropped.
    func close() {
        output.withLock { handle in try? handle.close() }
    }

    private func write(_ line: String) {
        let data = Data((line + "\n").utf8)
        output.withLock { handle in try? handle.write(contentsOf: data) }
    }
}
