import FlowCore

/// Which requests go through an HTTP proxy, and which proxy: the `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`
/// conventions of curl and most HTTP tools, or one proxy for everything (`flowrun run --proxy`).
///
/// A proxy is reached over plain HTTP and asked to open a tunnel (`CONNECT host:port`) to the server, for
/// `http` and `https` URLs alike; TLS to an `https` server runs inside the tunnel, so the proxy sees neither
/// the requests nor their credentials. Credentials in the proxy's URL (`http://user:secret@proxy:3128`) are
/// sent to the proxy as `Proxy-Authorization: Basic …` and never appear in messages (``ProxyServer/description``).
///
/// ```swift
/// let proxies = try ProxySettings(environment: ProcessInfo.processInfo.environment)
/// proxies.server(forScheme: "https", host: "api.example.com", port: 443)  // the HTTPS_PROXY, unless NO_PROXY says no
/// ```
public struct ProxySettings: Sendable, Equatable {
    /// The proxy for `http` URLs, if any.
    public var http: ProxyServer?
    /// The proxy for `https` URLs, if any.
    public var https: ProxyServer?
    /// The hosts reached directly whatever the proxies: `NO_PROXY`'s entries (see ``bypasses(host:port:)``).
    public var noProxy: [String]

    /// No proxy: every request goes directly to its server.
    public init() {
        self.init(http: nil, https: nil, noProxy: [])
    }

    /// Proxies as given.
    /// - Parameters:
    ///   - http: The proxy for `http` URLs.
    ///   - https: The proxy for `https` URLs.
    ///   - noProxy: The `NO_PROXY` entries: host names, domains (`.example.com` or `example.com`, which
    ///     also match their subdomains), IP addresses, each optionally with `:port`, or `*` for every host.
    public init(http: ProxyServer?, https: ProxyServer?, noProxy: [String]) {
        self.http = http
        self.https = https
        self.noProxy = noProxy.map { $0.trimmingSpacesAndTabs().lowercased() }.filter { !$0.isEmpty }
    }

    /// The proxies an environment names: `HTTP_PROXY` for `http` URLs, `HTTPS_PROXY` for `https` URLs,
    /// `NO_PROXY` for the hosts to reach directly, each also in lower case (`http_proxy`, …), which wins when
    /// both are set, as in curl. An empty variable means no proxy.
    /// - Throws: ``ProxySettings/InvalidProxy`` naming the variable whose URL flowrun cannot use.
    public init(environment: [String: String]) throws(InvalidProxy) {
        func value(_ name: String) -> (name: String, value: String)? {
            for candidate in [name.lowercased(), name] {
                if let value = environment[candidate] { return (candidate, value) }
            }
            return nil
        }
        func proxy(_ name: String) throws(InvalidProxy) -> ProxyServer? {
            guard let (variable, text) = value(name), !text.trimmingSpacesAndTabs().isEmpty else { return nil }
            do {
                return try ProxyServer(url: text)
            } catch {
                throw InvalidProxy(source: variable, reason: error.reason)
            }
        }
        self.init(
            http: try proxy("HTTP_PROXY"), https: try proxy("HTTPS_PROXY"),
            noProxy: value("NO_PROXY")?.value.split(separator: ",").map(String.init) ?? [])
    }

    /// These settings with `proxy` for `http` and `https` URLs alike, as `--proxy` gives it; `NO_PROXY` still
    /// applies.
    public func using(_ proxy: ProxyServer) -> ProxySettings {
        ProxySettings(http: proxy, https: proxy, noProxy: noProxy)
    }

    /// The proxy a request to `host` and `port` with `scheme` goes through, or `nil` to go directly.
    public func server(forScheme scheme: String?, host: String, port: Int?) -> ProxyServer? {
        let proxy: ProxyServer? =
            switch scheme?.lowercased() {
            case "http": http
            case "https": https
            default: nil
            }
        guard let proxy, !bypasses(host: host, port: port ?? (scheme?.lowercased() == "https" ? 443 : 80)) else {
            return nil
        }
        return proxy
    }

    /// Whether `NO_PROXY` sends a request to `host` and `port` directly: an entry `*`; an entry equal to the host
    /// (IPv6 addresses with or without brackets); or a domain entry (`example.com` or `.example.com`) of which
    /// the host is a subdomain. An entry with `:port` applies to that port only. CIDR ranges are not read.
    public func bypasses(host: String, port: Int) -> Bool {
        let host = Self.bare(host.lowercased())
        for entry in noProxy {
            if entry == "*" { return true }
            var name = Substring(entry)
            // `host:port`, but not an IPv6 address without brackets (more than one colon).
            if let colon = name.lastIndex(of: ":"), name.filter({ $0 == ":" }).count == 1 || name.hasPrefix("[") {
                guard Int(name[name.index(after: colon)...]) == port else { continue }
                name = name[..<colon]
            }
            var domain = Self.bare(String(name))
            if domain.hasPrefix(".") { domain.removeFirst() }
            if host == domain || host.hasSuffix("." + domain) { return true }
        }
        return false
    }

    /// `host` without the brackets of an IPv6 literal.
    private static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// A proxy URL flowrun cannot use, and where it was given.
    public struct InvalidProxy: Error, CustomStringConvertible, Sendable {
        /// Where the URL came from: an environment variable's name or an option such as `--proxy`.
        public var source: String
        /// What is wrong with it, without its credentials.
        public var reason: String

        public var description: String { "\(source): \(reason)" }
    }
}

/// An HTTP proxy: its host, port and the credentials it asks for.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or address.
    public var host: String
    /// The proxy's port; 1080 when the URL names none, as in curl.
    public var port: Int
    /// The user name of `Proxy-Authorization: Basic`, if the URL has credentials.
    public var username: String?
    /// The password of `Proxy-Authorization: Basic`.
    public var password: String?

    /// A proxy from its URL: `http://[user[:password]@]host[:port][/]`, or without `http://`.
    ///
    /// Percent-encoded characters in the user name and password are decoded.
    /// - Throws: ``Invalid`` for another scheme (an `https` or SOCKS proxy), a path, or a port that is not a
    ///   number from 1 to 65535.
    public init(url: String) throws(Invalid) {
        let parsed: ProxyURL
        do {
            parsed = try ProxyURL(url)
        } catch {
            throw Invalid(reason: error.reason)
        }
        self.init(parsed)
    }

    /// The proxy a parsed URL names.
    init(_ url: ProxyURL) {
        host = url.host
        port = url.port
        username = url.username
        password = url.password
    }

    /// `http://host:port`, with `***@` for credentials: what messages and logs show.
    public var description: String {
        ProxyURL.description(host: host, port: port, hasCredentials: username != nil)
    }

    /// Why a proxy URL cannot be used, without its credentials.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        /// What is wrong.
        public var reason: String
        public var description: String { reason }
    }
}
