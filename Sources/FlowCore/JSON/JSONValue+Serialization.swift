extension JSONValue {
    /// The value as JSON text, with object keys sorted so equal values always print the same.
    ///
    /// Integers print as written (`42`, and the digits of a ``bigInteger(_:)``); doubles print in the shortest form that
    /// reads back as the same `Double`, always with a fraction or exponent
    /// (`2.5`, `1.0`, `1e+30`), so that parsing the output gives back
    /// ``double(_:)`` rather than ``int(_:)``. `NaN` and the infinities, which JSON
    /// cannot represent, print as `null`. Strings escape `"`, `\` and the control
    /// characters, and keep every other character as UTF-8.
    ///
    /// ```swift
    /// JSONValue.object(["b": .int(1), "a": .array([.bool(true)])]).serialized()
    /// // {"a":[true],"b":1}
    /// ```
    ///
    /// - Parameter pretty: Whether to put each element and member on its own line, indented by two spaces.
    /// - Returns: The JSON text, without a trailing newline.
    public func serialized(pretty: Bool = false) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// The value as UTF-8 encoded JSON text, as ``serialized(pretty:)`` writes it.
    ///
    /// - Parameter pretty: Whether to put each element and member on its own line, indented by two spaces.
    /// - Returns: The bytes of the JSON text, ready to send as a request body.
    public func serializedBytes(pretty: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        write(to: &output, indent: pretty ? 0 : nil)
        return output
    }

    /// Appends the value's JSON text to `output`.
    /// - Parameters:
    ///   - output: Where to append.
    ///   - indent: The current nesting level when printing pretty, `nil` for compact output.
    private func write(to output: inout [UInt8], indent: Int?) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: bool ? "true".utf8 : "false".utf8)
        case .int(let int):
            output.append(contentsOf: String(int).utf8)
        case .bigInteger(let digits):
            output.append(contentsOf: digits.utf8)
        case .double(let double):
            output.append(contentsOf: double.isFinite ? double.description.utf8 : "null".utf8)
        case .string(let string):
            Self.writeString(string, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { return output.append(contentsOf: "[]".utf8) }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(to: &output, indent: indent.map { $0 + 1 })
                element.write(to: &output, indent: indent.map { $0 + 1 })
            }
            Self.newline(to: &output, indent: indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return output.append(contentsOf: "{}".utf8) }
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(to: &output, indent: indent.map { $0 + 1 })
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if indent != nil { output.append(UInt8(ascii: " ")) }
                member.value.write(to: &output, indent: indent.map { $0 + 1 })
            }
            Self.newline(to: &output, indent: indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The shortest text of a number, as it goes into a URL, a header or text: `1000` for 1000.0 and 1e3,
    /// `10.5`, `1e+21`. (A JSON body keeps `1.0` as written, so a value read from JSON serializes back equal.)
    /// `null` only for the infinities and NaN, which the compiler refuses in a workflow's values.
    static func numberText(_ double: Double) -> String {
        guard double.isFinite else { return "null" }
        // Integral values within the exactly representable range print without a fraction.
        if double.rounded(.towardZero) == double, abs(double) < 0x1p53 {
            return String(Int64(double))
        }
        return double.description
    }

    /// Starts a new line indented to `indent` levels, when printing pretty.
    private static func newline(to output: inout [UInt8], indent: Int?) {
        guard let indent else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Appends `string` as a quoted JSON string.
    private static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        // `withUTF8` makes a (rare) non-contiguous string contiguous once, so escaping is one pass over bytes.
        string.withUTF8 { bytes in
            var runStart = 0
            for (position, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                runStart = position + 1
                switch byte {
                case 0x22: output.append(contentsOf: #"\""#.utf8)
                case 0x5C: output.append(contentsOf: #"\\"#.utf8)
                case 0x0A: output.append(contentsOf: #"\n"#.utf8)
                case 0x0D: output.append(contentsOf: #"\r"#.utf8)
                case 0x09: output.append(contentsOf: #"\t"#.utf8)
                case 0x08: output.append(contentsOf: #"\b"#.utf8)
                case 0x0C: output.append(contentsOf: #"\f"#.utf8)
                default:
                    let hexDigits = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: #"\u00"#.utf8)
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, as ``serialized(pretty:)`` writes it: `print(value)` prints JSON.
    public var description: String { serialized() }
}
