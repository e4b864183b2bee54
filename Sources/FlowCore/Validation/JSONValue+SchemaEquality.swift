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
        case (.bigInteger(let digits), .double(let d)), (.double(let d), .bigInteger(let digits)):
            return Self.compare(digits, d) == .equal
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
        case .bigInteger(let digits): Self.compare(digits, bound)
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

    /// Compares the decimal digits of an integer beyond 64 bits (after a `-` when negative) with a double exactly.
    ///
    /// A double at least 2⁶³ in magnitude is a whole number, so its exact decimal digits are compared with the
    /// integer's; any smaller double lies between the 64-bit bounds, which the integer is outside of.
    static func compare(_ digits: String, _ d: Double) -> NumberOrder {
        if d.isNaN { return .less }
        let negative = digits.hasPrefix("-")
        let outside: NumberOrder = negative ? .less : .greater
        guard d.isFinite else { return d > 0 ? .less : .greater }
        guard abs(d) >= 0x1p63, (d < 0) == negative else { return outside }
        let magnitude = negative ? digits.dropFirst() : Substring(digits)
        let bound = exactDigits(of: abs(d))
        let order: NumberOrder =
            magnitude.count != bound.count
            ? (magnitude.count < bound.count ? .less : .greater)
            : (magnitude == bound ? .equal : magnitude < bound ? .less : .greater)
        switch (order, negative) {
        case (.less, true): return .greater
        case (.greater, true): return .less
        default: return order
        }
    }

    /// The exact decimal digits of a finite, whole, positive double.
    static func exactDigits(of d: Double) -> Substring {
        // d = significand × 2^exponent; multiply the significand's digits (least significant first) by 2 that often.
        var digits = String(UInt64(d.significandBitPattern | (1 << 52))).utf8.reversed().map { Int($0 - 48) }
        for _ in 0..<(Int(d.exponent) - 52) {
            var carry = 0
            for index in digits.indices {
                let doubled = digits[index] * 2 + carry
                digits[index] = doubled % 10
                carry = doubled / 10
            }
            if carry > 0 { digits.append(carry) }
        }
        return Substring(String(digits.reversed().map { Character(String($0)) }))
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
