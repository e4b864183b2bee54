extension JSONValue {
    /// Parses a JSON text (RFC 8259) from UTF-8 bytes.
    ///
    /// The parser is strict, because it decides whether a response body is the
    /// JSON a step declares: it refuses trailing content after the value,
    /// comments, trailing commas, single quotes, `NaN` and `Infinity`, numbers
    /// with leading zeros or a bare `.`, unescaped control characters in
    /// strings, unpaired UTF-16 surrogates in `\u` escapes, invalid UTF-8, and
    /// numbers with a fraction or exponent too large for a `Double`, and an object
    /// with the same key twice (parsers disagree on which value such an object
    /// holds). A leading UTF-8 byte order mark is skipped, as RFC 8259 permits.
    ///
    /// A number without a fraction or exponent becomes ``int(_:)`` when it fits
    /// in an `Int`, and ``bigInteger(_:)``, its exact digits, otherwise; any other
    /// number becomes ``double(_:)``.
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: response.body)
    /// let id = value.objectValue?["userId"]?.stringValue
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 encoded text. Contiguous collections (`[UInt8]`, `String.UTF8View`) are read
    ///     in place; others are copied first.
    ///   - maxDepth: The deepest nesting of arrays and objects accepted; a top-level array is at depth 1.
    /// - Throws: A ``JSONSyntaxError`` saying what is wrong and where.
    public init(parsing bytes: some Collection<UInt8>, maxDepth: Int = 256) throws(JSONSyntaxError) {
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONSyntaxError> in
            var parser = JSONParser(buffer, maxDepth: maxDepth)
            return Result { () throws(JSONSyntaxError) in try parser.parseDocument() }
        }
        let result = bytes.withContiguousStorageIfAvailable(parse) ?? Array(bytes).withUnsafeBufferPointer(parse)
        self = try result.get()
    }
}

/// A recursive-descent JSON parser over a byte buffer.
///
/// Strings without escapes, the common case, are scanned once and turned into
/// a `String` straight from the input; only strings with escapes go through a
/// scratch buffer. Line and column are computed only when an error is thrown.
private struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var index = 0
    private var depth = 0
    /// Reused for strings with escapes, so that parsing them does not allocate per string.
    private var scratch: [UInt8] = []
    /// The elements of the arrays being parsed, innermost last; each array is built once at its `]` with its
    /// exact size, rather than grown element by element.
    private var elementStack: [JSONValue] = []
    /// The members of the objects being parsed, innermost last, with the offset of each key; each dictionary is
    /// built once at its `}` with its final capacity, so it is never rehashed while it grows.
    private var memberStack: [(key: String, value: JSONValue, offset: Int)] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue(inside: nil)
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describe(at: index)) after the JSON value")
        }
        return value
    }

    // MARK: Values

    /// Parses the value that starts at `index`.
    /// - Parameter container: "an array" or "an object" when the value is an element or member, for messages.
    private mutating func parseValue(inside container: String?) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else {
            throw error("unexpected end of input" + (container.map { " inside \($0)" } ?? "; expected a JSON value"))
        }
        switch bytes[index] {
        case .openBrace: return try parseObject()
        case .openBracket: return try parseArray()
        case .quote: return .string(try parseString())
        case .minus, .zero ... .nine: return try parseNumber()
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("unexpected \(describe(at: index)); NaN and Infinity are not JSON")
        case UInt8(ascii: "+"):
            throw error("unexpected '+'; a JSON number has no plus sign")
        case UInt8(ascii: "'"):
            throw error("unexpected \"'\"; JSON strings use double quotes")
        case UInt8(ascii: "."):
            throw error("unexpected '.'; a JSON number starts with a digit")
        default:
            throw error("unexpected \(describe(at: index)); expected a JSON value")
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let start = index
        for offset in 0..<word.utf8CodeUnitCount {
            guard start + offset < bytes.count else {
                index = start + offset
                throw error("unexpected end of input inside the literal '\(word)'")
            }
            guard bytes[start + offset] == word.utf8Start[offset] else {
                index = start
                throw error("invalid literal; expected '\(word)'")
            }
        }
        index = start + word.utf8CodeUnitCount
        return value
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == .closeBracket {
            index += 1
            depth -= 1
            return .array([])
        }
        let start = elementStack.count
        while true {
            let element = try parseValue(inside: "an array")
            elementStack.append(element)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an array") }
            switch bytes[index] {
            case .comma:
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == .closeBracket { throw error("trailing comma in an array") }
            case .closeBracket:
                index += 1
                depth -= 1
                let elements = Array(elementStack[start...])
                elementStack.removeSubrange(start...)
                return .array(elements)
            default:
                throw error("expected ',' or ']' after an array element")
            }
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == .closeBrace {
            index += 1
            depth -= 1
            return .object([:])
        }
        let start = memberStack.count
        while true {
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            guard bytes[index] == .quote else {
                throw error(bytes[index] == .closeBrace
                    ? "trailing comma in an object"
                    : "expected a string key in an object, found \(describe(at: index))")
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            guard bytes[index] == .colon else { throw error("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue(inside: "an object")
            memberStack.append((key, value, keyOffset))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            switch bytes[index] {
            case .comma:
                index += 1
                skipWhitespace()
            case .closeBrace:
                index += 1
                depth -= 1
                var members: [String: JSONValue] = Dictionary(minimumCapacity: memberStack.count - start)
                for (key, value, _) in memberStack[start...] { members[key] = value }
                if members.count < memberStack.count - start { try refuseDuplicateKey(from: start) }
                memberStack.removeSubrange(start...)
                return .object(members)
            default:
                throw error("expected ',' or '}' after an object member")
            }
        }
    }

    /// Throws for the first key of the object whose members start at `start` in ``memberStack`` that repeats an
    /// earlier key: parsers disagree on which of the two values such an object holds, so it has none.
    private mutating func refuseDuplicateKey(from start: Int) throws(JSONSyntaxError) {
        var firstOffsets: [String: Int] = [:]
        for (key, _, offset) in memberStack[start...] {
            if let first = firstOffsets[key] {
                let (line, column) = position(of: first)
                index = offset
                let shown = JSONValue.string(key.count > 40 ? String(key.prefix(40)) + "…" : key).serialized()
                throw error(
                    "duplicate key \(shown) in an object (first at line \(line), column \(column)); "
                        + "which value such an object holds depends on the parser")
            }
            firstOffsets[key] = offset
        }
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > maxDepth {
            throw error("arrays and objects are nested deeper than \(maxDepth) levels, the nesting limit for JSON")
        }
    }

    // MARK: Strings

    /// Parses the string whose opening quote is at `index`.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index + 1
        var end = start
        var nonASCII: UInt8 = 0
        // The fast path: most strings have no escapes, so scan to the closing quote and decode in place.
        while end < bytes.count {
            let byte = bytes[end]
            if byte == .quote || byte == .backslash || byte < 0x20 { break }
            nonASCII |= byte
            end += 1
        }
        guard end < bytes.count else {
            index = end
            throw error("unexpected end of input inside a string")
        }
        if bytes[end] == .quote {
            index = end + 1
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if nonASCII < 0x80 { return String(decoding: slice, as: UTF8.self) }
            guard let string = String(validating: slice, as: UTF8.self) else {
                index = start
                throw error("invalid UTF-8 in a string")
            }
            return string
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[start..<end])
        index = end
        return try parseEscapedString(start: start)
    }

    /// Continues a string at its first escape or control character, collecting bytes in `scratch`.
    private mutating func parseEscapedString(start: Int) throws(JSONSyntaxError) -> String {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case .quote:
                index += 1
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    index = start
                    throw error("invalid UTF-8 in a string")
                }
                return string
            case .backslash:
                try parseEscape()
            case ..<0x20:
                throw error("control character U+\(hex(UInt32(byte), width: 4)) must be escaped in a string")
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw error("unexpected end of input inside a string")
    }

    /// Parses the escape sequence whose backslash is at `index` and appends what it denotes to `scratch`.
    private mutating func parseEscape() throws(JSONSyntaxError) {
        guard index + 1 < bytes.count else {
            index += 1
            throw error("unexpected end of input inside a string")
        }
        let simple: UInt8
        switch bytes[index + 1] {
        case .quote: simple = .quote
        case .backslash: simple = .backslash
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            try parseUnicodeEscape()
            return
        default:
            throw error("invalid escape '\\\(describeCharacter(at: index + 1))' in a string")
        }
        scratch.append(simple)
        index += 2
    }

    /// Parses `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, at `index`.
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) {
        let escapeStart = index
        let unit = try hexQuad(at: index + 2)
        var scalarValue = UInt32(unit)
        index += 6
        switch unit {
        case 0xD800...0xDBFF:
            guard index + 1 < bytes.count, bytes[index] == .backslash, bytes[index + 1] == UInt8(ascii: "u"),
                case let low = try hexQuad(at: index + 2), (0xDC00...0xDFFF).contains(low)
            else {
                index = escapeStart
                throw error("unpaired surrogate \\u\(hex(UInt32(unit), width: 4)) in a string")
            }
            scalarValue = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            index += 6
        case 0xDC00...0xDFFF:
            index = escapeStart
            throw error("unpaired surrogate \\u\(hex(UInt32(unit), width: 4)) in a string")
        default:
            break
        }
        // Every value outside the surrogate range is a valid scalar.
        scratch.append(contentsOf: String(Unicode.Scalar(scalarValue)!).utf8)
    }

    /// Reads the four hex digits of a `\u` escape starting at `position`.
    private mutating func hexQuad(at position: Int) throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for offset in 0..<4 {
            guard position + offset < bytes.count else {
                index = position + offset
                throw error("unexpected end of input inside a string")
            }
            let byte = bytes[position + offset]
            let digit: UInt8
            switch byte {
            case .zero ... .nine: digit = byte - .zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                index = position + offset
                throw error("invalid \\u escape: expected 4 hex digits, found \(describe(at: index))")
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let negative = bytes[index] == .minus
        if negative { index += 1 }
        guard index < bytes.count, bytes[index].isDigit else {
            throw error(index < bytes.count ? "expected a digit after '-'" : "unexpected end of input inside a number")
        }
        // Accumulate negatively, so that Int.min parses without overflow.
        var integer = 0
        var overflow = false
        if bytes[index] == .zero {
            index += 1
            if index < bytes.count, bytes[index].isDigit { throw error("leading zeros are not allowed in numbers") }
        } else {
            while index < bytes.count, bytes[index].isDigit {
                if !overflow {
                    let (times10, o1) = integer.multipliedReportingOverflow(by: 10)
                    let (next, o2) = times10.subtractingReportingOverflow(Int(bytes[index] - .zero))
                    integer = next
                    overflow = o1 || o2
                }
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == .period {
            isInteger = false
            index += 1
            try digits("expected a digit after the decimal point")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == .plus || bytes[index] == .minus { index += 1 }
            try digits("expected a digit in the exponent")
        }
        if isInteger && !overflow {
            if negative { return .int(integer) }
            if integer != .min { return .int(-integer) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        // JSON integers have no size limit; one beyond 64 bits keeps its digits rather than being rounded.
        if isInteger { return .bigInteger(text) }
        guard let double = Double(text), double.isFinite else {
            index = start
            throw error("the number \(text) is too large for a double")
        }
        return .double(double)
    }

    /// Skips one or more digits, or throws `message`.
    private mutating func digits(_ message: String) throws(JSONSyntaxError) {
        guard index < bytes.count, bytes[index].isDigit else {
            throw error(index < bytes.count ? message : "unexpected end of input inside a number")
        }
        repeat { index += 1 } while index < bytes.count && bytes[index].isDigit
    }

    // MARK: Support

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case .space, .tab, .newline, .carriageReturn: index += 1
            default: return
            }
        }
    }

    /// An error at `index`, with its line and column.
    private func error(_ message: String) -> JSONSyntaxError {
        let (line, column) = position(of: index)
        return JSONSyntaxError(message: message, offset: index, line: line, column: column)
    }

    /// The one-based line and column (in Unicode scalars) of a byte offset.
    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == .newline {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes don't start a scalar.
                column += 1
            }
        }
        return (line, column)
    }

    /// "'x'" for a printable ASCII byte, "U+XXXX" for another scalar, "byte 0xXX" otherwise; for messages.
    private func describe(at position: Int) -> String {
        let byte = bytes[position]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "U+\(hex(UInt32(byte), width: 4))" }
        var iterator = bytes[position...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            return "U+\(hex(scalar.value, width: 4))"
        }
        return "byte 0x\(hex(UInt32(byte), width: 2))"
    }

    /// The character at `position` as written, for messages about escapes.
    private func describeCharacter(at position: Int) -> String {
        let byte = bytes[position]
        return (0x21...0x7E).contains(byte) ? String(Character(Unicode.Scalar(byte))) : describe(at: position)
    }

    private func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension UInt8 {
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let plus = UInt8(ascii: "+")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let minus = UInt8(ascii: "-")
    fileprivate static let period = UInt8(ascii: ".")
    fileprivate static let zero = UInt8(ascii: "0")
    fileprivate static let nine = UInt8(ascii: "9")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")

    fileprivate var isDigit: Bool { self >= .zero && self <= .nine }
}
