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
    package func evaluate(_ lookup: (RuntimeExpression) throws -> JSONValue) rethrows -> JSONValue {
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
    package func evaluate(_ lookup: (RuntimeExpression) throws -> JSONValue) rethrows -> String {
        var text = ""
        for segment in segments {
            switch segment {
            case .literal(let literal): text += literal
            case .expression(let expression, _): text += try lookup(expression).interpolationText
            }
        }
        return text
    }
}

extension JSONValue {
    /// The value as it is inserted into text: a string as it is, a number in its shortest form (`1000`, not
    /// `1000.0`), any other value as compact JSON.
    var interpolationText: String {
        switch self {
        case .string(let text): return text
        case .double(let double): return JSONValue.numberText(double)
        default: return serialized()
        }
    }
}
