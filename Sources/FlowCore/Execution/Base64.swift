import Foundation

/// Standard base64 (RFC 4648 §4, with padding), for `Authorization: Basic`.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}

/// Base64url (RFC 4648 §5) without padding, as JOSE uses it; decoding also accepts padding.
///
/// Foundation's base64 does the work; this only swaps the two alphabet characters and the padding.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Base64.encode(bytes)
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// The bytes of `text`, or `nil` when it is not base64url (the standard alphabet's `+` and `/` are refused).
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for character in text {
            switch character {
            case "+", "/": return nil
            case "-": standard.append("+")
            case "_": standard.append("/")
            default: standard.append(character)
            }
        }
        if standard.utf8.count % 4 != 0 && !standard.hasSuffix("=") {
            standard += String(repeating: "=", count: 4 - standard.utf8.count % 4)
        }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
