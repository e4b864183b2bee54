/// How an `encrypt:` interceptor encrypts request bodies: JWE compact serialization (RFC 7516) with direct
/// key agreement (`alg: dir`) and AES-GCM.
public struct PayloadEncryption: Sendable {
    /// The content-encryption algorithm (`enc`).
    public enum Algorithm: String, Sendable, CaseIterable {
        /// AES-GCM with a 128-bit key.
        case a128gcm = "A128GCM"
        /// AES-GCM with a 256-bit key.
        case a256gcm = "A256GCM"

        /// The key length the algorithm needs, in bytes.
        public var keyLength: Int {
            switch self {
            case .a128gcm: 16
            case .a256gcm: 32
            }
        }
    }

    /// The shared key, base64url-encoded (padding optional): a secret input or var.
    public var key: ValueTemplate
    /// The content-encryption algorithm; `A256GCM` by default.
    public var algorithm: Algorithm

    /// Creates an encryption setting.
    /// - Parameters:
    ///   - key: The base64url-encoded key.
    ///   - algorithm: The content-encryption algorithm.
    public init(key: ValueTemplate, algorithm: Algorithm = .a256gcm) {
        self.key = key
        self.algorithm = algorithm
    }
}
