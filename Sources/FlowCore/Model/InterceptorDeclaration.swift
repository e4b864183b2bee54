/// A named interceptor declared under `interceptors:`.
///
/// Each declaration has exactly one kind, chosen by the key it uses
/// (`headers`, `bearer`, `basic`, `apiKey`, `query`, `run` (refresh), `sign`,
/// `unwrap`, `wrap`, `encrypt`, `decrypt`, `use`).
package struct InterceptorDeclaration: Sendable {
    /// The interceptor's name.
    package var name: Located<String>
    /// What the interceptor does.
    package var kind: Kind

    /// What a declared interceptor does.
    package enum Kind: Sendable {
        /// Sets header fields and removes others.
        case headers(set: [Binding], remove: [Located<String>])
        /// Sets `Authorization: Bearer <token>`.
        case bearer(token: ValueTemplate)
        /// Sets `Authorization: Basic <base64(user:password)>`.
        case basic(username: ValueTemplate, password: ValueTemplate)
        /// Sends an API key in a header or a query parameter.
        case apiKey(placement: APIKeyPlacement, value: ValueTemplate)
        /// Adds query parameters.
        case query([Binding])
        /// On one of `statuses` (`when: { status: 401 }` by default), runs the on-demand `step`, then replays the request once.
        case refresh(statuses: [Int], step: Located<String>)
        /// Signs the request with HMAC-SHA256 over method, path, body and timestamp.
        case sign(HMACSigning)
        /// Replaces a JSON response body by the value at a pointer, unwrapping a `data:` envelope.
        case unwrap(JSONPointer)
        /// Places a JSON request body at a pointer inside an envelope built from values: the reverse of `unwrap`.
        case wrap(at: JSONPointer, envelope: ValueTemplate?)
        /// Encrypts the request body into a JWE compact token (`alg: dir`, AES-GCM), sent as `application/jose`.
        case encrypt(PayloadEncryption)
        /// Decrypts JWE compact response bodies (`alg: dir`, AES-GCM) with the shared key.
        case decrypt(key: ValueTemplate)
        /// An interceptor that the embedding Swift program registered under `name`.
        case custom(name: Located<String>, arguments: [Binding])
    }

    /// Creates a declaration.
    /// - Parameters:
    ///   - name: The interceptor's name.
    ///   - kind: What it does.
    package init(name: Located<String>, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// Where an API-key interceptor puts the key.
package enum APIKeyPlacement: Sendable, Hashable {
    /// In the named header field.
    case header(String)
    /// In the named query parameter.
    case query(String)
}

/// How a `sign:` interceptor signs requests.
package struct HMACSigning: Sendable {
    /// The secret key.
    package var key: ValueTemplate
    /// The header field that receives the hex signature; `X-Signature` by default.
    package var header: String
    /// The header field that receives the Unix timestamp; `X-Timestamp` by default.
    package var timestampHeader: String

    /// Creates a signing configuration.
    /// - Parameters:
    ///   - key: The secret key.
    ///   - header: The signature header field.
    ///   - timestampHeader: The timestamp header field.
    package init(key: ValueTemplate, header: String = "X-Signature", timestampHeader: String = "X-Timestamp") {
        self.key = key
        self.header = header
        self.timestampHeader = timestampHeader
    }
}
