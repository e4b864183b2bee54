import FlowCore

/// What messages and logs may say about a request: `METHOD url` with secrets removed, and the
/// `host:port` it goes to.
///
/// Parsing is deliberately shallow — split at `://`, the first `/`, `?` and `#` — because it only
/// feeds messages and the scheme check; AsyncHTTPClient parses the URL it sends.
struct RequestTarget: Sendable, CustomStringConvertible {
    /// `METHOD url`, without user info or fragment, with every secret that `redactor` knows and the values of
    /// credential-like query parameters replaced.
    ///
    /// Built when asked — for an error or a debug log — not for every request: redacting the query
    /// costs several microseconds.
    /// - Parameter redactor: The run's redactor, from ``StepContext/redactor``.
    func description(redactedBy redactor: SecretRedactor) -> String {
        var url = (scheme.map { "\($0)://" } ?? "") + self.url[hostAndPort] + self.url[path]
        if let query { url += "?" + self.url[query] }
        return "\(method) \(redactor.redact(url: url))"
    }

    /// ``description(redactedBy:)`` with a redactor that knows no literal secret.
    var description: String { description(redactedBy: SecretRedactor()) }

    /// The scheme, lower-cased, or `nil` when the URL has no `://`.
    let scheme: String?
    /// The host as written, IPv6 addresses in brackets; empty when the URL has none.
    var host: String { String(url[hostRange]) }
    /// Whether the URL names a host.
    var hasHost: Bool { !hostRange.isEmpty }
    /// The port the URL names, or `nil` when it names none (or not a number).
    var portNumber: Int? { port.flatMap { Int(url[$0]) } }
    /// `host:port`, with the scheme's default port when the URL names none.
    ///
    /// Built when asked, for a failure's message.
    var authority: String {
        let defaultPort = scheme == "https" ? "443" : "80"
        return "\(url[hostRange]):\(port.map { String(url[$0]) } ?? defaultPort)"
    }
    /// The request's method and URL; the ranges below are positions in `url`.
    private let method: String
    private let url: String
    private let hostAndPort: Range<String.Index>
    private let hostRange: Range<String.Index>
    private let port: Range<String.Index>?
    private let path: Range<String.Index>
    private let query: Range<String.Index>?

    /// Reads the parts of `request`'s URL that messages need.
    ///
    /// An ASCII URL — nearly every URL, since values bound into it are percent-encoded — is split
    /// on its bytes, any other on its Characters. For ASCII text both find the same positions: each
    /// delimiter is a Character of its own. This runs for every request, and the byte search costs a
    /// fraction of the Character one.
    /// - Parameter request: The request to describe.
    init(_ request: StepRequest) {
        let url = request.url
        let utf8 = url.utf8
        let byteParts = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 >= 0x80 } ? nil : Self.split(bytes) { $0 == UInt8(ascii: $1) }
        }
        let parts =
            if let byteParts = byteParts.flatMap({ $0 }) {
                // Offsets into native UTF-8 storage become String indices in constant time.
                byteParts.map { utf8.index(utf8.startIndex, offsetBy: $0) }
            } else {
                Self.split(url) { $0 == Character($1) }
            }
        self.method = request.method
        self.url = url
        self.scheme = parts.scheme.map { Self.lowercasedScheme(url[$0]) }
        self.hostAndPort = parts.hostAndPort
        self.hostRange = parts.host
        self.port = parts.port
        self.path = parts.path
        self.query = parts.query
    }

    /// Where the parts of a URL are, as byte offsets or as String indices.
    private struct Parts<Index: Comparable> {
        var scheme: Range<Index>?
        var hostAndPort: Range<Index>
        var host: Range<Index>
        var port: Range<Index>?
        var path: Range<Index>
        var query: Range<Index>?

        /// The same parts with every position converted.
        func map<Other: Comparable>(_ convert: (Index) -> Other) -> Parts<Other> {
            func range(_ range: Range<Index>) -> Range<Other> { convert(range.lowerBound)..<convert(range.upperBound) }
            return Parts<Other>(
                scheme: scheme.map(range), hostAndPort: range(hostAndPort), host: range(host), port: port.map(range),
                path: range(path), query: query.map(range))
        }
    }

    /// Splits a URL at `://`, the first `/`, `?` and `#`, and its authority into host and port.
    ///
    /// - Parameters:
    ///   - view: The URL's UTF-8 bytes or the URL itself.
    ///   - matches: Whether an element is the given ASCII delimiter.
    private static func split<View: BidirectionalCollection>(
        _ view: View, _ matches: (View.Element, Unicode.Scalar) -> Bool
    ) -> Parts<View.Index> where View.SubSequence: BidirectionalCollection {
        let withoutFragment = view[..<(view.firstIndex { matches($0, "#") } ?? view.endIndex)]
        let queryMark = withoutFragment.firstIndex { matches($0, "?") }
        let beforeQuery = withoutFragment[..<(queryMark ?? withoutFragment.endIndex)]
        let query = queryMark.map { withoutFragment.index(after: $0)..<withoutFragment.endIndex }

        guard let separator = schemeSeparator(beforeQuery, matches) else {
            let empty = beforeQuery.startIndex..<beforeQuery.startIndex
            return Parts(
                scheme: nil, hostAndPort: empty, host: empty, port: nil,
                path: beforeQuery.startIndex..<beforeQuery.endIndex, query: query)
        }
        let rest = beforeQuery[separator.upperBound...]
        let pathStart = rest.firstIndex { matches($0, "/") } ?? rest.endIndex
        let authority = rest[..<pathStart]
        // User info (`user:password@`) is dropped: it is a credential.
        let hostAndPort =
            authority.lastIndex { matches($0, "@") }.map { authority[authority.index(after: $0)...] } ?? authority

        // `host:port`, keeping an IPv6 literal's brackets; the port is `nil` when absent or empty.
        let portColon: View.Index?
        if let first = hostAndPort.first, matches(first, "[") {
            let closing = hostAndPort.firstIndex { matches($0, "]") } ?? hostAndPort.endIndex
            let afterClosing = closing == hostAndPort.endIndex ? closing : hostAndPort.index(after: closing)
            portColon = hostAndPort[afterClosing...].first.map { matches($0, ":") } == true ? afterClosing : nil
        } else {
            portColon = hostAndPort.lastIndex { matches($0, ":") }
        }
        var host = hostAndPort.startIndex..<hostAndPort.endIndex
        var port: Range<View.Index>?
        if let portColon {
            host = hostAndPort.startIndex..<portColon
            let afterColon = hostAndPort.index(after: portColon)
            port = afterColon == hostAndPort.endIndex ? nil : afterColon..<hostAndPort.endIndex
        }
        return Parts(
            scheme: beforeQuery.startIndex..<separator.lowerBound,
            hostAndPort: hostAndPort.startIndex..<hostAndPort.endIndex, host: host, port: port,
            path: pathStart..<rest.endIndex, query: query)
    }

    /// The first `://`: three consecutive elements.
    private static func schemeSeparator<View: BidirectionalCollection>(
        _ view: View, _ matches: (View.Element, Unicode.Scalar) -> Bool
    ) -> Range<View.Index>? {
        var index = view.startIndex
        while let colon = view[index...].firstIndex(where: { matches($0, ":") }) {
            var end = view.index(after: colon)
            var slashes = 0
            while slashes < 2, end != view.endIndex, matches(view[end], "/") {
                slashes += 1
                end = view.index(after: end)
            }
            if slashes == 2 { return colon..<end }
            index = view.index(after: colon)
        }
        return nil
    }

    /// The scheme lower-cased, as `lowercased()` gives it; `http` and `https` without the Unicode machinery.
    private static func lowercasedScheme(_ scheme: Substring) -> String {
        let known = scheme.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            // `| 0x20` lower-cases a letter; only `H`, `T`, `P` and `S` become the letters compared with.
            func equals(_ word: StaticString) -> Bool {
                bytes.count == word.utf8CodeUnitCount
                    && bytes.indices.allSatisfy { bytes[$0] | 0x20 == word.utf8Start[$0] }
            }
            return equals("http") ? "http" : equals("https") ? "https" : nil
        }
        return known.flatMap { $0 } ?? scheme.lowercased()
    }

    /// Whether `other` has the same origin: scheme, host (ignoring case) and effective port.
    func hasSameOrigin(as other: RequestTarget) -> Bool {
        scheme == other.scheme && authority.lowercased() == other.authority.lowercased()
    }

    /// The absolute URL a `Location` value names, resolved against this URL: an absolute URL as it is, a
    /// network-path (`//host/p`) with this scheme, an absolute path (`/p`) on this origin, and a relative
    /// path (`p`, `?q`) against this path.
    func resolve(_ location: String) -> String {
        if location.contains("://") { return location }
        let origin = (scheme.map { "\($0):" } ?? "")
        if location.hasPrefix("//") { return origin + location }
        let base = origin + "//" + url[hostAndPort]
        if location.hasPrefix("/") { return base + location }
        if location.hasPrefix("?") { return base + url[path] + location }
        let directory = url[path].lastIndex(of: "/").map { url[path][...$0] } ?? "/"
        return base + directory + location
    }
}
