import Foundation

/// Standard base64 (RFC 4648 §4, with padding), for `Authorization: Basic`.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// `bytes` in base64 without the `=` padding, its characters each swapped by `swap` (base64url's alphabet).
    ///
    /// Base64 is ASCII, so the work is done on its bytes: a `Character` costs a grapheme-boundary check, a hundred
    /// instructions per character of a token, and a run computes its secrets' forms at its start.
    static func encodeUnpadded(_ bytes: [UInt8], swap: (UInt8) -> UInt8 = { $0 }) -> String {
        var encoded = Array(encode(bytes).utf8)
        while encoded.last == UInt8(ascii: "=") { encoded.removeLast() }
        for index in encoded.indices { encoded[index] = swap(encoded[index]) }
        return String(decoding: encoded, as: UTF8.self)
    }
}

/// Base64url (RFC 4648 §5) without padding, as JOSE uses it; decoding also accepts padding.
///
/// Foundation's base64 does the work; this only swaps the two alphabet characters and the padding.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Base64.encodeUnpadded(bytes) { byte in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            default: byte
            }
        }
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
