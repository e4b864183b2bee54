extension Condition.Operator {
    /// The comparison operator that the two characters at a parser's position begin, if any: `==`, `!=`, `<=`,
    /// `>=`, or `<` or `>` followed by anything. The operator's length is its raw value's.
    ///
    /// The condition syntaxes that compare values (Arazzo's simple criteria, JSONPath filters) share it.
    package static func reading(_ first: Unicode.Scalar?, _ second: Unicode.Scalar?) -> Self? {
        switch (first, second) {
        case ("=", "="): .equal
        case ("!", "="): .notEqual
        case ("<", "="): .lessOrEqual
        case (">", "="): .greaterOrEqual
        case ("<", _): .less
        case (">", _): .greater
        default: nil
        }
    }
}
