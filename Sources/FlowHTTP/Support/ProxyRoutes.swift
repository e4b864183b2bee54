import AsyncHTTPClient

/// The clients that send requests through proxies, one per proxy, and the settings that say which request
/// goes through which: AsyncHTTPClient configures a proxy per client, not per request.
struct ProxyRoutes: Sendable {
    /// Which request goes through which proxy.
    let settings: ProxySettings
    /// A client per proxy the settings name.
    let clients: [ProxyServer: HTTPClient]

    /// The proxy a request to `target` goes through and the client that sends it there, or `nil` when the
    /// request goes directly.
    func route(for target: RequestTarget) -> (proxy: ProxyServer, client: HTTPClient)? {
        guard let proxy = settings.server(forScheme: target.scheme, host: target.host, port: target.portNumber),
            let client = clients[proxy]
        else { return nil }
        return (proxy, client)
    }
}
