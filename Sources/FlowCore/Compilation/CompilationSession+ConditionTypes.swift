/// Checks of conditions (`if:`, `until:`/`while:`, a rule's `when: { if: … }`): the expression reads what its
/// place may read, and the literal is one the value can be compared with, so a condition that can never hold
/// (or always holds) because of a type is an error rather than a silent skip or an endless loop.
extension CompilationSession {
    /// Checks `condition` in `context`: its expression, and its literal against the expression's type.
    mutating func checkCondition(_ condition: Condition, in context: BindingContext) {
        guard let type = typeOf(condition.expression, at: condition.location, in: context),
            let problem = literalProblem(condition, type: type)
        else { return }
        error(.bindingTypeMismatch, "the condition '\(condition.text)' \(problem)", at: condition.location)
    }

    /// Why `condition`'s literal cannot be compared with a value of `type`, or `nil` when it can.
    private func literalProblem(_ condition: Condition, type: JSONSchema) -> String? {
        let literal = condition.literal
        // A comparison with null asks whether the value is there; any type may be absent.
        guard literal != .null, let resolved = navigator.resolve(type) else { return nil }
        let outcome = condition.comparison == .notEqual ? "always holds" : "can never hold"
        let allowed = resolved.constValue.map { [$0] } ?? resolved.enumValues
        if let allowed, condition.comparison == .equal || condition.comparison == .notEqual,
            !allowed.contains(where: { Condition.equal($0, literal) })
        {
            let texts = allowed.map { $0.stringValue ?? $0.serialized() }
            let hint = literal.stringValue.map { Suggestion.didYouMean($0, in: texts) } ?? ""
            return "\(outcome): '\(condition.expression)' is one of \(texts.joined(separator: ", ")), never "
                + "\(literal.serialized())\(hint)"
        }
        guard let types = resolved.types, !types.isEmpty else { return nil }
        switch condition.comparison {
        case .equal, .notEqual:
            let literalType: JSONSchema.TypeName =
                switch literal {
                case .bool: .boolean
                case .int, .bigInteger: .integer
                case .double: .number
                case .string: .string
                case .array: .array
                case .object: .object
                case .null: .null
                }
            let numbers: Set<JSONSchema.TypeName> = [.integer, .number]
            let comparable = types.contains(literalType)
                || (numbers.contains(literalType) && !types.isDisjoint(with: numbers))
            guard !comparable else { return nil }
            return "\(outcome): '\(condition.expression)' is \(navigator.describe(type)), and "
                + "\(literal.serialized()) is \(literal.typeNameWithArticle)"
        default:
            let ordered: Set<JSONSchema.TypeName> = [.integer, .number, .string]
            guard types.isDisjoint(with: ordered) else {
                let literalIsNumber = literal.isNumber
                let valueMayBeNumber = !types.isDisjoint(with: [.integer, .number])
                let valueMayBeString = types.contains(.string)
                if (literalIsNumber && !valueMayBeNumber) || (literal.stringValue != nil && !valueMayBeString) {
                    return "can never hold: '\(condition.expression)' is \(navigator.describe(type)), and "
                        + "\(condition.comparison.rawValue) orders numbers with numbers and strings with strings"
                }
                return nil
            }
            return "can never hold: \(condition.comparison.rawValue) orders numbers or strings, and "
                + "'\(condition.expression)' is \(navigator.describe(type))"
        }
    }
}

extension JSONValue {
    /// Whether the value is a number.
    fileprivate var isNumber: Bool {
        switch self {
        case .int, .bigInteger, .double: true
        default: false
        }
    }
}
