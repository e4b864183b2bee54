import Tracing

/// The W3C Trace Context identity of a span: its trace id, span id and whether it is sampled.
///
/// `flowrun run --trace-out` keeps it in each span's `InstrumentationContext`, and sends it
/// with every request as the `traceparent` header
/// (`00-<32 hex trace id>-<16 hex span id>-<flags>`), so a server that reads the header
/// puts its own spans into the same trace.
struct TraceContext: Sendable, Hashable {
    /// The trace id: 32 lowercase hex digits, not all zero.
    var traceID: String
    /// The span id: 16 lowercase hex digits, not all zero.
    var spanID: String
    /// Whether the trace is sampled (flag `01`).
    var sampled = true

    /// The `traceparent` header value.
    var traceparent: String { "00-\(traceID)-\(spanID)-\(sampled ? "01" : "00")" }

    /// Creates a context.
    /// - Parameters:
    ///   - traceID: The trace id.
    ///   - spanID: The span id.
    ///   - sampled: Whether the trace is sampled.
    init(traceID: String, spanID: String, sampled: Bool = true) {
        self.traceID = traceID
        self.spanID = spanID
        self.sampled = sampled
    }

    /// Reads a `traceparent` header value; `nil` when it is malformed or its ids are all zero.
    ///
    /// Versions other than `00` are read by their first four fields, as the specification asks.
    /// - Parameter traceparent: The header value.
    init?(traceparent: String) {
        let fields = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count >= 4, fields[0].count == 2, fields[0] != "ff", Self.isHex(fields[0]),
            fields[0] != "00" || fields.count == 4,
            fields[1].count == 32, Self.isHex(fields[1]), fields[1].contains(where: { $0 != "0" }),
            fields[2].count == 16, Self.isHex(fields[2]), fields[2].contains(where: { $0 != "0" }),
            fields[3].count == 2, Self.isHex(fields[3]), let flags = UInt8(fields[3], radix: 16)
        else { return nil }
        self.init(traceID: String(fields[1]), spanID: String(fields[2]), sampled: flags & 1 == 1)
    }

    /// A new random trace id.
    static func randomTraceID() -> String { randomHex(bytes: 16) }

    /// A new random span id.
    static func randomSpanID() -> String { randomHex(bytes: 8) }

    private static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let values = (0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            guard values.contains(where: { $0 != 0 }) else { continue }
            return values.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    private static func isHex(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// The key of a span's ``TraceContext`` in an `InstrumentationContext`.
enum TraceContextKey: InstrumentationContextKey {
    typealias Value = TraceContext
    static let nameOverride: String? = "traceparent"
}

extension InstrumentationContext {
    /// The W3C identity of the span this context belongs to, if a ``JSONLinesTracer`` made it.
    var traceContext: TraceContext? {
        get { self[TraceContextKey.self] }
        set { self[TraceContextKey.self] = newValue }
    }
}
