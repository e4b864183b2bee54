import FlowCore

/// The checks a request passes before anything is sent.
///
/// AsyncHTTPClient rejects bad header fields too, but only after the request left the engine's
/// hands, and its error lists the offending values, which may be secrets. Checking here lets the
/// message name the header and guarantees that no connection is opened for a request that
/// carries an injected header line.
enum RequestPreflight {
    /// Throws when `request` cannot be sent safely.
    /// - Parameters:
    ///   - request: The request to check.
    ///   - target: Its parsed URL.
    /// - Throws: ``FlowError`` ``FlowError/Code/binding`` for a header field that is not valid HTTP,
    ///   ``FlowError/Code/invalidValue`` for a method that is not a token or a URL without a host,
    ///   and ``FlowError/Code/unsupported`` for a scheme other than `http` and `https`.
    static func check(_ request: StepRequest, target: RequestTarget) throws(FlowError) {
        guard isToken(request.method) else {
            throw FlowError(
                .invalidValue,
                "the method '\(escaped(request.method))' is not a valid HTTP method; the request was not sent"
            )
        }
        guard let scheme = target.scheme else {
            throw FlowError(.invalidValue, "the URL is not absolute: it must start with http:// or https://")
        }
        guard scheme == "http" || scheme == "https" else {
            throw FlowError(.unsupported, "the http dispatcher sends http and https URLs only, not \(scheme)://")
        }
        guard target.hasHost else {
            throw FlowError(.invalidValue, "the URL has no host")
        }
        for field in request.headers {
            guard isToken(field.name) else {
                throw FlowError(
                    .binding,
                    "the header name '\(escaped(field.name))' is not a valid HTTP field name "
                        + "(letters, digits and !#$%&'*+-.^_`|~ only); the request was not sent"
                )
            }
            // The value is never quoted: it may be a token or a password.
            if let problem = problem(in: field.value) {
                throw FlowError(
                    .binding,
                    "the value of header '\(field.name)' contains \(problem), which HTTP does not allow "
                        + "in a header; the request was not sent"
                )
            }
        }
    }

    /// Whether `text` is an RFC 9110 token: one or more of letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// What makes `value` unsendable, or `nil`: a line break, or another control character
    /// (RFC 9110 allows horizontal tab and visible characters only).
    static func problem(in value: String) -> String? {
        // From contiguous storage when there is one: iterating `utf8` costs several times more.
        value.utf8.withContiguousStorageIfAvailable(problem(in:)) ?? problem(in: value.utf8)
    }

    /// What makes the UTF-8 bytes of a header value unsendable, or `nil`.
    private static func problem(in bytes: some Sequence<UInt8>) -> String? {
        var hasControl = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                return "a line break (CR or LF)"
            case UInt8(ascii: "\t"):
                continue
            case 0x00...0x1F, 0x7F:
                hasControl = true
            default:
                continue
            }
        }
        return hasControl ? "a control character" : nil
    }

    /// `text` with control characters written as escapes, so a message stays on one line.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": result += "\\r"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
