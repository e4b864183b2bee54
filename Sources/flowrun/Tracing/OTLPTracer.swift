#if OTLP
import Tracing

/// The tracer `flowrun run --otlp-endpoint` installs: swift-otel's tracer makes, propagates and exports the
/// spans; with `--trace-out` too, every span is mirrored, under the same trace and span ids, into the
/// ``JSONLinesTracer``'s file.
///
/// One tracer decides the ids, so the `traceparent` the servers receive, the collector's trace and the
/// JSON lines all name the same spans. Both see the same calls — the engine's attributes, already redacted,
/// its events, status and end — so they export the same attributes.
final class OTLPTracer<Backend: Tracer>: Tracer {
    typealias Span = OTLPSpan<Backend.Span>

    private let backend: Backend
    private let mirror: JSONLinesTracer?

    /// Creates the tracer.
    /// - Parameters:
    ///   - backend: swift-otel's tracer, whose spans are exported.
    ///   - mirror: The `--trace-out` tracer that writes the same spans to a file, if any.
    init(backend: Backend, mirror: JSONLinesTracer?) {
        self.backend = backend
        self.mirror = mirror
    }

    /// Starts a span of the backend and, with a mirror, its JSON lines twin with the same ids.
    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> InstrumentationContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> OTLPSpan<Backend.Span> {
        let parent = context()
        let start = instant()
        let span = backend.startSpan(
            operationName, context: parent, ofKind: kind, at: start, function: function, file: fileID, line: line)
        let twin = mirror.flatMap { mirror in
            identity(of: span.context).map { identity in
                mirror.startSpan(
                    operationName, context: parent, identity: identity, parentSpanID: self.identity(of: parent)?.spanID,
                    kind: kind, start: start.nanosecondsSinceEpoch)
            }
        }
        return OTLPSpan(backend: span, mirror: twin)
    }

    /// Asks the backend to export what has ended so far. Deprecated with the protocol requirement it fulfils
    /// (swift-distributed-tracing's `LegacyTracer`), so forwarding it is no warning.
    @available(*, deprecated, message: "Tracer.forceFlush() is deprecated")
    func forceFlush() {
        backend.forceFlush()
    }

    /// Writes the context's span as the backend propagates it: a W3C `traceparent` header.
    func inject<Carrier, Inject: Injector>(
        _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        backend.inject(context, into: &carrier, using: injector)
    }

    /// Reads a propagated span into the context, as the backend does.
    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        backend.extract(carrier, into: &context, using: extractor)
    }

    /// The W3C identity of the context's span, read from the `traceparent` the backend writes for it:
    /// swift-otel keeps its span context to itself, but propagates it.
    private func identity(of context: InstrumentationContext) -> TraceContext? {
        var headers: [String: String] = [:]
        backend.inject(context, into: &headers, using: HeaderDictionaryInjector())
        return headers["traceparent"].flatMap(TraceContext.init(traceparent:))
    }
}

/// Writes propagated fields into a dictionary.
private struct HeaderDictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}
#endif
