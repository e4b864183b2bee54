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

/// Reads an API description document: its bytes, its path (for locations) and the prefix for the names of its
/// reusable schemas (the source's name and a dot: `bank.`).
package typealias OperationSourceLoader =
    @Sendable (_ bytes: [UInt8], _ path: String, _ typePrefix: String) -> OperationSourceDocument
