public import FlowCore

/// A condition on a value in an expectation, written as a YAML tag in a test file, for values a test cannot
/// know exactly: a generated `Idempotency-Key`, a timestamp, an id.
///
/// ```yaml
/// expect:
///   outputs: { orderId: !anystr, total: !anynumber, created: !re_match '^\d{4}-\d{2}-\d{2}T' }
///   calls:
///     - { method: POST, path: /orders, headers: { Idempotency-Key: !present } }
///     - { method: POST, path: /orders, headers: { Idempotency-Key: !same, X-Debug: !absent } }
/// ```
public enum ValueMatcher: Sendable, Hashable, CustomStringConvertible {
    /// Any string (`!anystr`).
    case anyString
    /// Any number (`!anynumber`).
    case anyNumber
    /// `true` or `false` (`!anybool`).
    case anyBool
    /// Present, whatever its value (`!present`).
    case present
    /// Not present (`!absent`).
    case absent
    /// A string in which the regular expression finds a match (`!re_match '<regex>'`); the dialect of a
    /// type's `pattern`, unanchored (write `^…$` to match the whole string).
    case matches(String)
    /// The same value as in the previous attempt of the same step (`!same`): a header that must not change
    /// across retries, such as a generated `Idempotency-Key`. Call headers only.
    case sameAsPrevious

    /// The tags of the matchers, as the YAML loader must accept them in test files.
    public static let tags: Set<String> = ["!anystr", "!anynumber", "!anybool", "!present", "!absent", "!re_match", "!same"]

    /// The matcher a tagged scalar stands for, or `nil` when the scalar has no matcher tag.
    /// - Parameter scalar: A scalar of a test file.
    /// - Returns: The matcher; `.matches` takes the scalar's text as its expression.
    public init?(_ scalar: YAMLScalar) {
        switch scalar.tag {
        case "!anystr": self = .anyString
        case "!anynumber": self = .anyNumber
        case "!anybool": self = .anyBool
        case "!present": self = .present
        case "!absent": self = .absent
        case "!re_match": self = .matches(scalar.text)
        case "!same": self = .sameAsPrevious
        default: return nil
        }
    }

    private static let patterns = PatternCache()

    /// Whether `value` (`nil` when absent) meets the condition; ``sameAsPrevious`` compares with `previous`.
    public func accepts(_ value: JSONValue?, previous: JSONValue? = nil) -> Bool {
        switch self {
        case .anyString: if case .string? = value { true } else { false }
        case .anyNumber:
            switch value {
            case .int?, .double?, .bigInteger?: true
            default: false
            }
        case .anyBool: if case .bool? = value { true } else { false }
        case .present: value != nil
        case .absent: value == nil
        case .matches(let pattern):
            if case .string(let text)? = value, case .compiled(let regex) = Self.patterns.entry(for: pattern) {
                text.contains(regex.regex)
            } else {
                false
            }
        case .sameAsPrevious: value != nil && value == previous
        }
    }

    /// The matcher as a test file writes it.
    public var description: String {
        switch self {
        case .anyString: "!anystr"
        case .anyNumber: "!anynumber"
        case .anyBool: "!anybool"
        case .present: "!present"
        case .absent: "!absent"
        case .matches(let pattern): "!re_match '\(pattern)'"
        case .sameAsPrevious: "!same"
        }
    }
}
