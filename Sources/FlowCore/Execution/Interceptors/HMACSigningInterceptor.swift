import Crypto
import Foundation

/// Signs each request with HMAC-SHA256: the `sign:` interceptor kind.
///
/// The signed string is `METHOD\npath?query\ntimestamp\nbody` (the body as
/// sent, empty when there is none); the hex signature goes in the configured
/// header and the Unix timestamp in the timestamp header. Because it signs the
/// request as it leaves, list it after interceptors that change the request.
struct HMACSigningInterceptor: Interceptor {
    let signing: HMACSigning
    let scope: RunScope
    let redactor: SecretRedactor
    let unixTime: @Sendable () -> Int64

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        var request = request
        let key = try scope.evaluateText(signing.key)
        redactor.add(.string(key))
        let timestamp = String(unixTime())
        let signature = Self.signature(of: request, timestamp: timestamp, key: key)
        request.headers.set(signing.timestampHeader, timestamp)
        request.headers.set(signing.header, signature)
        return try await next(request, context)
    }

    /// The lowercase hex HMAC-SHA256 of the request's canonical string.
    static func signature(of request: StepRequest, timestamp: String, key: String) -> String {
        let target = request.query.map { "\(request.path)?\($0)" } ?? request.path
        var message = Array("\(request.method)\n\(target)\n\(timestamp)\n".utf8)
        message += request.body ?? []
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Array(key.utf8)))
        return code.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// The wall clock, for signature timestamps.
enum WallClock {
    /// Seconds since 1970.
    @Sendable static func unixTime() -> Int64 { Int64(Date().timeIntervalSince1970) }
}
