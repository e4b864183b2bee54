/// The request body of a ``SourceOperation``.
package struct SourceRequestBody: Sendable {
    /// Whether the operation needs a body.
    package var required: Bool
    /// The content types the document accepts, in document order.
    package var contentTypes: [String]
    /// The type of a JSON body, if the document gives one.
    package var schema: JSONSchema?

    /// Creates a request body.
    package init(required: Bool, contentTypes: [String], schema: JSONSchema?) {
        self.required = required
        self.contentTypes = contentTypes
        self.schema = schema
    }
}
