/// What the compiler needs of an API description document (an OpenAPI file) to send its operations.
///
/// FlowCore does not read such documents itself: a loader registered on ``WorkflowCompiler`` (FlowOpenAPI's,
/// for OpenAPI 3.0 and 3.1) turns the file into this value, and the compiler lowers every `operation:` step into
/// an ordinary request with typed responses. Everything after lowering is the same for both kinds of step.
package struct OperationSourceDocument: Sendable {
    /// The document's server URLs, with the defaults of their variables filled in, in document order.
    package var servers: [String]
    /// The operations, in document order.
    package var operations: [SourceOperation]
    /// The document's reusable schemas, named with the prefix the loader was given (`bank.User`); the schemas
    /// of the operations refer to them by those names.
    package var types: [NamedType]
    /// The document's security schemes (`components.securitySchemes`), in document order.
    package var securitySchemes: [SourceSecurityScheme] = []
    /// Problems found while reading the document. When one is an error, the document is not usable.
    package var diagnostics: [Diagnostic]

    /// Creates a document.
    package init(
        servers: [String] = [], operations: [SourceOperation] = [], types: [NamedType] = [],
        diagnostics: [Diagnostic] = []
    ) {
        self.servers = servers
        self.operations = operations
        self.types = types
        self.diagnostics = diagnostics
    }

    /// A document that could not be read, with why.
    /// - Parameter diagnostic: The error.
    /// - Returns: A document without operations.
    package static func failed(_ diagnostic: Diagnostic) -> Self {
        Self(diagnostics: [diagnostic])
    }
}

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

/// A security scheme of an API description document, as flowrun can send it.
package struct SourceSecurityScheme: Sendable {
    /// How the credential is sent.
    package enum Kind: Sendable, Equatable {
        /// `Authorization: Bearer <token>`: HTTP `bearer`, and OAuth 2 and OpenID Connect, whose tokens are sent
        /// that way.
        case bearer
        /// `Authorization: Basic …` from a username and a password.
        case basic
        /// An API key in a header or a query parameter.
        case apiKey(APIKeyPlacement)
        /// A scheme flowrun cannot send, described for the message.
        case unsupported(String)
    }

    /// The scheme's name in `components.securitySchemes`.
    package var name: String
    /// How its credential is sent.
    package var kind: Kind
    /// Where it is declared in the document.
    package var location: SourceLocation

    /// Creates a scheme.
    package init(name: String, kind: Kind, location: SourceLocation) {
        self.name = name
        self.kind = kind
        self.location = location
    }
}

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

/// Reads an API description document: its bytes, its path (for locations) and the prefix for the names of its
/// reusable schemas (the source's name and a dot: `bank.`).
package typealias OperationSourceLoader =
    @Sendable (_ bytes: [UInt8], _ path: String, _ typePrefix: String) -> OperationSourceDocument
