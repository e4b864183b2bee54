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
