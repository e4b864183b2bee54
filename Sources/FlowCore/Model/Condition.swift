/// A comparison of a runtime expression with a literal: `$response.body#/code == 'card_declined'`.
///
/// This is the "simple" condition syntax of Arazzo's criteria. A catch rule's
/// `when: { if: … }` uses it to match failures by what the failed response
/// says, not only by its status.
package struct Condition: Sendable {
    /// A comparison operator.
    package enum Operator: String, Sendable, CaseIterable {
        /// Equal (numbers compare by value, so `1 == 1.0`).
        case equal = "=="
        /// Not equal.
        case notEqual = "!="
        /// Less than (numbers, or strings by Unicode scalar order).
        case less = "<"
        /// Less than or equal.
        case lessOrEqual = "<="
        /// Greater than.
        case greater = ">"
        /// Greater than or equal.
        case greaterOrEqual = ">="
    }

    /// The value compared.
    package var expression: RuntimeExpression
    /// The comparison.
    package var comparison: Operator
    /// The literal compared with.
    package var literal: JSONValue
    /// Where the expression's `$` is.
    package var location: SourceLocation

    /// Creates a condition.
    /// - Parameters:
    ///   - expression: The value compared.
    ///   - comparison: The operator.
    ///   - literal: The literal compared with.
    ///   - location: Where the expression is written.
    package init(expression: RuntimeExpression, comparison: Operator, literal: JSONValue, location: SourceLocation) {
        self.expression = expression
        self.comparison = comparison
        self.literal = literal
        self.location = location
    }

    /// The condition as written: `$response.body#/status != "done"`.
    package var text: String { "\(expression) \(comparison.rawValue) \(literal)" }

    /// Whether the condition reads only inputs or environment variables, which do not change during a run, so
    /// it holds for every step that has it or for none: only then does the same `if` guard a reader.
    package var isFixedForTheRun: Bool {
        switch expression.source {
        case .input, .environment: true
        default: false
        }
    }

    /// Whether the condition holds for `value`; a missing value (`nil`) never satisfies it.
    package func holds(for value: JSONValue?) -> Bool {
        guard let value else { return false }
        switch comparison {
        case .equal: return Self.equal(value, literal)
        case .notEqual: return !Self.equal(value, literal)
        default:
            guard let order = Self.order(value, literal) else { return false }
            switch comparison {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    /// -1, 0 or 1 for two numbers or two strings; `nil` for anything else.
    private static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        if let x = a.doubleValue, let y = b.doubleValue { return x < y ? -1 : (x == y ? 0 : 1) }
        if case .string(let x) = a, case .string(let y) = b {
            return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? -1 : (x == y ? 0 : 1)
        }
        return nil
    }
}
