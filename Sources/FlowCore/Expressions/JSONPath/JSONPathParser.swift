/// Parses the text of an RFC 9535 JSONPath query, checking the grammar and the function type rules.
///
/// A recursive descent over the query's Unicode scalars; each `parse…` function follows the production
/// of the RFC's ABNF with the same name. Offsets in errors count scalars from the start of the text.
struct JSONPathParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// How deeply filters and parentheses nest; bounded so that no query can exhaust the stack.
    private var depth = 0
    private static let maxDepth = 64
    /// The largest integer of I-JSON, and so of an index or slice bound (RFC 9535 section 2.1).
    private static let maxExactInteger = 9_007_199_254_740_991

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    // MARK: Queries

    /// `jsonpath-query`, with nothing after it.
    mutating func parseWholeQuery() throws(ExpressionSyntaxError) -> [JSONPathSegment] {
        guard peek == "$" else {
            throw error(scalars.isEmpty ? "a JSONPath query is empty; it starts with '$'" : "a JSONPath query starts with '$'")
        }
        position += 1
        let segments = try parseSegments()
        guard position == scalars.count else {
            if let scalar = peek, Self.isBlank(scalar) {
                throw error("a JSONPath query cannot end with blank space")
            }
            throw error("unexpected \(describe(peek)) after the query; a segment starts with '.', '..' or '['")
        }
        return segments
    }

    /// `segments`: each after optional blank space. Blank space that no segment follows is left unread.
    private mutating func parseSegments() throws(ExpressionSyntaxError) -> [JSONPathSegment] {
        var segments: [JSONPathSegment] = []
        while true {
            let before = position
            skipBlanks()
            guard let scalar = peek, scalar == "." || scalar == "[" else {
                position = before
                return segments
            }
            segments.append(try parseSegment())
        }
    }

    /// `child-segment` or `descendant-segment`.
    private mutating func parseSegment() throws(ExpressionSyntaxError) -> JSONPathSegment {
        if peek == "[" { return .child(try parseBracketedSelection()) }
        position += 1  // "."
        if peek == "." {
            position += 1
            switch peek {
            case "[": return .descendant(try parseBracketedSelection())
            case "*":
                position += 1
                return .descendant([.wildcard])
            case let scalar? where Self.isNameFirst(scalar):
                return .descendant([.name(parseMemberName())])
            default:
                throw error("'..' is followed by a member name, '*' or '[', not \(describe(peek))")
            }
        }
        switch peek {
        case "*":
            position += 1
            return .child([.wildcard])
        case let scalar? where Self.isNameFirst(scalar):
            return .child([.name(parseMemberName())])
        default:
            throw error("'.' is followed by a member name or '*', not \(describe(peek)); other names go in brackets: ['name']")
        }
    }

    /// `member-name-shorthand`; the caller has checked its first character.
    private mutating func parseMemberName() -> String {
        var name = String.UnicodeScalarView()
        while let scalar = peek, Self.isNameFirst(scalar) || ("0"..."9").contains(scalar) {
            name.append(scalar)
            position += 1
        }
        return String(name)
    }

    /// `bracketed-selection`.
    private mutating func parseBracketedSelection() throws(ExpressionSyntaxError) -> [JSONPathSelector] {
        position += 1  // "["
        var selectors: [JSONPathSelector] = []
        while true {
            skipBlanks()
            selectors.append(try parseSelector())
            skipBlanks()
            switch peek {
            case ",": position += 1
            case "]":
                position += 1
                return selectors
            default:
                throw error("expected ',' or ']' after a selector, not \(describe(peek))")
            }
        }
    }

    /// `selector`.
    private mutating func parseSelector() throws(ExpressionSyntaxError) -> JSONPathSelector {
        switch peek {
        case "'", "\"": return .name(try parseStringLiteral())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlanks()
            return .filter(try nested { (parser: inout JSONPathParser) throws(ExpressionSyntaxError) in try parser.parseLogicalOr() })
        case ":": return try parseSlice(start: nil)
        case let scalar? where scalar == "-" || ("0"..."9").contains(scalar):
            let index = try parseIndexInteger()
            let afterIndex = position
            skipBlanks()
            if peek == ":" { return try parseSlice(start: index) }
            position = afterIndex
            return .index(index)
        default:
            throw error("expected a selector (a quoted name, an index, a slice, '*' or a '?' filter), not \(describe(peek))")
        }
    }

    /// The rest of a `slice-selector` after its start, at the first ':'.
    private mutating func parseSlice(start: Int?) throws(ExpressionSyntaxError) -> JSONPathSelector {
        position += 1  // ":"
        skipBlanks()
        var end: Int?
        if let scalar = peek, scalar == "-" || ("0"..."9").contains(scalar) {
            end = try parseIndexInteger()
            skipBlanks()
        }
        var step: Int?
        if peek == ":" {
            position += 1
            skipBlanks()
            if let scalar = peek, scalar == "-" || ("0"..."9").contains(scalar) {
                step = try parseIndexInteger()
            }
        }
        return .slice(start: start, end: end, step: step)
    }

    /// `int`, within I-JSON's exact range: `0`, or an optional `-` and digits without a leading zero.
    private mutating func parseIndexInteger() throws(ExpressionSyntaxError) -> Int {
        let start = position
        let negative = peek == "-"
        if negative { position += 1 }
        guard let first = peek, ("0"..."9").contains(first) else {
            throw error("expected digits after '-'")
        }
        if first == "0" {
            position += 1
            if negative { throw error("'-0' is not an index; write 0", at: start) }
            if let next = peek, ("0"..."9").contains(next) {
                throw error("an index has no leading zeros", at: start)
            }
            return 0
        }
        var magnitude = 0
        while let scalar = peek, ("0"..."9").contains(scalar) {
            magnitude = magnitude * 10 + Int(scalar.value - 48)
            position += 1
            if magnitude > Self.maxExactInteger {
                throw error("an index or slice bound must lie within ±(2^53 − 1)", at: start)
            }
        }
        return negative ? -magnitude : magnitude
    }

    // MARK: Filters

    /// Parses with the nesting depth one deeper, refusing queries nested beyond ``maxDepth``.
    private mutating func nested<T>(_ body: (inout JSONPathParser) throws(ExpressionSyntaxError) -> T)
        throws(ExpressionSyntaxError) -> T
    {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw error("the filter nests more than \(Self.maxDepth) levels deep") }
        return try body(&self)
    }

    /// `logical-or-expr`.
    private mutating func parseLogicalOr() throws(ExpressionSyntaxError) -> JSONPathLogical {
        var operands = [try parseLogicalAnd()]
        while skippingBlanks(ifFollowedBy: "|", "|") {
            position += 2
            skipBlanks()
            operands.append(try parseLogicalAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    /// `logical-and-expr`.
    private mutating func parseLogicalAnd() throws(ExpressionSyntaxError) -> JSONPathLogical {
        var operands = [try parseBasic()]
        while skippingBlanks(ifFollowedBy: "&", "&") {
            position += 2
            skipBlanks()
            operands.append(try parseBasic())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    /// `basic-expr`: a parenthesised expression, a comparison or a test, each perhaps negated.
    private mutating func parseBasic() throws(ExpressionSyntaxError) -> JSONPathLogical {
        if peek == "!" {
            position += 1
            skipBlanks()
            if peek == "(" { return .not(try parseParenthesised()) }
            let start = position
            let operand = try parseOperand()
            guard case .test(let test) = operand else {
                throw error("'!' negates a test or a parenthesised expression, not a value; compare the value instead", at: start)
            }
            if let comparison = try parseComparisonOperator() {
                throw error("'!' cannot negate a comparison without parentheses: write !(… \(comparison.rawValue) …)", at: start)
            }
            return .not(test)
        }
        if peek == "(" { return try parseParenthesised() }
        let start = position
        let left = try parseOperand()
        guard let comparison = try parseComparisonOperator() else {
            switch left {
            case .test(let test): return test
            case .comparable(.function(let call)):
                throw error(
                    "\(call.function.rawValue)() gives a value, which is not a test alone; compare it, as in "
                        + "\(call.function.rawValue)(…) > 0 (\(call.function.signature))",
                    at: start)
            case .comparable:
                throw error("a literal alone is not a test; compare it with something, as in @.flag == true", at: start)
            }
        }
        skipBlanks()
        let rightStart = position
        let right = try parseOperand()
        return .comparison(
            try comparable(left, at: start), comparison, try comparable(right, at: rightStart))
    }

    /// `paren-expr` without its `!`.
    private mutating func parseParenthesised() throws(ExpressionSyntaxError) -> JSONPathLogical {
        position += 1  // "("
        skipBlanks()
        let inner = try nested { (parser: inout JSONPathParser) throws(ExpressionSyntaxError) in try parser.parseLogicalOr() }
        skipBlanks()
        guard peek == ")" else { throw error("expected ')' to close the '(', not \(describe(peek))") }
        position += 1
        return inner
    }

    /// What a comparison side or a test can start with, before it is known which it is.
    private enum Operand {
        /// A literal, or a singular query or value function read as one side of a comparison.
        case comparable(JSONPathComparable)
        /// A query or a function that can stand alone as a test; also one side of a comparison when singular.
        case test(JSONPathLogical)
    }

    /// A literal, a filter query or a function call.
    private mutating func parseOperand() throws(ExpressionSyntaxError) -> Operand {
        switch peek {
        case "@", "$":
            return .test(.exists(try parseFilterQuery()))
        case let scalar? where ("a"..."z").contains(scalar) && isFunctionCall:
            let call = try parseFunctionCall()
            switch call.function.result {
            case .value: return .comparable(.function(call))
            case .logical, .nodes: return .test(.function(call))
            }
        default:
            return .comparable(.literal(try parseLiteral()))
        }
    }

    /// Turns the operand at `start` into one side of a comparison: a literal, a singular query or a function of
    /// value type.
    private func comparable(_ operand: Operand, at start: Int) throws(ExpressionSyntaxError) -> JSONPathComparable {
        switch operand {
        case .comparable(let comparable): return comparable
        case .test(.exists(let query)):
            guard query.isSingular else {
                throw error(
                    "a comparison needs a singular query (names and indexes only); this one can select several nodes",
                    at: start)
            }
            return .query(query)
        case .test(.function(let call)):
            throw error("\(call.function.rawValue)() gives a logical value, which cannot be compared: \(call.function.signature)", at: start)
        case .test:
            throw error("this cannot be compared", at: start)
        }
    }

    /// A comparison operator after optional blank space, or `nil` (with the blank space unread) when none follows.
    private mutating func parseComparisonOperator() throws(ExpressionSyntaxError) -> JSONPathComparison? {
        let before = position
        skipBlanks()
        let first = peek
        let second = position + 1 < scalars.count ? scalars[position + 1] : nil
        if first == "=", second != "=" { throw error("'=' is not a comparison; write '=='") }
        let found = JSONPathComparison.reading(first, second)
        guard let found else {
            position = before
            return nil
        }
        position += found.rawValue.unicodeScalars.count
        return found
    }

    /// `filter-query`: `@` or `$` and segments.
    private mutating func parseFilterQuery() throws(ExpressionSyntaxError) -> JSONPathFilterQuery {
        let relative = peek == "@"
        position += 1
        return JSONPathFilterQuery(relative: relative, segments: try parseSegments())
    }

    /// Whether a function name and its `(` start here.
    private var isFunctionCall: Bool {
        var index = position
        while index < scalars.count, Self.isFunctionNameCharacter(scalars[index]) { index += 1 }
        return index < scalars.count && scalars[index] == "("
    }

    /// `function-expr`, its arguments checked against the function's parameter types.
    private mutating func parseFunctionCall() throws(ExpressionSyntaxError) -> JSONPathFunctionCall {
        let start = position
        var name = String.UnicodeScalarView()
        while let scalar = peek, Self.isFunctionNameCharacter(scalar) {
            name.append(scalar)
            position += 1
        }
        guard let function = JSONPathFunction(rawValue: String(name)) else {
            let known = JSONPathFunction.allCases.map { "\($0.rawValue)()" }.joined(separator: ", ")
            throw error("unknown function '\(String(name))'; JSONPath has \(known)", at: start)
        }
        position += 1  // "("
        skipBlanks()
        var arguments: [(JSONPathArgument, Int)] = []
        if peek != ")" {
            while true {
                let argumentStart = position
                arguments.append((try nested { (parser: inout JSONPathParser) throws(ExpressionSyntaxError) in
                    try parser.parseArgument()
                }, argumentStart))
                skipBlanks()
                if peek == "," {
                    position += 1
                    skipBlanks()
                    continue
                }
                guard peek == ")" else { throw error("expected ',' or ')' in the arguments of \(function.rawValue)(), not \(describe(peek))") }
                break
            }
        }
        position += 1  // ")"
        guard arguments.count == function.parameters.count else {
            throw error(
                "\(function.rawValue)() takes \(function.parameters.count) argument\(function.parameters.count == 1 ? "" : "s"), "
                    + "not \(arguments.count): \(function.signature)",
                at: start)
        }
        for ((argument, argumentStart), type) in zip(arguments, function.parameters) {
            try check(argument, fits: type, of: function, at: argumentStart)
        }
        var call = JSONPathFunctionCall(function: function, arguments: arguments.map(\.0))
        if function == .match || function == .search, case .literal(let pattern) = call.arguments[1] {
            if case .string(let text) = pattern, let regex = IRegexp.compile(text, wholeMatch: function == .match) {
                call.literalPattern = regex
            } else {
                call.invalidPattern = true
            }
        }
        return call
    }

    /// `function-argument`: a literal, query or function call standing alone is an argument of its own kind;
    /// anything else is a logical expression.
    private mutating func parseArgument() throws(ExpressionSyntaxError) -> JSONPathArgument {
        let start = position
        let alone: JSONPathArgument?
        switch peek {
        case "@", "$":
            alone = .query(try parseFilterQuery())
        case let scalar? where ("a"..."z").contains(scalar) && isFunctionCall:
            alone = .function(try parseFunctionCall())
        default:
            alone = (try? parseLiteral()).map { .literal($0) }
        }
        if let alone {
            let end = position
            skipBlanks()
            if peek == "," || peek == ")" {
                position = end
                return alone
            }
        }
        position = start
        return .logical(try parseLogicalOr())
    }

    /// Checks that `argument` may be passed where `type` is declared (RFC 9535 section 2.4.3).
    private func check(
        _ argument: JSONPathArgument, fits type: JSONPathFunction.ParameterType, of function: JSONPathFunction, at start: Int
    ) throws(ExpressionSyntaxError) {
        let fits: Bool =
            switch (type, argument) {
            case (.value, .literal): true
            case (.value, .query(let query)): query.isSingular
            case (.value, .function(let call)): call.function.result == .value
            case (.nodes, .query): true
            case (.nodes, .function(let call)): call.function.result == .nodes
            case (.logical, .logical), (.logical, .query): true
            case (.logical, .function(let call)): call.function.result != .value
            default: false
            }
        guard fits else {
            throw error("this argument does not fit \(function.signature)", at: start)
        }
    }

    // MARK: Literals

    /// `literal`: a number, a string, `true`, `false` or `null`.
    private mutating func parseLiteral() throws(ExpressionSyntaxError) -> JSONValue {
        switch peek {
        case "'", "\"": return .string(try parseStringLiteral())
        case let scalar? where scalar == "-" || ("0"..."9").contains(scalar): return try parseNumber()
        default:
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)]
            where scalars[position...].starts(with: word.unicodeScalars) {
                position += word.unicodeScalars.count
                return value
            }
            throw error("expected a literal, a query ('@' or '$') or a function call, not \(describe(peek))")
        }
    }

    /// `number`: an integer or `-0`, with an optional fraction and exponent.
    private mutating func parseNumber() throws(ExpressionSyntaxError) -> JSONValue {
        let start = position
        if peek == "-" { position += 1 }
        guard let first = peek, ("0"..."9").contains(first) else { throw error("expected digits after '-'") }
        position += 1
        if first == "0", let next = peek, ("0"..."9").contains(next) {
            throw error("a number has no leading zeros", at: start)
        }
        skipDigits()
        var isInteger = true
        if peek == "." {
            position += 1
            guard let digit = peek, ("0"..."9").contains(digit) else { throw error("expected digits after '.'") }
            skipDigits()
            isInteger = false
        }
        if peek == "e" || peek == "E" {
            position += 1
            if peek == "+" || peek == "-" { position += 1 }
            guard let digit = peek, ("0"..."9").contains(digit) else { throw error("expected digits in the exponent") }
            skipDigits()
            isInteger = false
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<position])
        let string = String(text)
        if isInteger, let integer = Int(string) { return .int(integer) }
        guard let double = Double(string), double.isFinite else { throw error("the number is out of range", at: start) }
        return .double(double)
    }

    private mutating func skipDigits() {
        while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
    }

    /// `string-literal`, in single or double quotes, with JSON's escapes (and `\'` in single quotes).
    private mutating func parseStringLiteral() throws(ExpressionSyntaxError) -> String {
        let quote = scalars[position]
        let start = position
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw error("the string is not closed: it needs a closing \(quote)", at: start) }
            position += 1
            switch scalar {
            case quote:
                return String(text)
            case "\\":
                text.append(try parseEscape(in: quote))
            case _ where scalar.value < 0x20:
                throw error("a control character must be escaped in a string, as \\u\(Self.hex4(scalar.value))", at: position - 1)
            default:
                text.append(scalar)
            }
        }
    }

    /// The character an escape after `\` stands for.
    private mutating func parseEscape(in quote: Unicode.Scalar) throws(ExpressionSyntaxError) -> Unicode.Scalar {
        let start = position - 1
        guard let scalar = peek else { throw error("the string ends after '\\'") }
        position += 1
        switch scalar {
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "/": return "/"
        case "\\": return "\\"
        case quote: return quote
        case "u":
            let high = try parseHex4()
            switch high {
            case 0xD800...0xDBFF:
                guard peek == "\\", position + 1 < scalars.count, scalars[position + 1] == "u" else {
                    throw error("\\u\(Self.hex4(high)) is a high surrogate: a \\u low surrogate must follow it", at: start)
                }
                position += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("\\u\(Self.hex4(high)) must be followed by a low surrogate (\\uDC00–\\uDFFF)", at: start)
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            case 0xDC00...0xDFFF:
                throw error("\\u\(Self.hex4(high)) is a low surrogate without a high one before it", at: start)
            default:
                return Unicode.Scalar(high)!
            }
        default:
            throw error("'\\\(scalar)' is not an escape; a string may use \\b \\f \\n \\r \\t \\/ \\\\ \\\(quote) and \\uXXXX", at: start)
        }
    }

    private mutating func parseHex4() throws(ExpressionSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, let digit = Self.hexValue(scalar) else {
                throw error("\\u needs four hexadecimal digits")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    // MARK: Characters

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func skipBlanks() {
        while let scalar = peek, Self.isBlank(scalar) { position += 1 }
    }

    /// Whether `first` and `second` follow after optional blank space; the blank space is read when they do.
    private mutating func skippingBlanks(ifFollowedBy first: Unicode.Scalar, _ second: Unicode.Scalar) -> Bool {
        let before = position
        skipBlanks()
        if position + 1 < scalars.count, scalars[position] == first, scalars[position + 1] == second { return true }
        position = before
        return false
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    /// `name-first`: a letter, `_`, or any character beyond ASCII.
    private static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
    }

    /// `function-name-char`.
    private static func isFunctionNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }

    private static func hex4(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private func describe(_ scalar: Unicode.Scalar?) -> String {
        guard let scalar else { return "the end of the query" }
        return "'\(scalar)'"
    }

    private func error(_ message: String, at offset: Int? = nil) -> ExpressionSyntaxError {
        ExpressionSyntaxError(message: message, offset: offset ?? position)
    }
}
