/// A type that checks JSON values against the types a workflow declares.
///
/// The engine validates a run's inputs, each request body and each response body against the schema the
/// workflow gives it, following JSON Schema 2020-12 for the subset ``JSONSchema`` models:
///
/// - `type`: `integer` accepts any number without a fraction (`3` and `3.0`); `number` accepts every number.
///   `nullable: true` has already added `null` to the types when the workflow was decoded.
/// - `enum` and `const` compare deeply, numbers by value, so `1` equals `1.0`.
/// - `properties`, `required` and `additionalProperties`; when `additionalProperties` is not stated, other
///   members are allowed.
/// - `items`, `minItems` and `maxItems`.
/// - `minLength` and `maxLength`, counted in Unicode scalars (JSON Schema's code points).
/// - `minimum`, `maximum`, `exclusiveMinimum` and `exclusiveMaximum`, compared exactly even for large integers.
/// - `pattern`, an unanchored search with Swift's `Regex` configured to behave like ECMA-262 with the `u` flag
///   (ASCII `\d` and `\w`, matching by Unicode scalar). A pattern that does not compile fails every string it
///   is applied to, with a message that names it.
/// - `format` is an annotation, as JSON Schema 2020-12 says, unless the validator is created with
///   `formats: .enforce`: then `date-time` (RFC 3339), `date`, `email` (RFC 5321 mailbox, quoted local parts
///   and address literals included), `uuid`, `uri` (RFC 3986, with a scheme) and `ipv4` are asserted, and
///   other formats stay annotations. `password` marks a secret in either mode: messages never quote its value.
/// - `allOf`, `anyOf` and `oneOf` (exactly one branch must match).
/// - `$ref` to a named type. Recursive types validate recursive data; a reference that comes back to the same
///   type without descending into the value (`A: { allOf: [A] }`) is reported as a `$ref` failure.
///
/// Validation is cheap when the value matches, which it does for almost every response: the validator first
/// only asks whether the value matches (``matches(_:_:)``), keeping no position, and builds no pointer or message
/// until something fails, and compiles each distinct pattern once, in a cache that all
/// copies of the validator share safely across tasks.
///
/// ```swift
/// var types: [String: JSONSchema] = [:]
/// for type in workflow.types { types[type.name.value] = type.schema }
/// let validator = JSONSchemaValidator(types: types)
/// for failure in validator.validate(body, against: responseSchema) {
///     print(failure)  // at /account/balance: expected a number, found the string "12"
/// }
/// ```
public struct JSONSchemaValidator: Sendable {
    /// The named types that `$ref`s resolve to.
    let types: [String: JSONSchema]
    /// The compiled `pattern`s, shared by copies of this validator.
    let patterns = PatternCache()
    /// Whether `format` fails strings that do not have it.
    let formats: ValidationSettings.FormatMode

    /// Creates a validator for the types of one workflow.
    ///
    /// - Parameters:
    ///   - types: The workflow's named types by name, which `$ref`s and bare type names resolve to.
    ///   - formats: Whether `format` is a hint (the default) or enforced, as the workflow's
    ///     `validation: { formats: }` says.
    package init(types: [String: JSONSchema], formats: ValidationSettings.FormatMode = .hint) {
        self.types = types
        self.formats = formats
    }

    /// Checks a value against a schema and returns how it fails to match.
    ///
    /// Failures come in the order found (required properties, then declared properties in file order, then
    /// undeclared ones by name; array elements by index). After a `type` failure the validator checks nothing
    /// else at that position, since the other keywords would only restate it.
    ///
    /// - Parameters:
    ///   - value: The value to check, such as a decoded response body.
    ///   - schema: The type the value must have.
    ///   - maxFailures: How many failures to report at most; the validator stops once it has found them.
    ///     Values below 1 are treated as 1.
    /// - Returns: The failures, empty when the value matches.
    package func validate(_ value: JSONValue, against schema: JSONSchema, maxFailures: Int = 20) -> [ValidationFailure] {
        // Almost every value matches, and ``matches(_:_:)`` says so without a walk. Only a value it does not vouch
        // for is walked, collecting the failures with their pointers and messages (none, if it matches after all).
        if matches(value, schema) { return [] }
        var collect = ValidationWalk(
            types: types, patterns: patterns, root: schema, limit: max(1, maxFailures),
            enforcesFormats: formats == .enforce)
        collect.check(value, against: schema)
        return collect.failures
    }
}
