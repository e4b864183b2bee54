/// A parameter of a ``SourceOperation``.
package struct SourceParameter: Sendable {
    /// Where a parameter goes.
    package enum Placement: String, Sendable {
        case path, query, header, cookie
        /// A parameter that flowrun cannot send (OpenAPI 3.2's `querystring`).
        case other
    }

    /// The parameter's name.
    package var name: String
    /// Where it goes.
    package var placement: Placement
    /// Whether the operation needs it.
    package var required: Bool
    /// Its serialization style as the document gives it (`simple`, `form`, …), defaults applied.
    package var style: String
    /// Whether a list is sent as one parameter per element (`true`) or as one comma-separated value.
    package var explode: Bool
    /// Its type, if the document gives one.
    package var schema: JSONSchema?
    /// Where it is declared in the document.
    package var location: SourceLocation
    /// Whether its value is sent as JSON text (the parameter has `content` with a JSON media type instead of a
    /// `schema`): an object or a list then goes out serialized, in one value.
    package var isJSONContent = false

    /// Creates a parameter.
    package init(
        name: String, placement: Placement, required: Bool, style: String, explode: Bool, schema: JSONSchema?,
        location: SourceLocation
    ) {
        self.name = name
        self.placement = placement
        self.required = required
        self.style = style
        self.explode = explode
        self.schema = schema
        self.location = location
    }
}

extension SourceParameter {
    /// The header names whose parameters OpenAPI says to ignore (3.0 and 3.1, "Parameter Object"): the request's
    /// own fields, which its body and credentials set.
    package static let ignoredHeaderNames: Set<String> = ["accept", "content-type", "authorization"]

    /// Whether this is a header parameter OpenAPI says to ignore.
    package var isIgnoredHeader: Bool {
        placement == .header && Self.ignoredHeaderNames.contains(name.lowercased())
    }
}
