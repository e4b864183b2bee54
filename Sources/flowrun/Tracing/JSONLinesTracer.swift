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

    /// The open file and the first write error, if any.
    private struct Output {
        var handle: FileHandle?
        var failure: (any Error)?
    }

    private let output: Mutex<Output>
    /// Where spans are written until the trace is complete; ``close()`` renames it into place.
    private let file: PartialFile

    /// Creates a tracer that writes to a temporary file beside `path`; ``close()`` renames it to `path`.
    /// - Parameter path: The file to write.
    /// - Throws: ``PartialFile/Unwritable`` when the temporary file cannot be created, or the error opening it.
    init(path: String) throws {
        file = try PartialFile(path: path)
        output = Mutex(Output(handle: try file.openForWriting()))
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
        let context = context()
        let parent = context.traceContext
        let identity = TraceContext(
            traceID: parent?.traceID ?? TraceContext.randomTraceID(), spanID: TraceContext.randomSpanID(),
            sampled: parent?.sampled ?? true)
        return startSpan(
            operationName, context: context, identity: identity, parentSpanID: parent?.spanID, kind: kind,
            start: instant().nanosecondsSinceEpoch)
    }

    /// Starts a span whose ids another tracer chose: the ``OTLPTracer`` mirrors its spans here.
    /// - Parameters:
    ///   - operationName: The span's name.
    ///   - parent: The context the span starts in; the span's own context is this one with its identity.
    ///   - identity: The span's trace and span ids.
    ///   - parentSpanID: The parent's span id, or `nil` for the root of a trace.
    ///   - kind: The span's kind.
    ///   - start: When it started, in nanoseconds since the Unix epoch.
    func startSpan(
        _ operationName: String, context parent: InstrumentationContext, identity: TraceContext,
        parentSpanID: String?, kind: SpanKind, start: UInt64
    ) -> JSONLinesSpan {
        var context = parent
        context.traceContext = identity
        return JSONLinesSpan(
            operationName: operationName, context: context, identity: identity, parentSpanID: parentSpanID,
            kind: kind, start: start
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

    /// Closes the file and moves it into place; spans that end afterwards are dropped.
    ///
    /// A trace that could not be written whole never replaces the file: the temporary file is removed and
    /// the first error is thrown, so `flowrun run` can say so and exit 2 instead of leaving a partial trace.
    /// - Throws: The first error writing, flushing or renaming the file.
    func close() throws {
        let failure: (any Error)? = output.withLock { output in
            defer { output.handle = nil }
            guard let handle = output.handle else { return output.failure }
            do {
                try handle.synchronize()
                try handle.close()
            } catch {
                output.failure = output.failure ?? error
            }
            return output.failure
        }
        if let failure {
            file.discard()
            throw file.unwritable(failure)
        }
        try file.commit()
    }

    /// Closes the file and removes it: nothing is written, as when the run never starts.
    func discard() {
        output.withLock { output in
            try? output.handle?.close()
            output.handle = nil
        }
        file.discard()
    }

    private func write(_ line: String) {
        let data = Data((line + "\n").utf8)
        output.withLock { output in
            guard output.failure == nil, let handle = output.handle else { return }
            do { try handle.write(contentsOf: data) } catch { output.failure = error }
        }
    }
}
