/// How the bytes of a body become the value that bindings read: the four built-in readings.
///
/// A response is read by its `Content-Type` (``init(contentType:)``) unless the
/// step says otherwise with `parse: json | text | form | bytes`:
///
/// | Format | Content types | Value |
/// |---|---|---|
/// | ``json`` | `application/json`, `*/*+json` | the JSON document |
/// | ``text`` | `text/*` | a string, decoded by the `charset` parameter (UTF-8 by default) |
/// | ``form`` | `application/x-www-form-urlencoded` | an object of strings (a repeated name: an array of strings) |
/// | ``bytes`` | anything else | `{ contentType, length, base64 }` |
///
/// A body without a `Content-Type` is JSON when it parses as JSON, else text when it is
/// UTF-8, else bytes. An empty body is `null` as JSON or without a `Content-Type`, `""` as
/// text and `{}` as a form.
///
/// ```swift
/// let value = try BodyFormat.read([0x68, 0x69], contentType: "text/plain")  // .string("hi")
/// ```
public enum BodyFormat: String, Sendable, Hashable, CaseIterable {
    /// A JSON document.
    case json
    /// Text, as one string.
    case text
    /// Form fields (`application/x-www-form-urlencoded`), as an object of strings.
    case form
    /// Any bytes, as an object `{ contentType, length, base64 }`.
    case bytes

    /// The media type a body without a `Content-Type` is assumed to have when it is read as bytes.
    public static let defaultBytesContentType = "application/octet-stream"

    /// The format a `Content-Type` calls for.
    /// - Parameter contentType: The header value, parameters included; `nil` or empty when there is none.
    /// - Returns: The format, or `nil` when there is no content type to go by.
    public init?(contentType: String?) {
        // Every response passes here: the usual spellings are one comparison; the rest compares the bytes in place,
        // with no string made.
        guard let contentType else { return nil }
        if contentType == "application/json" || contentType == "application/json; charset=utf-8" {
            self = .json
            return
        }
        var utf8 = contentType.utf8[...]
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if let semicolon = utf8.firstIndex(of: UInt8(ascii: ";")) { utf8 = utf8[..<semicolon] }
        while let first = utf8.first, isSpace(first) { utf8 = utf8.dropFirst() }
        while let last = utf8.last, isSpace(last) { utf8 = utf8.dropLast() }
        guard !utf8.isEmpty else { return nil }
        func equalsIgnoringCase(_ bytes: Substring.UTF8View, _ lowercase: StaticString) -> Bool {
            guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
            return lowercase.withUTF8Buffer { expected in
                zip(bytes, expected).allSatisfy { byte, lower in
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == lower : byte == lower
                }
            }
        }
        if equalsIgnoringCase(utf8, "application/json")
            || (utf8.count > 5 && equalsIgnoringCase(utf8.suffix(5), "+json"))
        {
            self = .json
        } else if utf8.count > 5 && equalsIgnoringCase(utf8.prefix(5), "text/") {
            self = .text
        } else if equalsIgnoringCase(utf8, "application/x-www-form-urlencoded") {
            self = .form
        } else {
            self = .bytes
        }
    }

    /// Reads `bytes` by their content type: the format it calls for, or, without one, JSON when the bytes
    /// parse, else text when they are UTF-8, else bytes.
    /// - Parameters:
    ///   - bytes: The body.
    ///   - contentType: The body's `Content-Type`, if any.
    /// - Returns: The value (for an empty body, see ``read(_:contentType:)-(_,_)``; `null` without a content type).
    /// - Throws: ``BodyFormat/Failure`` when the content type says JSON and the bytes are not JSON.
    public static func read(_ bytes: [UInt8], contentType: String?) throws(Failure) -> JSONValue {
        try readChoosing(bytes, contentType: contentType).value
    }

    /// ``read(_:contentType:)``, also saying which format it read the bytes in.
    static func readChoosing(_ bytes: [UInt8], contentType: String?) throws(Failure)
        -> (value: JSONValue, format: BodyFormat)
    {
        if let format = BodyFormat(contentType: contentType) {
            return (try format.read(bytes, contentType: contentType), format)
        }
        if bytes.isEmpty { return (.null, .json) }
        if let value = try? JSONValue(parsing: bytes) { return (value, .json) }
        if let text = String(validating: bytes, as: UTF8.self) { return (.string(text), .text) }
        return (BodyFormat.bytes.bytesValue(bytes, contentType: contentType), .bytes)
    }

    /// Reads `bytes` in this format, whatever their content type says.
    /// - Parameters:
    ///   - bytes: The body.
    ///   - contentType: The body's `Content-Type`: its `charset` decodes text, and bytes report it.
    /// - Returns: The value: for an empty body `null` as JSON, `""` as text, `{}` as a form.
    /// - Throws: ``BodyFormat/Failure`` when the format is ``json`` and the bytes are not JSON.
    public func read(_ bytes: [UInt8], contentType: String?) throws(Failure) -> JSONValue {
        switch self {
        case .json:
            if bytes.isEmpty { return .null }
            do {
                return try JSONValue(parsing: bytes)
            } catch {
                throw Failure(message: "\(error)")
            }
        case .text:
            return .string(Self.text(bytes, contentType: contentType))
        case .form:
            var fields: [String: [String]] = [:]
            var order: [String] = []
            for (name, value) in URLEncoding.parseQuery(Self.text(bytes, contentType: contentType)) {
                if fields[name] == nil { order.append(name) }
                fields[name, default: []].append(value)
            }
            var object: [String: JSONValue] = [:]
            for name in order {
                let values = fields[name] ?? []
                object[name] = values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
            }
            return .object(object)
        case .bytes:
            return bytesValue(bytes, contentType: contentType)
        }
    }

    /// The value of a body read as bytes: `{ contentType, length, base64 }`.
    private func bytesValue(_ bytes: [UInt8], contentType: String?) -> JSONValue {
        let type = contentType.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultBytesContentType
        return .object([
            "contentType": .string(type), "length": .int(bytes.count), "base64": .string(Base64.encode(bytes)),
        ])
    }

    /// Why a body could not be read as JSON.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the JSON, such as "line 1, column 2: expected a value".
        public var message: String

        /// Creates a failure.
        /// - Parameter message: What is wrong.
        public init(message: String) { self.message = message }

        /// The message.
        public var description: String { message }
    }

    // MARK: Content types

    /// The media type of a `Content-Type` value, lower-cased, without parameters: `text/plain`.
    /// - Parameter contentType: The header value.
    /// - Returns: The media type, or `nil` when the value is missing or empty.
    public static func mediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let trimmed = type.trimmingWhitespace().lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A parameter of a `Content-Type` value, such as `charset` or `boundary`, unquoted.
    /// - Parameters:
    ///   - name: The parameter's name, compared case-insensitively.
    ///   - contentType: The header value.
    /// - Returns: The parameter's value, or `nil` when it is not there.
    public static func parameter(_ name: String, of contentType: String?) -> String? {
        guard let contentType else { return nil }
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == name.lowercased() else { continue }
            var value = pair[1].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    /// `bytes` as text in the content type's charset: ISO-8859-1 byte by byte, anything else as UTF-8
    /// (ill-formed sequences become U+FFFD).
    static func text(_ bytes: [UInt8], contentType: String?) -> String {
        switch parameter("charset", of: contentType)?.lowercased() {
        case "iso-8859-1", "latin1", "latin-1", "l1":
            var text = ""
            text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return text
        default:
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
