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
