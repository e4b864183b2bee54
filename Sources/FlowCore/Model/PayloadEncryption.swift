/// How an `encrypt:` interceptor encrypts request bodies: JWE compact serialization (RFC 7516) with direct
/// key agreement (`alg: dir`) and AES-GCM.
package struct PayloadEncryption: Sendable {
    /// The content-encryption algorithm (`enc`).
    package enum Algorithm: String, Sendable, CaseIterable {
        /// AES-GCM with a 128-bit key.
        case a128gcm = "A128GCM"
        /// AES-GCM with a 256-bit key.
        case a256gcm = "A256GCM"

        /// The key length the algorithm needs, in bytes.
        package var keyLength: Int {
            switch self {
            case .a128gcm: 16
            case .a256gcm: 32
            }
        }
    }

    /// The shared key, base64url-encoded (padding optional): a secret input or var.
    package var key: ValueTemplate
    /// The content-encryption algorithm; `A256GCM` by default.
    package var algorithm: Algorithm

    /// Creates an encryption setting.
    /// - Parameters:
    ///   - key: The base64url-encoded key.
    ///   - algorithm: The content-encryption algorithm.
    package init(key: ValueTemplate, algorithm: Algorithm = .a256gcm) {
        self.key = key
        self.algorithm = algorithm
    }
}
