import AsyncHTTPClient

/// The clients that send requests through proxies, one per proxy, and the settings that say which request
/// goes through which: AsyncHTTPClient configures a proxy per client, not per request.
struct ProxyRoutes: Sendable {
    /// Which request goes through which proxy.
    let settings: ProxySettings
    /// A client per proxy the settings name.
    let clients: [ProxyServer: HTTPClient]

    /// The client of the proxy a request to `target` goes through, or `nil` when it goes directly.
    func client(for target: RequestTarget) -> HTTPClient? {
        settings.server(forScheme: target.scheme, host: target.host, port: target.portNumber).flatMap { clients[$0] }
    }

    /// The proxy a request to `target` goes through, for messages.
    func server(for target: RequestTarget) -> ProxyServer? {
        settings.server(forScheme: target.scheme, host: target.host, port: target.portNumber)
    }
}
