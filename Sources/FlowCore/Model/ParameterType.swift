/// The declared type of a parameter of an OpenAPI operation and the value a step binds to it.
package struct ParameterType: Sendable {
    /// The binding under the step's `parameters:`.
    package var binding: Binding
    /// The parameter's type in the document.
    package var schema: JSONSchema
    /// The parameter for messages: "query parameter 'limit' of operation 'listOrders'".
    package var label: String

    /// Creates a parameter type.
    package init(binding: Binding, schema: JSONSchema, label: String) {
        self.binding = binding
        self.schema = schema
        self.label = label
    }
}
