/// A condition in Arazzo's "simple" criterion syntax: `$statusCode == 200 || $statusCode == 201`.
///
/// Arazzo 1.0.1 (section "Criterion Object") defines the literals (`true`, `false`, `null`, numbers, and
/// strings in single quotes, `''` standing for one quote) and the operators `< <= > >= == != ! && ||` and
/// parentheses; runtime expressions supply the values. Where the specification says no more, flowrun reads a
/// condition as follows (docs/arazzo.md lists the same choices):
///
/// - `&&` binds tighter than `||`; `!` applies to a parenthesised condition or to one operand.
/// - A runtime expression runs to the next blank or operator character (`= ! < > & | ( )`).
/// - Comparisons are loose, as the specification asks: strings compare case-insensitively; a number and a
///   string that spells a number compare as numbers; a boolean and the string `'true'` or `'false'` compare as
///   booleans. `<`, `<=`, `>`, `>=` order two numbers, or two strings case-insensitively; any other pair is false.
/// - A value that is absent (a member the body does not have, a header that was not sent) equals `null`, so
///   `$response.body#/token == null` holds when the body has no `token`.
/// - An operand alone is a test that holds when its value is `true`.
package struct ArazzoCondition: Sendable, CustomStringConvertible {
    /// The parsed condition.
    indirect enum Node: Sendable {
        case or([Node])
        case and([Node])
        case not(Node)
        case comparison(Operand, Comparison, Operand)
        /// An operand alone: holds when its value is `true`.
        case test(Operand)
    }

    /// A comparison operator.
    typealias Comparison = Condition.Operator

    /// A value in a condition.
    enum Operand: Sendable {
        case literal(JSONValue)
        /// A runtime expression, as written, and the offset of its `$` in the condition.
        case expression(String, offset: Int)
    }

    let root: Node
    /// The text the condition was parsed from.
    package let description: String

    /// The runtime expressions the condition reads, in order, each with the offset of its `$` in Unicode scalars
    /// from the start of the condition: for a caller to check and to resolve.
    package var expressions: [(text: String, offset: Int)] {
        var found: [(String, Int)] = []
        func collect(_ node: Node) {
            switch node {
            case .or(let nodes), .and(let nodes): nodes.forEach(collect)
            case .not(let node): collect(node)
            case .comparison(let left, _, let right):
                for case .expression(let text, let offset) in [left, right] { found.append((text, offset)) }
            case .test(.expression(let text, let offset)): found.append((text, offset))
            case .test: break
            }
        }
        collect(root)
        return found
    }

    /// Parses a condition.
    /// - Throws: ``ExpressionSyntaxError`` at the offset, in Unicode scalars, of the first character that does
    ///   not fit.
    package init(parsing text: String) throws(ExpressionSyntaxError) {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        parser.skipBlanks()
        root = try parser.parseOr()
        parser.skipBlanks()
        guard parser.position == parser.scalars.count else {
            throw ExpressionSyntaxError(
                message: "unexpected '\(parser.scalars[parser.position])'; conditions combine comparisons with && and ||",
                offset: parser.position)
        }
        description = text
    }

    /// Whether the condition holds, reading each runtime expression's value through `resolve` (`nil`: absent).
    package func holds(resolving resolve: (String) -> JSONValue?) -> Bool {
        Self.holds(root, resolve)
    }

    private static func holds(_ node: Node, _ resolve: (String) -> JSONValue?) -> Bool {
        switch node {
        case .or(let nodes): return nodes.contains { holds($0, resolve) }
        case .and(let nodes): return nodes.allSatisfy { holds($0, resolve) }
        case .not(let node): return !holds(node, resolve)
        case .test(let operand): return value(operand, resolve) == .bool(true)
        case .comparison(let left, let comparison, let right):
            return compare(value(left, resolve) ?? .null, comparison, value(right, resolve) ?? .null)
        }
    }

    private static func value(_ operand: Operand, _ resolve: (String) -> JSONValue?) -> JSONValue? {
        switch operand {
        case .literal(let value): value
        case .expression(let text, _): resolve(text)
        }
    }

    // MARK: Loose comparison

    /// Compares two values loosely (see the type's documentation).
    static func compare(_ left: JSONValue, _ comparison: Comparison, _ right: JSONValue) -> Bool {
        switch comparison {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        default:
            guard let order = order(left, right) else { return false }
            switch comparison {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        if let a = number(left), let b = number(right), isNumber(left) || isNumber(right) { return a == b }
        switch (left, right) {
        case (.string(let a), .string(let b)): return a.lowercased() == b.lowercased()
        case (.bool(let a), .string(let b)), (.string(let b), .bool(let a)): return b.lowercased() == (a ? "true" : "false")
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { name, value in b[name].map { equal(value, $0) } ?? false }
        default: return left == right
        }
    }

    /// -1, 0 or 1 for two numbers (a numeric string counts as one beside a number) or two strings; else `nil`.
    private static func order(_ left: JSONValue, _ right: JSONValue) -> Int? {
        if let a = number(left), let b = number(right), isNumber(left) || isNumber(right) {
            return a < b ? -1 : a == b ? 0 : 1
        }
        guard case .string(let a) = left, case .string(let b) = right else { return nil }
        let (x, y) = (a.lowercased(), b.lowercased())
        return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? -1 : x == y ? 0 : 1
    }

    private static func isNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .int, .double, .bigInteger: true
        default: false
        }
    }

    /// A number, or a string that spells one.
    private static func number(_ value: JSONValue) -> Double? {
        if case .string(let text) = value {
            return Double(text.trimmingBlanks).flatMap { $0.isFinite ? $0 : nil }
        }
        return value.doubleValue
    }

    // MARK: Parsing

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0
        var depth = 0

        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        func peek(_ offset: Int) -> Unicode.Scalar? {
            position + offset < scalars.count ? scalars[position + offset] : nil
        }

        mutating func skipBlanks() {
            while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { position += 1 }
        }

        func error(_ message: String, at offset: Int? = nil) -> ExpressionSyntaxError {
            ExpressionSyntaxError(message: message, offset: offset ?? position)
        }

        mutating func parseOr() throws(ExpressionSyntaxError) -> Node {
            var nodes = [try parseAnd()]
            while true {
                skipBlanks()
                guard peek == "|", peek(1) == "|" else { break }
                position += 2
                skipBlanks()
                nodes.append(try parseAnd())
            }
            return nodes.count == 1 ? nodes[0] : .or(nodes)
        }

        mutating func parseAnd() throws(ExpressionSyntaxError) -> Node {
            var nodes = [try parseUnary()]
            while true {
                skipBlanks()
                guard peek == "&", peek(1) == "&" else { break }
                position += 2
                skipBlanks()
                nodes.append(try parseUnary())
            }
            return nodes.count == 1 ? nodes[0] : .and(nodes)
        }

        mutating func parseUnary() throws(ExpressionSyntaxError) -> Node {
            if peek == "!", peek(1) != "=" {
                position += 1
                skipBlanks()
                return .not(try parseUnary())
            }
            if peek == "(" {
                depth += 1
                defer { depth -= 1 }
                guard depth <= 64 else { throw error("the condition nests more than 64 parentheses deep") }
                position += 1
                skipBlanks()
                let inner = try parseOr()
                skipBlanks()
                guard peek == ")" else { throw error("expected ')' to close the '('") }
                position += 1
                return inner
            }
            let left = try parseOperand()
            skipBlanks()
            guard let comparison = parseComparison() else { return .test(left) }
            skipBlanks()
            return .comparison(left, comparison, try parseOperand())
        }

        mutating func parseComparison() -> Comparison? {
            let found = Comparison.reading(peek, peek(1))
            if let found { position += found.rawValue.unicodeScalars.count }
            return found
        }

        mutating func parseOperand() throws(ExpressionSyntaxError) -> Operand {
            let start = position
            guard let first = peek else { throw error("the condition ends where a value is expected") }
            switch first {
            case "$":
                var text = String.UnicodeScalarView()
                while let scalar = peek, !Self.endsExpression(scalar) {
                    text.append(scalar)
                    position += 1
                }
                guard text.count > 1 else { throw error("'$' must begin a runtime expression such as $statusCode", at: start) }
                return .expression(String(text), offset: start)
            case "'":
                position += 1
                var text = String.UnicodeScalarView()
                while true {
                    guard let scalar = peek else { throw error("the string is not closed: it needs a closing '", at: start) }
                    position += 1
                    if scalar == "'" {
                        guard peek == "'" else { break }
                        position += 1  // '' is one quote
                    }
                    text.append(scalar)
                }
                return .literal(.string(String(text)))
            case "\"":
                throw error("strings in conditions use single quotes: 'text'")
            case "-", "0"..."9":
                var text = String.UnicodeScalarView()
                while let scalar = peek, scalar == "-" || scalar == "+" || scalar == "." || scalar == "e" || scalar == "E"
                    || ("0"..."9").contains(scalar)
                {
                    text.append(scalar)
                    position += 1
                }
                let string = String(text)
                if let integer = Int(string) { return .literal(.int(integer)) }
                guard let double = Double(string), double.isFinite else { throw error("'\(string)' is not a number", at: start) }
                return .literal(.double(double))
            default:
                for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)]
                where scalars[position...].starts(with: word.unicodeScalars) {
                    let end = position + word.unicodeScalars.count
                    if end < scalars.count, Self.isWordCharacter(scalars[end]) { continue }
                    position = end
                    return .literal(value)
                }
                throw error(
                    "expected a runtime expression ($…), a number, a 'string', true, false or null, not '\(first)'")
            }
        }

        static func endsExpression(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case " ", "\t", "\n", "\r", "=", "!", "<", ">", "&", "|", "(", ")": true
            default: false
            }
        }

        static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        }
    }
}

extension String {
    /// The string without leading and trailing blanks (spaces, tabs, line breaks).
    fileprivate var trimmingBlanks: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
