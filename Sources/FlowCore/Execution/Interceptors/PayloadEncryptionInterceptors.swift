import Foundation

/// Encrypts request bodies into JWE compact tokens: the `encrypt:` interceptor kind.
///
/// The body is encrypted as it is at this point of the chain (list `wrap` before `encrypt`), with its
/// `Content-Type` as the token's `cty`; the request is sent with `Content-Type: application/jose`. A request
/// without a body is sent as it is. The key is registered as a secret before it is used, so it never reaches a
/// log, a report or an error.
struct EncryptInterceptor: RequestRewritingInterceptor {
    let encryption: PayloadEncryption
    let scope: RunScope
    let redactor: SecretRedactor

    func rewrite(_ request: StepRequest, context: StepContext) throws -> StepRequest {
        guard let body = request.body, !body.isEmpty else { return request }
        let key = try PayloadKey.bytes(of: encryption.key, in: scope, redactor: redactor)
        var request = request
        do {
            let token = try JWE.encrypt(
                body, key: key, algorithm: encryption.algorithm, contentType: request.headers["Content-Type"])
            request.body = Array(token.utf8)
        } catch {
            throw FlowError(.interceptor, "cannot encrypt the request body: \(error.message)")
        }
        request.headers.set("Content-Type", PayloadKey.joseMediaType)
        return request
    }
}

/// Decrypts JWE compact response bodies: the `decrypt:` interceptor kind.
///
/// A success (2xx) response must be encrypted — a plain body where an encrypted one is expected is a `decode`
/// failure, not something to trust. An error response is decrypted when it is `application/jose` and passed on
/// as it is otherwise (gateways answer errors in plain JSON). The plaintext replaces the body, and its media type
/// (the token's `cty`, `application/json` without one) replaces `Content-Type`.
struct DecryptInterceptor: ResponseRewritingInterceptor {
    let key: ValueTemplate
    let scope: RunScope
    let redactor: SecretRedactor

    func rewrite(_ response: StepResponse, context: StepContext) throws -> StepResponse {
        var response = response
        let isJOSE = response.headers["Content-Type"].map(PayloadKey.isJOSE) ?? false
        let isSuccess = (200..<300).contains(response.status)
        guard isJOSE || isSuccess, !response.body.isEmpty else { return response }
        let key = try PayloadKey.bytes(of: key, in: scope, redactor: redactor)
        do {
            let (plaintext, contentType) = try JWE.decrypt(String(decoding: response.body, as: UTF8.self), key: key)
            response.body = plaintext
            response.headers.set("Content-Type", contentType ?? "application/json")
        } catch {
            var failure = FlowError(
                .decode, "cannot decrypt the response (status \(response.status)): \(error.message)")
            failure.status = response.status
            failure.stepID = context.stepID
            throw failure
        }
        return response
    }
}

/// The key of the `encrypt` and `decrypt` interceptors.
enum PayloadKey {
    static let joseMediaType = "application/jose"

    /// Whether a `Content-Type` value is `application/jose` (parameters ignored).
    static func isJOSE(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased() == joseMediaType
    }

    /// The key's bytes, from its base64url text, registered as a secret first.
    static func bytes(of template: ValueTemplate, in scope: RunScope, redactor: SecretRedactor) throws(FlowError)
        -> [UInt8]
    {
        let text = try scope.evaluateText(template)
        redactor.add(.string(text))
        guard let key = Base64URL.decode(text), !key.isEmpty else {
            throw FlowError(.interceptor, "the encryption key is not base64url text (RFC 4648 §5)")
        }
        return key
    }
}
