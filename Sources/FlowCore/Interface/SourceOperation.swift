/// One operation of an API description document.
package struct SourceOperation: Sendable {
    /// Its `operationId`, if it has one.
    package var id: String?
    /// The JSON pointer to it in the document: `/paths/~1users~1{id}/get`.
    package var pointer: String
    /// The HTTP method, upper-case.
    package var method: String
    /// The path template as the document writes it: `/users/{id}`.
    package var path: String
    /// Where the operation is declared in the document.
    package var location: SourceLocation
    /// Its parameters, the path item's and its own (its own win).
    package var parameters: [SourceParameter]
    /// Its request body, if it declares one.
    package var body: SourceRequestBody?
    /// The type of the response body for each status pattern, in document order.
    package var responses: [ResponseCase]
    /// The security requirements that apply to it (its own, else the document's): alternatives, each the names
    /// of the schemes that must all be sent; empty when it needs none.
    package var security: [[String]] = []

    /// Creates an operation.
    package init(
        id: String?, pointer: String, method: String, path: String, location: SourceLocation,
        parameters: [SourceParameter] = [], body: SourceRequestBody? = nil, responses: [ResponseCase] = []
    ) {
        self.id = id
        self.pointer = pointer
        self.method = method
        self.path = path
        self.location = location
        self.parameters = parameters
        self.body = body
        self.responses = responses
    }
}
