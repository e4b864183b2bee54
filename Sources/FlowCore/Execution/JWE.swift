import Crypto

/// JWE compact serialization (RFC 7516) with direct key agreement (`alg: dir`) and AES-GCM (RFC 7518 §5.3):
/// what the `encrypt:` and `decrypt:` interceptors send and read.
///
/// A token is five base64url parts joined by dots: the protected header, an empty encrypted key (`dir`),
/// the 96-bit IV, the ciphertext and the 128-bit tag. The additional authenticated data is the encoded
/// protected header, exactly as it appears in the token.
enum JWE {
    /// Why a token could not be made or read. The messages never quote the key.
    struct Failure: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Encrypts `plaintext` into a compact token.
    /// - Parameters:
    ///   - plaintext: The bytes to encrypt.
    ///   - key: The content-encryption key; its length must suit `algorithm`.
    ///   - algorithm: `A128GCM` or `A256GCM`.
    ///   - contentType: The media type of the plaintext, put in the header as `cty` when given.
    /// - Returns: The token.
    static func encrypt(
        _ plaintext: [UInt8], key: [UInt8], algorithm: PayloadEncryption.Algorithm, contentType: String?
    ) throws(Failure) -> String {
        try checkLength(of: key, for: algorithm)
        var header: [String: JSONValue] = ["alg": "dir", "enc": .string(algorithm.rawValue)]
        if let contentType { header["cty"] = .string(contentType) }
        let encodedHeader = Base64URL.encode(JSONValue.object(header).serializedBytes())
        do {
            let sealed = try AES.GCM.seal(
                plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(),
                authenticating: Array(encodedHeader.utf8))
            return [
                encodedHeader, "", Base64URL.encode(Array(sealed.nonce)), Base64URL.encode(Array(sealed.ciphertext)),
                Base64URL.encode(Array(sealed.tag)),
            ].joined(separator: ".")
        } catch {
            throw Failure("AES-GCM encryption failed: \(error)")
        }
    }

    /// Decrypts a compact token.
    /// - Parameters:
    ///   - token: The token (surrounding whitespace is ignored).
    ///   - key: The content-encryption key.
    /// - Returns: The plaintext and the header's `cty`, if any.
    static func decrypt(_ token: String, key: [UInt8]) throws(Failure) -> (plaintext: [UInt8], contentType: String?) {
        let parts = token.trimmingASCIIWhitespace().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5 else {
            throw Failure("not a JWE compact token: it has \(parts.count) dot-separated parts, not 5")
        }
        guard let headerBytes = Base64URL.decode(parts[0]),
            case .object(let header)? = try? JSONValue(parsing: headerBytes)
        else { throw Failure("the JWE protected header is not base64url-encoded JSON") }
        guard header["alg"] == "dir" else {
            throw Failure("unsupported JWE 'alg' \(header["alg"].map { $0.serialized() } ?? "(none)"); flowrun reads 'dir'")
        }
        guard case .string(let enc)? = header["enc"], let algorithm = PayloadEncryption.Algorithm(rawValue: enc) else {
            throw Failure(
                "unsupported JWE 'enc' \(header["enc"].map { $0.serialized() } ?? "(none)"); flowrun reads A128GCM and A256GCM")
        }
        if header["zip"] != nil { throw Failure("compressed JWE payloads ('zip') are not supported") }
        if case .array(let critical)? = header["crit"], !critical.isEmpty {
            throw Failure("the JWE header lists critical extensions ('crit') that flowrun does not understand")
        }
        guard parts[1].isEmpty else { throw Failure("a JWE with 'alg: dir' has an empty encrypted key") }
        try checkLength(of: key, for: algorithm)
        guard let iv = Base64URL.decode(parts[2]), let ciphertext = Base64URL.decode(parts[3]),
            let tag = Base64URL.decode(parts[4])
        else { throw Failure("the JWE IV, ciphertext or tag is not base64url") }
        // RFC 7518 §5.3: a 96-bit IV and a 128-bit tag; anything else is not a token of this algorithm.
        guard iv.count == 12, tag.count == 16 else {
            throw Failure("the JWE IV must be 96 bits and its tag 128 bits; found \(iv.count * 8) and \(tag.count * 8)")
        }
        let plaintext: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
            plaintext = Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: Array(parts[0].utf8)))
        } catch {
            throw Failure("the JWE does not decrypt with the configured key (wrong key, or the token was altered)")
        }
        let contentType: String? = if case .string(let type)? = header["cty"] { type } else { nil }
        return (plaintext, contentType)
    }

    private static func checkLength(of key: [UInt8], for algorithm: PayloadEncryption.Algorithm) throws(Failure) {
        guard key.count == algorithm.keyLength else {
            throw Failure(
                "\(algorithm.rawValue) needs a \(algorithm.keyLength * 8)-bit key (\(algorithm.keyLength) bytes, "
                    + "base64url-encoded); the key has \(key.count) bytes")
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs and line breaks.
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
