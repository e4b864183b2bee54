extension ValueTemplate {
    /// Fills in the template, reading each expression's value through `lookup`.
    ///
    /// A whole-value expression is replaced by its value as it is, so `$inputs.count` stays an
    /// integer. In an interpolated string, string values are inserted as they are and every
    /// other value as compact JSON with sorted keys (`42`, `true`, `null`, `{"a":1}`).
    ///
    /// - Parameter lookup: Returns the value of one expression, including its pointer.
    /// - Returns: The filled-in JSON value.
    /// - Throws: Whatever `lookup` throws, such as an error for a value that does not exist.
    public func evaluate(_ lookup: (RuntimeExpression) throws -> JSONValue) rethrows -> JSONValue {
        switch self {
        case .literal(let value):
            return value
        case .expression(let expression, _):
            return try lookup(expression)
        case .string(let template, _):
            return .string(try template.evaluate(lookup))
        case .array(let elements):
            return .array(try elements.map { try $0.evaluate(lookup) })
        case .object(let members):
            var values: [String: JSONValue] = [:]
            values.reserveCapacity(members.count)
            for (key, member) in members { values[key] = try member.evaluate(lookup) }
            return .object(values)
        }
    }
}

extension StringTemplate {
    /// Fills in the template, reading each expression's value through `lookup`.
    ///
    /// String values are inserted as they are; every other value as compact JSON with sorted
    /// keys, so an integer `42` becomes `42` and `null` becomes `null`.
    ///
    /// - Parameter lookup: Returns the value of one expression, including its pointer.
    /// - Returns: The resulting text.
    /// - Throws: Whatever `lookup` throws.
    public func evaluate(_ lookup: (RuntimeExpression) throws -> JSONValue) rethrows -> String {
        var text = ""
        for segment in segments {
            switch segment {
            case .literal(let literal):
                text += literal
            case .expression(let expression, _):
                let value = try lookup(expression)
                if case .string(let string) = value {
                    text += string
                } else {
                    Self.appendCompactJSON(value, to: &text)
                }
            }
        }
        return text
    }

    /// Appends `value` as compact JSON with object keys sorted.
    ///
    /// Non-finite doubles, which JSON cannot represent, are written as `null`.
    static func appendCompactJSON(_ value: JSONValue, to text: inout String) {
        switch value {
        case .null:
            text += "null"
        case .bool(let bool):
            text += bool ? "true" : "false"
        case .int(let int):
            text += String(int)
        case .double(let double):
            text += double.isFinite ? "\(double)" : "null"
        case .string(let string):
            appendJSONString(string, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                appendCompactJSON(element, to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                appendJSONString(key, to: &text)
                text += ":"
                appendCompactJSON(members[key]!, to: &text)
            }
            text += "}"
        }
    }

    private static func appendJSONString(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
