/// One assertion of an Arazzo step's `successCriteria`, or of an action's `criteria`, compiled.
///
/// Three of the specification's four types are supported:
/// - `simple` (the default): an ``ArazzoCondition`` over runtime expressions;
/// - `regex`: the pattern is searched for in the text of the `context` value, with the same ECMA-262-like
///   syntax as JSON Schema's `pattern` (see ``PatternCache``);
/// - `jsonpath`: an RFC 9535 query (``JSONPathQuery``) over the `context` value; it holds when the query
///   selects at least one node.
///
/// A Criterion Expression Type Object naming JSONPath version `draft-goessner-dispatch-jsonpath-00`, the one
/// Arazzo 1.0 defines, is read as RFC 9535 too: the draft's queries that RFC 9535 also reads (paths, wildcards,
/// slices, descendants, filters in parentheses) work, and one it does not (a script expression such as
/// `$.a[(@.length-1)]`) is refused at its condition. `xpath`, in either form, is refused with a message that says so.
package struct ArazzoCriterion: Sendable {
    /// How the condition is read.
    package enum Kind: Sendable {
        case simple(ArazzoCondition)
        case regex(SharedRegex)
        case jsonPath(JSONPathQuery)
    }

    /// Why a criterion cannot be compiled, and which of its fields is at fault.
    package struct Failure: Error, Sendable {
        package enum Field: Sendable { case condition, context, type }
        package var field: Field
        package var message: String
        /// For a syntax error in the condition: the offset in Unicode scalars from its start.
        package var offset: Int?
    }

    package let kind: Kind
    /// The runtime expression whose value a `regex` or `jsonpath` condition applies to.
    package let context: String?
    /// The condition as written.
    package let condition: String
    /// The runtime expressions the criterion reads (its `context`, the operands of a simple condition), by their
    /// text, parsed once as flowrun reads them; one flowrun cannot read (`$components…`) is missing. What a run evaluates.
    package let readable: [String: RuntimeExpression]
    /// The texts of the runtime expressions the criterion reads, in order.
    package var expressionTexts: [String] { Self.expressionTexts(of: kind, context: context) }

    private static func expressionTexts(of kind: Kind, context: String?) -> [String] {
        var texts = context.map { [$0] } ?? []
        if case .simple(let condition) = kind { texts += condition.expressions.map(\.text) }
        return texts
    }

    /// Compiles a criterion from its fields.
    /// - Parameters:
    ///   - condition: The `condition`.
    ///   - type: The `type` when it is a string (`simple`, `regex`, `jsonpath`, `xpath`); `nil` when omitted.
    ///   - expressionTypeVersion: The `version` when `type` is a Criterion Expression Type Object.
    ///   - context: The `context` runtime expression, required with `regex` and `jsonpath`.
    package init(condition: String, type: String?, expressionTypeVersion: String? = nil, context: String?)
        throws(Failure)
    {
        self.condition = condition
        self.context = context
        if let version = expressionTypeVersion, type == "jsonpath", version != Self.draftJSONPathVersion {
            throw Failure(
                field: .type,
                message: "jsonpath version '\(version)' is not one Arazzo defines; write '\(Self.draftJSONPathVersion)' "
                    + "(flowrun reads it as RFC 9535), or 'type: jsonpath'")
        }
        switch type ?? "simple" {
        case "simple":
            do {
                kind = .simple(try ArazzoCondition(parsing: condition))
            } catch {
                throw Failure(field: .condition, message: error.message, offset: error.offset)
            }
        case "regex":
            guard context != nil else { throw Self.missingContext("regex") }
            switch PatternCache.compile(condition) {
            case .compiled(let regex): kind = .regex(regex)
            case .invalid(let reason):
                throw Failure(field: .condition, message: "the regular expression does not compile: \(reason)")
            }
        case "jsonpath":
            guard context != nil else { throw Self.missingContext("jsonpath") }
            do {
                kind = .jsonPath(try JSONPathQuery(parsing: condition))
            } catch {
                let draft = expressionTypeVersion == nil
                    ? "" : " (flowrun reads \(Self.draftJSONPathVersion) queries as RFC 9535, which this one is not)"
                throw Failure(field: .condition, message: error.message + draft, offset: error.offset)
            }
        case "xpath":
            throw Failure(field: .type, message: "xpath criteria are not supported: flowrun reads JSON responses")
        case let other:
            let suggestion = Suggestion.closest(to: other, in: ["simple", "regex", "jsonpath", "xpath"])
            throw Failure(
                field: .type,
                message: "unknown criterion type '\(other)'"
                    + (suggestion.map { "; did you mean '\($0)'?" } ?? "; expected simple, regex or jsonpath"))
        }
        var readable: [String: RuntimeExpression] = [:]
        for text in Self.expressionTexts(of: kind, context: context) { readable[text] = try? RuntimeExpression(parsing: text) }
        self.readable = readable
    }

    /// The JSONPath version Arazzo 1.0's Criterion Expression Type Object defines.
    static let draftJSONPathVersion = "draft-goessner-dispatch-jsonpath-00"

    private static func missingContext(_ type: String) -> Failure {
        Failure(field: .context, message: "a \(type) criterion needs a 'context', such as context: $response.body")
    }

    /// Whether the criterion holds, reading runtime expressions through `resolve` (`nil`: absent).
    package func holds(resolving resolve: (String) -> JSONValue?) -> Bool {
        switch kind {
        case .simple(let condition):
            return condition.holds(resolving: resolve)
        case .regex(let regex):
            guard let context, let value = resolve(context) else { return false }
            let text: String
            switch value {
            case .string(let string): text = string
            case .int, .double, .bigInteger, .bool: text = value.description
            default: return false
            }
            return text.contains(regex.regex)
        case .jsonPath(let query):
            guard let context, let value = resolve(context) else { return false }
            return !query.select(in: value).isEmpty
        }
    }
}
