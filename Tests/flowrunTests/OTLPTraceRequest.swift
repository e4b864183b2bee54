#if OTLP
/// The spans of an OTLP/HTTP `ExportTraceServiceRequest`, read straight from its protobuf bytes.
///
/// swift-otel keeps its generated OTLP types to itself, so the tests read the wire format themselves, and only
/// the fields they check (opentelemetry/proto/trace/v1/trace.proto): an independent reading of what was sent.
struct OTLPTraceRequest {
    /// One exported span.
    struct Span {
        /// The trace id, in lowercase hex.
        var traceID = ""
        /// The span id, in lowercase hex.
        var spanID = ""
        /// The parent's span id, or `nil` for a root span.
        var parentSpanID: String?
        /// The span's name.
        var name = ""
        /// The kind: 1 internal, 3 client.
        var kind = 0
        /// The string and integer attributes, integers written in decimal.
        var attributes: [String: String] = [:]
        /// The status code: 0 unset, 1 ok, 2 error.
        var statusCode = 0
        /// The events' names.
        var events: [String] = []
    }

    /// The resource attributes of each `ResourceSpans`, such as `service.name`.
    var resources: [[String: String]] = []
    /// Every span of the request.
    var spans: [Span] = []

    /// Bytes that are not a well-formed protobuf message.
    struct Malformed: Error {}

    /// Reads a request body.
    init(_ bytes: [UInt8]) throws {
        for resourceSpans in try Self.fields(bytes[...]) where resourceSpans.number == 1 {
            for field in try Self.fields(try resourceSpans.bytes()) {
                switch field.number {
                case 1:  // resource
                    resources.append(try Self.attributes(try Self.fields(try field.bytes()).filter { $0.number == 1 }))
                case 2:  // scope_spans
                    for scopeField in try Self.fields(try field.bytes()) where scopeField.number == 2 {
                        spans.append(try Self.span(try scopeField.bytes()))
                    }
                default: continue
                }
            }
        }
    }

    private static func span(_ bytes: ArraySlice<UInt8>) throws -> Span {
        var span = Span()
        var attributeFields: [Field] = []
        for field in try fields(bytes) {
            switch field.number {
            case 1: span.traceID = hex(try field.bytes())
            case 2: span.spanID = hex(try field.bytes())
            case 4: span.parentSpanID = try field.bytes().isEmpty ? nil : hex(try field.bytes())
            case 5: span.name = String(decoding: try field.bytes(), as: UTF8.self)
            case 6: span.kind = Int(try field.varint())
            case 9: attributeFields.append(field)
            case 11:  // events: name is field 2
                let name = try fields(try field.bytes()).first { $0.number == 2 }
                span.events.append(String(decoding: try name?.bytes() ?? [], as: UTF8.self))
            case 15:  // status: code is field 3
                span.statusCode = Int(try fields(try field.bytes()).first { $0.number == 3 }?.varint() ?? 0)
            default: continue
            }
        }
        span.attributes = try attributes(attributeFields)
        return span
    }

    /// `KeyValue` messages: key (1) and an `AnyValue` (2) holding a string (1), bool (2) or int (3).
    private static func attributes(_ keyValues: [Field]) throws -> [String: String] {
        var attributes: [String: String] = [:]
        for keyValue in keyValues {
            var key = ""
            var value = ""
            for field in try fields(try keyValue.bytes()) {
                if field.number == 1 { key = String(decoding: try field.bytes(), as: UTF8.self) }
                if field.number == 2, let any = try fields(try field.bytes()).first {
                    switch any.number {
                    case 1: value = String(decoding: try any.bytes(), as: UTF8.self)
                    case 2: value = try any.varint() == 0 ? "false" : "true"
                    case 3: value = String(Int64(bitPattern: try any.varint()))
                    default: value = "<field \(any.number)>"
                    }
                }
            }
            attributes[key] = value
        }
        return attributes
    }

    /// One field of a message: its number and its wire value.
    private struct Field {
        enum Value {
            case varint(UInt64)
            case bytes(ArraySlice<UInt8>)
            case fixed(UInt64)
        }

        var number: Int
        var value: Value

        func bytes() throws -> ArraySlice<UInt8> {
            guard case .bytes(let bytes) = value else { throw Malformed() }
            return bytes
        }

        func varint() throws -> UInt64 {
            guard case .varint(let number) = value else { throw Malformed() }
            return number
        }
    }

    /// The fields of a message, in order.
    private static func fields(_ bytes: ArraySlice<UInt8>) throws -> [Field] {
        var fields: [Field] = []
        var index = bytes.startIndex
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < bytes.endIndex, shift < 64 else { throw Malformed() }
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
        }
        func fixed(_ size: Int) throws -> UInt64 {
            guard bytes.endIndex - index >= size else { throw Malformed() }
            defer { index += size }
            return bytes[index..<index + size].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        while index < bytes.endIndex {
            let key = try varint()
            let number = Int(key >> 3)
            switch key & 7 {
            case 0: fields.append(Field(number: number, value: .varint(try varint())))
            case 1: fields.append(Field(number: number, value: .fixed(try fixed(8))))
            case 2:
                let length = Int(try varint())
                guard length >= 0, bytes.endIndex - index >= length else { throw Malformed() }
                fields.append(Field(number: number, value: .bytes(bytes[index..<index + length])))
                index += length
            case 5: fields.append(Field(number: number, value: .fixed(try fixed(4))))
            default: throw Malformed()
            }
        }
        return fields
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
#endif
