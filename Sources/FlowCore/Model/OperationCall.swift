/// A step's `operation:`: an operation of an OpenAPI document that the workflow declares under `openapi:`,
/// sent with the step's `parameters:` and body instead of a written `request:`.
package struct OperationCall: Sendable {
    /// The reference as written: `<source>.<operationId>` or `<source>#<JSON pointer to an operation>`.
    package var reference: Located<String>
    /// The values of the operation's parameters, by parameter name, in file order.
    package var parameters: [Binding]
    /// Where `parameters:` was written, or the step when it was not.
    package var parametersLocation: SourceLocation
    /// The body, written with the keys of a request's body (`body`, `form`, `text`, `multipart`).
    package var body: RequestBody?
    /// For a step lowered from an Arazzo document: where each of ``parameters`` goes (its `in`), by position.
    /// Arazzo's own rules then apply: a parameter the operation does not declare is still sent where its `in`
    /// says, a missing required one is left to the server (the Arazzo checks warn about both), and the body is
    /// sent as written, not checked against the operation's request schema.
    package var arazzoPlacements: [String]?

    /// Creates an operation call.
    /// - Parameters:
    ///   - reference: The reference as written.
    ///   - parameters: The parameter values.
    ///   - parametersLocation: Where the parameters were written.
    package init(reference: Located<String>, parameters: [Binding], parametersLocation: SourceLocation) {
        self.reference = reference
        self.parameters = parameters
        self.parametersLocation = parametersLocation
    }

    /// The source name and the operation part of ``reference``: `("bank", .id("getUser"))` for
    /// `bank.getUser`, `("bank", .pointer("/paths/~1users/get"))` for `bank#/paths/~1users/get`;
    /// `nil` when the text has neither separator.
    package var parts: (source: String, operation: OperationKey)? {
        let text = reference.value
        let hash = text.firstIndex(of: "#")
        let dot = text.firstIndex(of: ".")
        if let hash, dot.map({ hash < $0 }) ?? true {
            return (String(text[..<hash]), .pointer(String(text[text.index(after: hash)...])))
        }
        guard let dot else { return nil }
        return (String(text[..<dot]), .id(String(text[text.index(after: dot)...])))
    }

    /// How a reference names an operation.
    package enum OperationKey: Sendable, Equatable {
        /// By its `operationId`.
        case id(String)
        /// By a JSON pointer into the document: `/paths/~1users~1{id}/get`.
        case pointer(String)
    }
}
