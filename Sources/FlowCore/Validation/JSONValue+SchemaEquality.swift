/// Equality as JSON Schema's `enum` and `const` define it.
extension JSONValue {
    /// Whether two values are equal as JSON Schema compares instances: numbers by mathematical value (`1` equals
    /// `1.0`), arrays element by element, objects member by member regardless of order.
    ///
    /// `==` keeps `.int(1)` and `.double(1)` apart, which is right for printing but wrong for validation.
    func isSchemaEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let i), .double(let d)), (.double(let d), .int(let i)): return Self.compare(i, d) == .equal
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSchemaEqual(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let otherValue = b[key], value.isSchemaEqual(to: otherValue) else { return false }
            }
            return true
        default:
            return self == other
        }
    }

    /// How a number compares with a bound, or `nil` when the value is not a number.
    func compare(to bound: Double) -> NumberOrder? {
        switch self {
        case .int(let i): Self.compare(i, bound)
        case .double(let d): d < bound ? .less : d > bound ? .greater : .equal
        default: nil
        }
    }

    /// The order of a number relative to another.
    enum NumberOrder {
        case less
        case equal
        case greater
    }

    /// Compares an integer with a double exactly, without rounding the integer to the nearest double first.
    ///
    /// `Double(Int.max)` is 2⁶³, so converting would call `Int.max` equal to `9.223372036854775807e18`.
    static func compare(_ i: Int, _ d: Double) -> NumberOrder {
        if d.isNaN { return .less }
        if d >= 9.223372036854775807e18 { return .less }
        if d < -9.223372036854775807e18 { return .greater }
        let whole = d.rounded(.down)
        let wholeInt = Int(whole)
        if i < wholeInt { return .less }
        if i > wholeInt { return .greater }
        return whole == d ? .equal : .less
    }
}
