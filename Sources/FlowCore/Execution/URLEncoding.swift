/// Percent-encoding for the parts of a URL and for form bodies, without Foundation.
///
/// The engine encodes every value it binds into a request path or query with
/// these functions, so a user id of `a/b?c` cannot change which resource a
/// step calls. Dispatchers and test doubles use the decoding side to read a
/// request's path and query back.
///
/// Encoding works on the UTF-8 bytes of the text and writes upper-case hex
/// digits (`%2F`), as RFC 3986 recommends.
///
/// ```swift
/// URLEncoding.percentEncodePathSegment("a/b c")           // "a%2Fb%20c"
/// URLEncoding.percentEncodeQueryComponent("x=1&y")        // "x%3D1%26y"
/// URLEncoding.formURLEncode([("q", "a b"), ("n", "1")])   // "q=a+b&n=1"
/// URLEncoding.parseQuery("q=a+b&tag=x&tag=y")             // [("q", "a b"), ("tag", "x"), ("tag", "y")]
/// ```
///
/// ## Choose between the query and form encodings
///
/// ``percentEncodeQueryComponent(_:)`` writes a space as `%20`, which every
/// server reads as a space. ``formURLEncode(_:)`` follows the
/// `application/x-www-form-urlencoded` rules of the WHATWG URL standard and
/// writes it as `+`; use it for form bodies, which is where servers expect `+`.
public enum URLEncoding {
    /// Percent-encodes `text` for use as one segment of a URL path.
    ///
    /// RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`), the sub-delimiters
    /// `! $ & ' ( ) * + , ; =`, `:` and `@` stay as they are; everything else,
    /// including `/`, `?`, `#`, `%` and space, is encoded.
    /// - Parameter text: The segment's value.
    /// - Returns: The encoded segment.
    public static func percentEncodePathSegment(_ text: some StringProtocol) -> String {
        encode(text, keeping: .pathSegment, spaceAsPlus: false)
    }

    /// Percent-encodes `text` for use as a name or value in a URL query.
    ///
    /// Only RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) stay as they
    /// are; everything else is encoded, a space as `%20` and `+` as `%2B`.
    /// - Parameter text: The name or value.
    /// - Returns: The encoded component.
    public static func percentEncodeQueryComponent(_ text: some StringProtocol) -> String {
        encode(text, keeping: .unreserved, spaceAsPlus: false)
    }

    /// Encodes name/value pairs as an `application/x-www-form-urlencoded` body or query.
    ///
    /// Letters, digits and `* - . _` stay as they are, a space becomes `+`, and
    /// everything else is percent-encoded, as the WHATWG URL standard specifies.
    /// Pairs keep their order, and a name may repeat.
    /// - Parameter pairs: The names and values, in order.
    /// - Returns: The encoded text, such as `grant_type=client_credentials&scope=a+b`.
    public static func formURLEncode(_ pairs: [(String, String)]) -> String {
        var output = ""
        for (position, pair) in pairs.enumerated() {
            if position > 0 { output += "&" }
            output += encode(pair.0, keeping: .form, spaceAsPlus: true)
            output += "="
            output += encode(pair.1, keeping: .form, spaceAsPlus: true)
        }
        return output
    }

    /// Decodes `%XX` escapes in `text`.
    ///
    /// A `%` that is not followed by two hex digits is kept as it is, and decoded
    /// bytes that are not valid UTF-8 become U+FFFD, so decoding never fails;
    /// this matches what browsers and most servers do.
    /// - Parameters:
    ///   - text: The encoded text.
    ///   - plusAsSpace: Whether `+` denotes a space, as in form-encoded text.
    /// - Returns: The decoded text.
    public static func percentDecode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Splits a raw URL query into decoded name/value pairs, in order.
    ///
    /// Pairs are separated by `&`; a pair without `=` has an empty value; empty
    /// pairs (`a=1&&b=2`) are skipped. Names and values are percent-decoded with
    /// `+` read as a space, since the query and form encodings both produce
    /// queries that decode correctly that way. A leading `?` is ignored.
    /// - Parameter raw: The query, as ``StepRequest/query`` returns it.
    /// - Returns: The pairs, with repeated names kept.
    public static func parseQuery(_ raw: String) -> [(String, String)] {
        let query = raw.hasPrefix("?") ? raw.dropFirst() : raw[...]
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (percentDecode(pair, plusAsSpace: true), "") }
            return (
                percentDecode(pair[..<equals], plusAsSpace: true),
                percentDecode(pair[pair.index(after: equals)...], plusAsSpace: true)
            )
        }
    }

    // MARK: Implementation

    /// Which bytes an encoder leaves as they are.
    private enum KeptSet {
        case unreserved, pathSegment, form

        func contains(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                return true
            case UInt8(ascii: "~"):
                return self != .form
            case UInt8(ascii: "*"):
                return self != .unreserved
            case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
                UInt8(ascii: ":"), UInt8(ascii: "@"):
                return self == .pathSegment
            default:
                return false
            }
        }
    }

    private static func encode(_ text: some StringProtocol, keeping kept: KeptSet, spaceAsPlus: Bool) -> String {
        let utf8 = text.utf8
        // A loop, not `allSatisfy(kept.contains)`: the partially applied method would be a closure to allocate.
        var needsEncoding = false
        for byte in utf8 where !kept.contains(byte) {
            needsEncoding = true
            break
        }
        guard needsEncoding else { return String(text) }
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if kept.contains(byte) {
                bytes.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
