/// Names a character for a message, so an error says what it found: "a NUL byte (U+0000)", "a line feed
/// (U+000A)", "'x'".
enum CharacterName {
    /// A short description of `scalar`, with its code point when it is not printable ASCII.
    /// - Parameter scalar: The character found.
    /// - Returns: Such as "a carriage return (U+000D)", "a space (U+0020)" or "'é' (U+00E9)".
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let name: String? =
            switch scalar.value {
            case 0x00: "a NUL byte"
            case 0x09: "a tab"
            case 0x0A: "a line feed"
            case 0x0D: "a carriage return"
            case 0x20: "a space"
            case 0x7F: "a DEL character"
            case 0x01..<0x20, 0x80..<0xA0: "a control character"
            default: nil
            }
        if let name { return "\(name) (\(code))" }
        if scalar.isASCII { return "'\(scalar)'" }
        return "'\(scalar)' (\(code))"
    }
}
