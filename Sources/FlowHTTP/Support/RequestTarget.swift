import FlowCore

/// What messages and logs may say about a request: `METHOD url` with secrets removed, and the
/// `host:port` it goes to.
///
/// Parsing is deliberately shallow — split at `://`, the first `/`, `?` and `#` — because it only
/// feeds messages and the scheme check; AsyncHTTPClient parses the URL it sends.
struct RequestTarget: Sendable, CustomStringConvertible {
    /// The words that make a query parameter's value a secret when its name contains one,
    /// case-insensitively: `api_key`, `access_token`, `client_secret`, `X-Amz-Signature`.
    private static let secretNameFragments = ["key", "token", "secret", "password", "signature"]

    /// The replacement for a secret query value.
    static let redaction = "***"

    /// `METHOD url`, without user info or fragment, and with secret query values replaced.
    ///
    /// Built when asked — for an error or a debug log — not for every request: redacting the query
    /// costs several microseconds.
    var description: String {
        var redacted = (scheme.map { "\($0)://" } ?? "") + hostAndPort + path
        if let query {
            redacted += "?" + Self.redactQuery(query)
        }
        return "\(method) \(redacted)"
    }
    /// The scheme, lower-cased, or `nil` when the URL has no `://`.
    let scheme: String?
    /// The host as written, IPv6 addresses in brackets; empty when the URL has none.
    let host: String
    /// `host:port`, with the scheme's default port when the URL names none.
    let authority: String
    /// The parts of the request that ``description`` shows.
    private let method: String
    private let hostAndPort: Substring
    private let path: Substring
    private let query: Substring?

    /// Reads the parts of `request`'s URL that messages need.
    /// - Parameter request: The request to describe.
    init(_ request: StepRequest) {
        let url = request.url[...]
        let withoutFragment = url[..<(url.firstIndex(of: "#") ?? url.endIndex)]
        let queryMark = withoutFragment.firstIndex(of: "?")
        let beforeQuery = withoutFragment[..<(queryMark ?? withoutFragment.endIndex)]

        var scheme: String?
        var hostAndPort: Substring = ""
        var path = beforeQuery
        if let separator = beforeQuery.firstRange(of: "://") {
            scheme = beforeQuery[..<separator.lowerBound].lowercased()
            let rest = beforeQuery[separator.upperBound...]
            let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[..<pathStart]
            // User info (`user:password@`) is dropped: it is a credential.
            hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
            path = rest[pathStart...]
        }

        let (host, port) = Self.split(hostAndPort)
        let defaultPort = scheme == "https" ? "443" : "80"
        self.scheme = scheme
        self.host = String(host)
        self.authority = "\(host):\(port.map(String.init) ?? defaultPort)"

        self.method = request.method
        self.hostAndPort = hostAndPort
        self.path = path
        self.query = queryMark.map { withoutFragment[withoutFragment.index(after: $0)...] }
    }

    /// Splits `host:port`, keeping an IPv6 literal's brackets; the port is `nil` when absent or empty.
    private static func split(_ hostAndPort: Substring) -> (host: Substring, port: Substring?) {
        let portColon: Substring.Index?
        if hostAndPort.first == "[" {
            let closing = hostAndPort.firstIndex(of: "]") ?? hostAndPort.endIndex
            let afterClosing = closing == hostAndPort.endIndex ? closing : hostAndPort.index(after: closing)
            portColon = hostAndPort[afterClosing...].first == ":" ? afterClosing : nil
        } else {
            portColon = hostAndPort.lastIndex(of: ":")
        }
        guard let portColon else { return (hostAndPort, nil) }
        let port = hostAndPort[hostAndPort.index(after: portColon)...]
        return (hostAndPort[..<portColon], port.isEmpty ? nil : port)
    }

    /// Replaces the values of secret-looking parameters in a raw query, keeping everything else
    /// byte for byte.
    static func redactQuery(_ query: Substring) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "="), isSecretName(pair[..<equals]) else { return String(pair) }
            return pair[...equals] + redaction
        }.joined(separator: "&")
    }

    /// Whether a query parameter named `name` probably carries a secret: its name contains `key`,
    /// `token`, `secret`, `password` or `signature`, or has `sig` as a word.
    static func isSecretName(_ name: Substring) -> Bool {
        let lowered = name.lowercased()
        if secretNameFragments.contains(where: { lowered.contains($0) }) { return true }
        return lowered.split { !$0.isLetter && !$0.isNumber }.contains("sig")
    }
}
