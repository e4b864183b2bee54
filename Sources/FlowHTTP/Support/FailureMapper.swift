import AsyncHTTPClient
import FlowCore
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns whatever a request threw into the ``FlowError`` a workflow's `catch` rules and the run
/// report see: a code, a message that names the host but no secret, the step, attempt and request,
/// and the original error as the cause.
struct FailureMapper {
    /// How far the request got when it failed; it decides the wording and whether a status is known.
    enum Phase {
        /// The request was refused before anything was sent.
        case beforeSending
        /// Connecting, sending, or waiting for the response head.
        case waitingForHead
        /// The head arrived with `status`; the body did not arrive completely.
        case readingBody(status: Int)
    }

    /// The request's description and address.
    let target: RequestTarget
    /// The step and attempt.
    let context: StepContext
    /// The attempt's time limit, for timeout messages.
    let timeout: Duration?
    /// The body size limit, for the message when it is exceeded.
    let maxResponseBodySize: Int
    /// Whether the client limits a compressed body by its inflated size (``maxResponseBodySize``) rather than by
    /// its compression ratio.
    var limitsInflatedSize = false
    /// The proxy the request went through, if any: a transport failure's message names it, as the failure may
    /// be the proxy's.
    var proxy: ProxyServer?

    /// Maps `error`, thrown during `phase`, to a ``FlowError`` with the step, attempt and request set.
    func map(_ error: any Error, phase: Phase) -> FlowError {
        var result: FlowError
        if let flowError = error as? FlowError {
            result = flowError
        } else if Task.isCancelled || error is CancellationError || (error as? HTTPClientError) == .cancelled {
            // Checked first: a cancelled request also fails with whatever AsyncHTTPClient saw last.
            result = FlowError(.cancelled, "the request was cancelled", underlyingError: error)
        } else {
            var (code, message) = describe(error, phase: phase)
            if let proxy, code == .transport { message += " (through the proxy \(proxy))" }
            result = FlowError(code, message, underlyingError: error)
        }
        result.stepID = result.stepID ?? context.stepID
        result.attempt = result.attempt ?? context.attempt
        result.request = result.request ?? target.description(redactedBy: context.redactor)
        if case .readingBody(let status) = phase {
            result.status = result.status ?? status
        }
        return context.redactor.redact(result)
    }

    /// The code and message for a foreign error.
    private func describe(_ error: any Error, phase: Phase) -> (FlowError.Code, String) {
        let authority = target.authority
        let closed =
            if case .readingBody = phase {
                "\(authority) closed the connection before the whole response body arrived"
            } else {
                "\(authority) closed the connection without answering"
            }
        let limit = timeout.map(Self.text(for:))

        switch error {
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded:
                if case .readingBody = phase {
                    return (.attemptTimeout, Self.bodyTimeout(limit))
                }
                return (.attemptTimeout, limit.map { "no response within \($0)" } ?? "no response in time")
            case .remoteConnectionClosed:
                return (.transport, closed)
            case .connectTimeout:
                return (.transport, "connecting to \(authority) timed out")
            case .tlsHandshakeTimeout:
                return (.transport, "TLS handshake with \(authority) timed out")
            case .readTimeout:
                return (.transport, "\(authority) stopped sending (read timeout)")
            case .writeTimeout:
                return (.transport, "\(authority) stopped accepting the request (write timeout)")
            case .redirectLimitReached:
                return (.transport, "the server redirected more often than the redirect limit allows")
            case .redirectCycleDetected:
                return (.transport, "the server's redirects form a cycle")
            case .invalidURL, .emptyHost, .emptyScheme:
                return (.transport, "the URL is not a valid http or https URL")
            default:
                // `HTTPClientError`'s description never includes header values.
                return (.transport, "request to \(authority) failed: \(error)")
            }

        case let error as NIOConnectionError:
            let address = "\(error.host):\(error.port)"
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return (.transport, "could not resolve host '\(error.host)'")
            }
            guard let failure = error.connectionErrors.first else {
                return (.transport, "could not connect to \(address)")
            }
            return (
                .transport, Self.socketMessage(failure.error, address: address) ?? "could not connect to \(address)"
            )

        case is NIOTooManyBytesError:
            // The configured limit, whatever the error carries: a chunked body's collector reports its own.
            return (.transport, Self.bodyTooLarge(maxResponseBodySize, inflated: false))

        case NIOHTTPDecompression.DecompressionError.limit:
            guard limitsInflatedSize else {
                return (
                    .transport,
                    "the compressed response body inflates more than the HTTP client's decompression limit allows "
                        + "(HTTPClient.shared refuses 25 times its compressed size; use "
                        + "AsyncHTTPClientDispatcher.withDispatcher, which limits the inflated size to "
                        + "maxResponseBodySize, or a client configured with decompression: .enabled(limit: .size(…)))"
                )
            }
            return (.transport, Self.bodyTooLarge(maxResponseBodySize, inflated: true))

        case let error as NIOSSLError:
            switch error {
            case .handshakeFailed(let reason):
                return (.transport, "TLS handshake with \(authority) failed: \(Self.text(for: reason))")
            case .uncleanShutdown:
                return (.transport, "\(authority) ended the TLS connection without closing it cleanly")
            default:
                return (.transport, "TLS error with \(authority): \(error)")
            }

        case let error as BoringSSLError:
            return (.transport, "TLS handshake with \(authority) failed: \(Self.text(for: error))")

        case let error as NIOSSLExtraError:
            return (.transport, "TLS handshake with \(authority) failed: \(error)")

        case let error as HTTPParserError:
            if case .invalidEOFState = error { return (.transport, closed) }
            return (.transport, "\(authority) answered with something that is not HTTP/1.1 (\(error))")

        case let error as ChannelError:
            switch error {
            case .connectTimeout:
                return (.transport, "connecting to \(authority) timed out")
            case .eof, .ioOnClosedChannel, .alreadyClosed, .inputClosed, .outputClosed:
                return (.transport, closed)
            default:
                return (.transport, "request to \(authority) failed: \(error)")
            }

        default:
            if let message = Self.socketMessage(error, address: authority) {
                return (.transport, message)
            }
            return (.transport, "request to \(authority) failed: \(error)")
        }
    }

    /// The message for a body over the size limit; `inflated` when it was compressed and is too large inflated.
    static func bodyTooLarge(_ size: Int, inflated: Bool) -> String {
        "the response body is larger than \(ByteCount(size))\(inflated ? " once decompressed" : "") (the response "
            + "body size limit; raise it with flowrun run --max-body-size, or "
            + "AsyncHTTPClientDispatcher.Configuration.maxResponseBodySize)"
    }

    /// The message for an attempt timeout that passed while the response body was still arriving.
    static func bodyTimeout(_ limit: String?) -> String {
        "the response started, but its body did not finish arriving "
            + (limit.map { "within \($0) (the attempt timeout)" } ?? "in time")
    }

    /// A message for a socket error, or `nil` when `error` is not one.
    private static func socketMessage(_ error: any Error, address: String) -> String? {
        if let channelError = error as? ChannelError, case .connectTimeout = channelError {
            return "connecting to \(address) timed out"
        }
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case ECONNREFUSED: return "connection refused by \(address)"
        case ECONNRESET: return "connection reset by \(address)"
        case ETIMEDOUT: return "connecting to \(address) timed out"
        case EHOSTUNREACH, ENETUNREACH: return "\(address) is unreachable"
        case EPIPE: return "\(address) closed the connection while the request was being sent"
        default: return "could not connect to \(address): \(error)"
        }
    }

    /// BoringSSL's reasons, such as `WRONG_VERSION_NUMBER` or `CERTIFICATE_VERIFY_FAILED`, without
    /// the error codes and the source paths of the library.
    private static func text(for error: BoringSSLError) -> String {
        switch error {
        case .sslError(let stack), .unknownError(let stack):
            stack.isEmpty ? "\(error)" : stack.map { reason(in: "\($0)") }.joined(separator: "; ")
        default:
            "\(error)"
        }
    }

    /// The reason of one BoringSSL error, written
    /// `Error: 268435703 error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER at path:line`;
    /// the whole text when it has another shape.
    private static func reason(in description: String) -> String {
        guard let start = description.firstRange(of: "error:")?.upperBound else { return description }
        let end = description[start...].firstRange(of: " at ")?.lowerBound ?? description.endIndex
        return description[start..<end].split(separator: ":").last.map(String.init) ?? description
    }

    /// A duration as workflow files write it, rounded to the millisecond: `250ms`, `2s`, `1.5s`, `2m`, `1h`.
    static func text(for duration: Duration) -> String {
        duration.roundedText
    }
}
