import FlowCore
import Tracing

extension SpanEvent {
    /// The `exception` event a span records for `error`, whichever tracer made the span.
    ///
    /// A ``FlowCore/FlowError`` is named by its code (`transport`, `timeout`, …) and described by its
    /// message, which the engine has already redacted; any other error by its type and description.
    /// `--trace-out` and `--otlp-endpoint` record the same event, so the two traces of a run say the same.
    /// - Parameters:
    ///   - error: The error.
    ///   - attributes: Attributes the caller adds.
    ///   - instant: When it happened.
    static func exception<Instant: TracerInstant>(
        for error: any Error, attributes: SpanAttributes, at instant: Instant
    ) -> SpanEvent {
        var all = attributes
        if let error = error as? FlowError {
            all["exception.type"] = error.code.name
            all["exception.message"] = error.description
        } else {
            all["exception.type"] = String(reflecting: type(of: error))
            all["exception.message"] = String(describing: error)
        }
        return SpanEvent(name: "exception", at: instant, attributes: all)
    }
}
