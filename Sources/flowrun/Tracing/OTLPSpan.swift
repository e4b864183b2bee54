#if OTLP
import Tracing

/// A span of an ``OTLPTracer``: swift-otel's span, which is exported, and its `--trace-out` twin, if any,
/// told exactly the same things.
final class OTLPSpan<Backend: Span>: Span {
    /// swift-otel's span.
    let backend: Backend
    /// The span's twin in the JSON lines file.
    let mirror: JSONLinesSpan?

    init(backend: Backend, mirror: JSONLinesSpan?) {
        self.backend = backend
        self.mirror = mirror
    }

    /// The backend's context, which carries the span to its children and to requests.
    var context: InstrumentationContext { backend.context }

    /// The span's name.
    var operationName: String {
        get { backend.operationName }
        set {
            backend.operationName = newValue
            mirror?.operationName = newValue
        }
    }

    /// The span's attributes.
    var attributes: SpanAttributes {
        get { backend.attributes }
        set {
            backend.attributes = newValue
            mirror?.attributes = newValue
        }
    }

    /// Whether the span still records.
    var isRecording: Bool { backend.isRecording }

    /// Sets the status of both spans.
    func setStatus(_ status: SpanStatus) {
        backend.setStatus(status)
        mirror?.setStatus(status)
    }

    /// Adds an event to both spans.
    func addEvent(_ event: SpanEvent) {
        backend.addEvent(event)
        mirror?.addEvent(event)
    }

    /// Records an error as the same `exception` event in both spans (see ``Tracing/SpanEvent/exception(for:attributes:at:)``).
    func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        addEvent(.exception(for: error, attributes: attributes, at: instant()))
    }

    /// Adds a link to the exported span; the JSON lines format has none.
    func addLink(_ link: SpanLink) {
        backend.addLink(link)
    }

    /// Ends both spans at the same instant.
    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let end = instant()
        backend.end(at: end)
        mirror?.end(at: end)
    }
}
#endif
