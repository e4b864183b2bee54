/// One HTTP request as a step sends it: the method, the absolute URL, header fields and body.
///
/// The engine builds it from the step's declared request and its bound
/// values; interceptors may rewrite it; a ``Dispatcher`` performs it.
public struct StepRequest: Sendable, Hashable {
    /// The method, upper-case: `GET`, `POST`, …
    public var method: String
    /// The absolute URL, path segments and query values already percent-encoded.
    public var url: String
    /// The header fields.
    public var headers: HeaderFields
    /// The body bytes, if any.
    public var body: [UInt8]?
    /// The network settings of the workflow server the URL starts with — its proxy, connect timeout and TLS
    /// files — or `nil` when the server sets none or the URL names no server. An HTTP dispatcher applies them
    /// to this request (and its redirect hops); others ignore them.
    public var network: ServerNetwork? {
        get { networkBox?.value }
        set { networkBox = newValue.map(NetworkBox.init) }
    }
    /// ``network``, behind a reference: most requests have none, and every request is copied several times on
    /// its way out, so the settings' hundred-odd bytes would make each copy of every request longer.
    private var networkBox: NetworkBox?

    /// The settings of ``network``, shared by the copies of a request; printed as the settings are (proxy
    /// credentials hidden).
    private final class NetworkBox: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
        let value: ServerNetwork

        init(_ value: ServerNetwork) { self.value = value }

        var description: String { String(describing: value) }
        var debugDescription: String { String(reflecting: value) }

        static func == (left: NetworkBox, right: NetworkBox) -> Bool { left.value == right.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The absolute, encoded URL.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    public init(method: String, url: String, headers: HeaderFields = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The path of the URL, without the query, still percent-encoded: `/account/42`.
    public var path: String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let rest = afterScheme[pathStart...]
        let end = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        let path = String(rest[..<end])
        return path.isEmpty ? "/" : path
    }

    /// The raw query of the URL, without the `?`, or `nil` when there is none.
    public var query: String? {
        guard let mark = url.firstIndex(of: "?") else { return nil }
        let rest = url[url.index(after: mark)...]
        return String(rest[..<(rest.firstIndex(of: "#") ?? rest.endIndex)])
    }
}

/// One HTTP response as a ``Dispatcher`` returns it.
public struct StepResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: HeaderFields
    /// The body bytes.
    public var body: [UInt8]
    /// The redirects a dispatcher followed to get this response, in order; empty when it followed none.
    public var redirects: [Redirect] = []

    /// A redirect that a dispatcher followed.
    public struct Redirect: Sendable, Hashable, Codable {
        /// The redirect's status (`301`, `302`, `303`, `307` or `308`).
        public var status: Int
        /// The absolute URL it led to.
        public var url: String

        /// Creates a redirect.
        /// - Parameters:
        ///   - status: The redirect's status.
        ///   - url: The absolute URL it led to.
        public init(status: Int, url: String) {
            self.status = status
            self.url = url
        }
    }

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    public init(status: Int, headers: HeaderFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
