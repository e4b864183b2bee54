import AsyncHTTPClient

/// The clients a request may go out on: the one that connects directly and, when proxies are set, one per
/// proxy with the settings that say which request goes through which.
struct ClientSet: Sendable {
    /// The client of the requests that go directly.
    let client: HTTPClient
    /// The clients of the requests that go through a proxy, or `nil` when none does.
    let proxyRoutes: ProxyRoutes?

    /// Every client of the set, for shutting them down.
    var allClients: [HTTPClient] { [client] + (proxyRoutes.map { Array($0.clients.values) } ?? []) }

    /// The client of the request to `target`, and the proxy it goes through, if any.
    func route(for target: RequestTarget) -> (client: HTTPClient, proxy: ProxyServer?) {
        if let route = proxyRoutes?.route(for: target) { return (route.client, route.proxy) }
        return (client, nil)
    }
}

extension ClientSet {
    /// Makes a client with `configuration`, and one per proxy that `proxies` name with the same settings; the
    /// caller shuts them down (``allClients``).
    static func make(configuration: HTTPClient.Configuration, proxies: ProxySettings) -> ClientSet {
        let direct = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        var proxied: [ProxyServer: HTTPClient] = [:]
        for proxy in proxies.servers where proxied[proxy] == nil {
            proxied[proxy] = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration.through(proxy))
        }
        return ClientSet(
            client: direct, proxyRoutes: proxied.isEmpty ? nil : ProxyRoutes(settings: proxies, clients: proxied))
    }
}

extension HTTPClient.Configuration {
    /// These settings, sending every request through `proxy` (with its credentials as `Proxy-Authorization`).
    func through(_ proxy: ProxyServer) -> HTTPClient.Configuration {
        var configuration = self
        configuration.proxy = .server(
            host: proxy.host, port: proxy.port,
            authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") })
        return configuration
    }
}

extension ProxySettings {
    /// The distinct proxies these settings name.
    var servers: [ProxyServer] { Array(Set([http, https].compactMap { $0 })) }
}
