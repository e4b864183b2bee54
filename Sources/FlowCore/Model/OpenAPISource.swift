/// An entry of the top-level `openapi:` section: a name for an OpenAPI document and its path.
package struct OpenAPISource: Sendable {
    /// The name steps use: `bank` in `operation: bank.getUser`.
    package var name: Located<String>
    /// The document's path as written, relative to the workflow file.
    package var path: Located<String>
    /// `security:`: the credential for each of the document's security schemes that steps should send, by scheme
    /// name: a value for `bearer` and `apiKey` schemes, `{ username, password }` for `basic` ones.
    package var security: [Binding] = []

    /// Creates a declaration.
    /// - Parameters:
    ///   - name: The source's name.
    ///   - path: The document's path as written.
    package init(name: Located<String>, path: Located<String>) {
        self.name = name
        self.path = path
    }
}
