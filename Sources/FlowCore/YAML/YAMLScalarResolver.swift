/// Resolves YAML scalar text to values under the YAML 1.2 core schema.
///
/// Only untagged plain scalars are resolved implicitly; quoted and block
/// scalars are always strings, which the loader decides before calling here.
/// Explicitly tagged scalars (`!!int 12`) go through ``resolve(_:as:)``, which
/// accepts only text that the core schema allows for that tag.
///
/// The resolver scans UTF-8 bytes by hand instead of using regular
/// expressions: every plain scalar of a workflow file passes through here, and
/// most of them (`GET`, `/items/{id}`, step ids) are rejected by their first
/// byte.
///
/// Integer overflow: a decimal integer that does not fit in `Int` also matches
/// the core schema's float pattern, so it resolves to the nearest `Double`
/// (`18446744073709551616` becomes `1.8446744073709552e19`); the exact digits
/// stay available in ``YAMLScalar/text``. A hexadecimal or octal integer that
/// does not fit matches no other pattern and stays a string. A float whose
/// magnitude is too large for `Double` (`1e400`) resolves to infinity, as IEEE
/// 754 parsing does.
enum YAMLScalarResolver {
    /// A tag of the YAML 1.2 core schema that a scalar may carry.
    enum CoreTag: String, Sendable, CaseIterable {
        case str
        case int
        case float
        case bool
        case null

        /// The shorthand form used in messages and in ``YAMLScalar/tag``, such as `!!int`.
        var shorthand: String { "!!\(rawValue)" }
    }

    /// Resolves the text of an untagged plain scalar.
    /// - Parameter text: The scalar's text.
    /// - Returns: Null, a boolean, an integer or a double when the text has one of their core-schema forms, else
    ///   the string itself.
    static func resolvePlain(_ text: String) -> YAMLScalar.Value {
        withBytes(of: text) { resolvePlain($0, text: text) }
    }

    /// Resolves the text of a scalar that carries an explicit core-schema tag.
    /// - Parameters:
    ///   - text: The scalar's text.
    ///   - tag: The scalar's tag.
    /// - Returns: The value, or `nil` when the text is not a valid value of the tag (`!!int abc`).
    static func resolve(_ text: String, as tag: CoreTag) -> YAMLScalar.Value? {
        withBytes(of: text) { bytes -> YAMLScalar.Value? in
            switch tag {
            case .str:
                return .string(text)
            case .null:
                return isNull(bytes) ? .null : nil
            case .bool:
                return bool(bytes).map { .bool($0) }
            case .int:
                if case .value(let value) = integer(bytes) { return .int(value) }
                return nil
            case .float:
                // The decimal integer forms are a subset of the float pattern, so `!!float 1` is 1.0.
                return double(bytes, text: text).map { .double($0) }
            }
        }
    }

    /// Resolves an untagged plain scalar from its UTF-8 bytes.
    static func resolvePlain(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> YAMLScalar.Value {
        guard let first = bytes.first else { return .null }
        // Fast rejection: every non-string form starts with one of these bytes.
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            return isNull(bytes) ? .null : .string(text)
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            return bool(bytes).map { .bool($0) } ?? .string(text)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            switch integer(bytes) {
            case .value(let value):
                return .int(value)
            case .decimalOverflow, .notAnInteger:
                // An overflowing decimal integer matches the float pattern too; see the type's discussion.
                return double(bytes, text: text).map { .double($0) } ?? .string(text)
            case .radixOverflow:
                return .string(text)
            }
        default:
            return .string(text)
        }
    }

    // MARK: - Null and bool

    /// Whether the bytes are one of the core schema's null forms: empty, `~`, `null`, `Null`, `NULL`.
    static func isNull(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch bytes.count {
        case 0: true
        case 1: bytes[0] == UInt8(ascii: "~")
        case 4: equals(bytes, "null") || equals(bytes, "Null") || equals(bytes, "NULL")
        default: false
        }
    }

    /// The boolean of the core schema's six spellings; `yes`, `no`, `on`, `off` are not among them.
    static func bool(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch bytes.count {
        case 4 where equals(bytes, "true") || equals(bytes, "True") || equals(bytes, "TRUE"):
            true
        case 5 where equals(bytes, "false") || equals(bytes, "False") || equals(bytes, "FALSE"):
            false
        default:
            nil
        }
    }

    // MARK: - Integers

    /// The outcome of matching the core schema's integer forms.
    enum IntegerMatch: Equatable {
        /// The text is an integer that fits in `Int`.
        case value(Int)
        /// The text has the decimal form but does not fit in `Int`.
        case decimalOverflow
        /// The text has the `0o` or `0x` form but does not fit in `Int`.
        case radixOverflow
        /// The text has no integer form.
        case notAnInteger
    }

    /// Matches `[-+]?[0-9]+`, `0o[0-7]+` and `0x[0-9a-fA-F]+`.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> IntegerMatch {
        let count = bytes.count
        guard count > 0 else { return .notAnInteger }
        if count > 2, bytes[0] == UInt8(ascii: "0") {
            if bytes[1] == UInt8(ascii: "o") { return radixInteger(bytes, radix: 8) }
            if bytes[1] == UInt8(ascii: "x") { return radixInteger(bytes, radix: 16) }
        }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        guard index < count else { return .notAnInteger }
        // Accumulate as a negative number so that Int.min, whose magnitude exceeds Int.max, still fits.
        var accumulator = 0
        var overflowed = false
        while index < count {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .notAnInteger }
            if !overflowed {
                let (shifted, o1) = accumulator.multipliedReportingOverflow(by: 10)
                let (next, o2) = shifted.subtractingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
                if o1 || o2 { overflowed = true } else { accumulator = next }
            }
            index += 1
        }
        if overflowed { return .decimalOverflow }
        if negative { return .value(accumulator) }
        let (positive, overflow) = (0).subtractingReportingOverflow(accumulator)
        return overflow ? .decimalOverflow : .value(positive)
    }

    /// Matches the digits after a `0o` or `0x` prefix; the core schema allows no sign there.
    private static func radixInteger(_ bytes: UnsafeBufferPointer<UInt8>, radix: Int) -> IntegerMatch {
        var accumulator = 0
        var overflowed = false
        for byte in bytes[2...] {
            guard let digit = digitValue(byte), digit < radix else { return .notAnInteger }
            if !overflowed {
                let (shifted, o1) = accumulator.multipliedReportingOverflow(by: radix)
                let (next, o2) = shifted.addingReportingOverflow(digit)
                if o1 || o2 { overflowed = true } else { accumulator = next }
            }
        }
        return overflowed ? .radixOverflow : .value(accumulator)
    }

    /// The value of an ASCII hexadecimal digit.
    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte &- UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte &- UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    // MARK: - Floats

    /// Matches `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?(\.inf|\.Inf|\.INF)` and
    /// `\.nan|\.NaN|\.NAN`, returning the value.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> Double? {
        let count = bytes.count
        guard count > 0 else { return nil }
        if count == 4, equals(bytes, ".nan") || equals(bytes, ".NaN") || equals(bytes, ".NAN") {
            return .nan
        }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        if count - index == 4, bytes[index] == UInt8(ascii: ".") {
            let rest = UnsafeBufferPointer(rebasing: bytes[index...])
            if equals(rest, ".inf") || equals(rest, ".Inf") || equals(rest, ".INF") {
                return negative ? -.infinity : .infinity
            }
        }
        let integerDigits = skipDigits(bytes, from: &index)
        var fractionDigits = 0
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = skipDigits(bytes, from: &index)
        }
        // `.` needs digits after it when none precede it; `5.` is allowed.
        guard integerDigits > 0 || fractionDigits > 0 else { return nil }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            guard skipDigits(bytes, from: &index) > 0 else { return nil }
        }
        guard index == count else { return nil }
        // The text is validated above, so the standard library's parser sees only forms it accepts.
        return Double(text)
    }

    /// Advances `index` past ASCII digits and returns how many there were.
    private static func skipDigits(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        return index - start
    }

    // MARK: - Helpers

    /// Whether the bytes equal an ASCII literal.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let other = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return bytes.elementsEqual(other)
    }

    /// Calls `body` with the UTF-8 bytes of a string without copying them when the string is native.
    private static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
