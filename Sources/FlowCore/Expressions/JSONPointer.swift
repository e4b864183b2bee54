/// An RFC 6901 JSON pointer: a path of reference tokens into a JSON document.
///
/// Runtime expressions use pointers after `#` to read a part of a value, as in
/// `$response.body#/data/0/id` or `$steps.user.outputs.profile#/address/city`.
///
/// A pointer is written as the empty string, which refers to the whole document, or as a
/// sequence of `/`-prefixed reference tokens. Inside a token, `~1` stands for `/` and `~0`
/// for `~`; ``tokens`` holds the unescaped tokens and ``description`` escapes them again,
/// so parsing a pointer and printing it gives back the same text.
///
/// ```swift
/// let pointer = try JSONPointer(parsing: "/a~1b/m~0n")
/// pointer.tokens        // ["a/b", "m~n"]
/// pointer.description   // "/a~1b/m~0n"
/// ```
///
/// Inside an embedded expression such as `"{$response.body#/a}"` the first `}` ends the
/// expression, so a pointer written there cannot contain `}`; a whole-value expression
/// (`$response.body#/a}b`) can.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first; empty for the whole document.
    public var tokens: [String]

    /// Creates a pointer from unescaped reference tokens.
    ///
    /// - Parameter tokens: The reference tokens, outermost first, without `~0`/`~1` escapes.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the text of a pointer, such as `/data/0/id`.
    ///
    /// The text must be empty or start with `/`, and every `~` must be followed by `0` or `1`.
    ///
    /// - Parameter text: The pointer in its JSON string representation (RFC 6901 section 5),
    ///   without a leading `#`.
    /// - Throws: ``ExpressionSyntaxError`` whose offset, in Unicode scalars from the start of
    ///   `text`, points at the first `/` that is missing or at the `~` that is not followed by
    ///   `0` or `1`.
    package init(parsing text: String) throws(ExpressionSyntaxError) {
        var text = text
        let result: Result<[String], ExpressionSyntaxError> = text.withUTF8 { Self.parse($0) }
        self.tokens = try result.get()
    }

    /// Parses the text of a pointer, such as `/data/0/id`, from a substring.
    ///
    /// - Parameter text: The pointer in its JSON string representation, without a leading `#`.
    /// - Throws: ``ExpressionSyntaxError`` whose offset, in Unicode scalars from the start of
    ///   `text`, points at the offending character.
    package init(parsing text: Substring) throws(ExpressionSyntaxError) {
        var text = text
        let result: Result<[String], ExpressionSyntaxError> = text.withUTF8 { Self.parse($0) }
        self.tokens = try result.get()
    }

    /// The pointer's text, with `~` written as `~0` and `/` as `~1` inside tokens.
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            for scalar in token.unicodeScalars {
                switch scalar {
                case "~": text.append("~0")
                case "/": text.append("~1")
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        return text
    }

    /// Returns the part of a value that the pointer refers to.
    ///
    /// Each token selects an object member by name, or an array element by index. An index is
    /// `0` or a decimal number without leading zeros; `-` (RFC 6901's "past the end" element)
    /// and any index out of bounds never resolve. A token applied to a scalar does not resolve.
    ///
    /// - Parameter value: The document to look into.
    /// - Returns: The referenced value, or `nil` when some token does not resolve.
    public func resolve(in value: JSONValue) -> JSONValue? {
        var current = value
        for token in tokens {
            switch current {
            case .object(let members):
                guard let member = members.value(forFewKeys: token) else { return nil }
                current = member
            case .array(let elements):
                guard let index = Self.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The array index a token denotes: `0`, or digits without a leading zero that fit in an `Int`.
    static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
        var index = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = index.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            index = sum
        }
        return index
    }

    /// Parses a whole UTF-8 buffer as a pointer, turning byte offsets into scalar offsets.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[String], ExpressionSyntaxError> {
        do throws(ExpressionParser.Failure) {
            return .success(try parseTokens(bytes, from: 0, to: bytes.count))
        } catch {
            return .failure(error.syntaxError(in: bytes))
        }
    }

    /// Parses the pointer in `bytes[from..<to]`.
    ///
    /// The expression parser calls this directly on the text after `#`, so an error's index is
    /// a byte index into the whole buffer.
    static func parseTokens(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        to end: Int
    ) throws(ExpressionParser.Failure) -> [String] {
        guard start < end else { return [] }
        guard bytes[start] == UInt8(ascii: "/") else {
            throw ExpressionParser.Failure(
                "invalid JSON pointer: a pointer must be empty or start with '/'",
                at: start
            )
        }
        var tokens: [String] = []
        var tokenStart = start + 1
        var hasEscape = false
        var index = tokenStart
        while true {
            if index == end || bytes[index] == UInt8(ascii: "/") {
                let range = tokenStart..<index
                tokens.append(hasEscape ? unescape(bytes, range) : String(decoding: bytes[range], as: UTF8.self))
                if index == end { return tokens }
                index += 1
                tokenStart = index
                hasEscape = false
            } else if bytes[index] == UInt8(ascii: "~") {
                guard index + 1 < end, bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1")
                else {
                    throw ExpressionParser.Failure("invalid JSON pointer: '~' must be followed by 0 or 1", at: index)
                }
                hasEscape = true
                index += 2
            } else {
                index += 1
            }
        }
    }

    /// Decodes a token that contains `~0`/`~1` escapes (already validated).
    ///
    /// Decoding left to right turns `~01` into `~1`, as RFC 6901 requires, rather than `/`.
    private static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "~") {
                decoded.append(bytes[index + 1] == UInt8(ascii: "0") ? UInt8(ascii: "~") : UInt8(ascii: "/"))
                index += 2
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
