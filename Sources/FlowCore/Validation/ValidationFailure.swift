/// One way in which a JSON value breaks the schema it was checked against.
///
/// ``JSONSchemaValidator`` returns failures in the order it finds them: declared properties in file order,
/// array elements by index, undeclared properties sorted by name. Each names the place in the checked value
/// (``pointer``), the schema keyword that failed (``rule``) and a sentence for people (``message``):
///
/// ```swift
/// let failure = ValidationFailure(
///     pointer: JSONPointer(tokens: ["account", "balance"]),
///     rule: "type",
///     message: #"expected a number, found the string "12""#
/// )
/// print(failure)  // at /account/balance: expected a number, found the string "12"
/// ```
///
/// Messages quote at most 40 characters of a value the validator found, and never quote a value whose schema
/// marks it as a secret with `format: password`; they say "the value" instead.
public struct ValidationFailure: Hashable, Sendable, CustomStringConvertible {
    /// Where in the checked value the failure is; the empty pointer for the value itself.
    ///
    /// A missing required property is reported at the object that lacks it, an undeclared property at the
    /// property itself.
    public var pointer: JSONPointer
    /// The schema keyword that failed, such as `type`, `required`, `maxLength`, `oneOf` or `$ref`.
    ///
    /// `depth` is the one rule that is not a JSON Schema keyword: the value nests deeper than the validator
    /// follows.
    public var rule: String
    /// What is wrong, as a sentence fragment without the location, such as `missing required property 'id'`.
    public var message: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - pointer: Where in the checked value the failure is.
    ///   - rule: The schema keyword that failed.
    ///   - message: What is wrong, without the location.
    public init(pointer: JSONPointer, rule: String, message: String) {
        self.pointer = pointer
        self.rule = rule
        self.message = message
    }

    /// The failure as `at /account/balance: message`, or `at (root): message` for the value itself.
    public var description: String {
        "at \(pointer.tokens.isEmpty ? "(root)" : pointer.description): \(message)"
    }
}
