import FlowCore
import Synchronization
import Tracing

/// A span of a ``JSONLinesTracer``: collects its name, attributes, events and status, and hands
/// its JSON line to the tracer when it ends.
final class JSONLinesSpan: Span {
    /// The context that carries this span's ``TraceContext`` to its children and to requests.
    let context: InstrumentationContext
    /// The span's trace and span ids.
    let identity: TraceContext
    /// The parent's span id, or `nil` for the root of a trace.
    let parentSpanID: String?
    /// The span's kind.
    let kind: SpanKind

    private struct State {
        var operationName: String
        var attributes: SpanAttributes = [:]
        var events: [SpanEvent] = []
        var status: SpanStatus?
        var ended = false
    }

    private let start: UInt64
    private let state: Mutex<State>
    private let onEnd: @Sendable (String) -> Void

    init(
        operationName: String, context: InstrumentationContext, identity: TraceContext, parentSpanID: String?,
        kind: SpanKind, start: UInt64, onEnd: @escaping @Sendable (String) -> Void
    ) {
        self.context = context
        self.identity = identity
        self.parentSpanID = parentSpanID
        self.kind = kind
        self.start = start
        self.state = Mutex(State(operationName: operationName))
        self.onEnd = onEnd
    }

    /// The span's name.
    var operationName: String {
        get { state.withLock { $0.operationName } }
        set { state.withLock { $0.operationName = newValue } }
    }

    /// The span's attributes.
    var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { if !$0.ended { $0.attributes = newValue } } }
    }

    /// Whether the span still records, that is, has not ended.
    var isRecording: Bool { state.withLock { !$0.ended } }

    /// Sets the status; as in OpenTelemetry, `ok` is final.
    func setStatus(_ status: SpanStatus) {
        state.withLock { if !$0.ended, $0.status?.code != .ok { $0.status = status } }
    }

    /// Adds an event.
    func addEvent(_ event: SpanEvent) {
        state.withLock { if !$0.ended { $0.events.append(event) } }
    }

    /// Records an error as an `exception` event (see ``Tracing/SpanEvent/exception(for:attributes:at:)``).
    func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        addEvent(.exception(for: error, attributes: attributes, at: instant()))
    }

    /// Ignores links: the engine makes none.
    func addLink(_ link: SpanLink) {}

    /// Ends the span and writes its line; later calls do nothing.
    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let end = instant().nanosecondsSinceEpoch
        guard let finished = state.withLock({ state -> State? in
            guard !state.ended else { return nil }
            state.ended = true
            return state
        }) else { return }
        var status: JSONValue = ["code": "unset"]
        if let spanStatus = finished.status {
            status = ["code": spanStatus.code == .ok ? "ok" : "error"]
            if let message = spanStatus.message { status = ["code": "error", "message": .string(message)] }
        }
        let line: JSONValue = [
            "traceId": .string(identity.traceID),
            "spanId": .string(identity.spanID),
            "parentSpanId": parentSpanID.map(JSONValue.string) ?? .null,
            "name": .string(finished.operationName),
            "kind": .string(Self.name(of: kind)),
            "startTimeUnixNano": .string(String(start)),
            "endTimeUnixNano": .string(String(end)),
            "attributes": Self.json(finished.attributes),
            "status": status,
            "events": .array(finished.events.map { event in
                [
                    "name": .string(event.name),
                    "timeUnixNano": .string(String(event.nanosecondsSinceEpoch)),
                    "attributes": Self.json(event.attributes),
                ]
            }),
        ]
        onEnd(line.serialized())
    }

    private static func name(of kind: SpanKind) -> String {
        switch kind {
        case .server: "server"
        case .client: "client"
        case .producer: "producer"
        case .consumer: "consumer"
        case .internal: "internal"
        }
    }

    private static func json(_ attributes: SpanAttributes) -> JSONValue {
        var object: [String: JSONValue] = [:]
        attributes.forEach { name, value in object[name] = json(value) }
        return .object(object)
    }

    private static func json(_ attribute: SpanAttribute) -> JSONValue {
        switch attribute {
        case .int32(let value): .int(Int(value))
        case .int64(let value): .int(Int(value))
        case .int32Array(let values): .array(values.map { .int(Int($0)) })
        case .int64Array(let values): .array(values.map { .int(Int($0)) })
        case .double(let value): .double(value)
        case .doubleArray(let values): .array(values.map(JSONValue.double))
        case .bool(let value): .bool(value)
        case .boolArray(let values): .array(values.map(JSONValue.bool))
        case .string(let value): .string(value)
        case .stringArray(let values): .array(values.map(JSONValue.string))
        case .stringConvertible(let value): .string(value.description)
        case .stringConvertibleArray(let values): .array(values.map { .string($0.description) })
        default: .null
        }
    }
}
