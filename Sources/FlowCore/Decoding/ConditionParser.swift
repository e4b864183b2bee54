/// Parses `<runtime expression> <operator> <literal>`: `$statusCode >= 500`, `$response.body#/code == 'declined'`.
///
/// Literals are numbers, `true`, `false`, `null` and strings in single or
/// double quotes; a bare word is refused so that `== declined` is not read
/// as something else than intended.
enum ConditionParser {
    struct Failure: Error {
        var message: String
        /// Offset in Unicode scalars from the start of the text.
        var offset: Int
    }

    static func parse(_ text: String, at location: SourceLocation) throws(Failure) -> Condition {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count, scalars[index] == " " { index += 1 }
        let start = index
        guard index < scalars.count, scalars[index] == "$" else {
            throw Failure(message: "a condition starts with a runtime expression, such as $statusCode", offset: index)
        }
        // The expression runs to the first space or operator character.
        while index < scalars.count, !" =!<>".unicodeScalars.contains(scalars[index]) { index += 1 }
        let expressionText = String(String.UnicodeScalarView(scalars[start..<index]))
        let expression: RuntimeExpression
        do {
            expression = try ExpressionParser.parseExpression(expressionText)
        } catch {
            throw Failure(message: error.message, offset: start + error.offset)
        }
        while index < scalars.count, scalars[index] == " " { index += 1 }
        let operatorStart = index
        var operatorText = ""
        while index < scalars.count, "=!<>".unicodeScalars.contains(scalars[index]) {
            operatorText.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard let comparison = Condition.Operator(rawValue: operatorText) else {
            let found = operatorText.isEmpty ? "nothing" : "'\(operatorText)'"
            throw Failure(
                message: "expected a comparison (==, !=, <, <=, >, >=) after the expression, found \(found)",
                offset: operatorStart)
        }
        while index < scalars.count, scalars[index] == " " { index += 1 }
        let literalStart = index
        var end = scalars.count
        while end > literalStart, scalars[end - 1] == " " { end -= 1 }
        let literalText = String(String.UnicodeScalarView(scalars[literalStart..<end]))
        guard let literal = literal(literalText) else {
            throw Failure(
                message: "expected a literal after '\(operatorText)': a number, true, false, null or a quoted string "
                    + "('declined'), found '\(literalText)'",
                offset: literalStart)
        }
        return Condition(
            expression: expression, comparison: comparison, literal: literal, location: location.advanced(by: start))
    }

    private static func literal(_ text: String) -> JSONValue? {
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if let first = text.first, first == "'" || first == "\"", text.count >= 2, text.last == first {
            return .string(String(text.dropFirst().dropLast()))
        }
        if let int = Int(text) { return .int(int) }
        if let double = Double(text), double.isFinite, text.first != "." { return .double(double) }
        return nil
    }
}
