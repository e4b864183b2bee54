/// An HTTP proxy's URL, read: `http://[user[:password]@]host[:port][/]`, or the same without `http://`.
///
/// `flowrun run --proxy`, the proxy environment variables and a server's `proxy:` are all read by this one
/// parser, so `flowrun lint` refuses the same URLs a run would. Its ``description`` never shows the credentials.
package struct ProxyURL: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or address, without the brackets of an IPv6 literal.
    package var host: String
    /// The proxy's port; 1080 when the URL names none, as in curl.
    package var port: Int
    /// The user name, percent-decoded, if the URL has credentials.
    package var username: String?
    /// The password, percent-decoded; empty when the URL has a user name only.
    package var password: String?

    /// Reads a proxy URL.
    /// - Throws: ``Invalid`` for another scheme (an `https` or SOCKS proxy), a path, a port that is not a number
    ///   from 1 to 65535, or no host; its reason never quotes the credentials.
    package init(_ url: String) throws(Invalid) {
        var rest = Substring(url.trimmingSpacesAndTabs())
        if let scheme = rest.firstRange(of: "://") {
            let name = rest[..<scheme.lowerBound].lowercased()
            guard name == "http" else {
                throw Invalid(reason: "'\(name)' proxies are not supported; give an http:// proxy (it tunnels https too)")
            }
            rest = rest[scheme.upperBound...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            username = URLEncoding.percentDecode(parts[0])
            password = parts.count > 1 ? URLEncoding.percentDecode(parts[1]) : ""
        }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else {
            throw Invalid(reason: "a proxy URL has no path: give http://host:port")
        }
        var hostPart = rest
        port = 1080
        if let colon = rest.lastIndex(of: ":"), !rest[colon...].contains("]") {
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else {
                throw Invalid(reason: "the proxy's port '\(rest[rest.index(after: colon)...])' is not a number from 1 to 65535")
            }
            port = number
            hostPart = rest[..<colon]
        }
        let host = hostPart.hasPrefix("[") && hostPart.hasSuffix("]") ? hostPart.dropFirst().dropLast() : hostPart
        guard !host.isEmpty else { throw Invalid(reason: "the proxy URL names no host") }
        self.host = String(host)
    }

    /// `http://host:port`, with `***@` for credentials: what messages and logs show.
    package var description: String {
        Self.description(host: host, port: port, hasCredentials: username != nil)
    }

    /// `http://host:port`, or `http://***@host:port` for a proxy with credentials.
    package static func description(host: String, port: Int, hasCredentials: Bool) -> String {
        "http://\(hasCredentials ? "***@" : "")\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Why a proxy URL cannot be used, without its credentials.
    package struct Invalid: Error, CustomStringConvertible, Sendable {
        /// What is wrong.
        package var reason: String
        package var description: String { reason }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    package func trimmingSpacesAndTabs() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
