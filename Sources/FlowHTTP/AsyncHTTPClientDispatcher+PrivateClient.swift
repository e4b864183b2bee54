import AsyncHTTPClient
import NIOHTTPCompression
import NIOCore
import NIOSSL

extension AsyncHTTPClientDispatcher {
    /// Runs `body` with a dispatcher on a private client, and shuts the client down afterwards.
    ///
    /// The command-line tool uses this to honour `--insecure`, its redirect limit, its proxies, its connect
    /// timeout and its certificates, which the shared client cannot change. The private client starts from the settings of
    /// `HTTPClient.shared` and differs in six ways (and, when `proxies` name a proxy, it is one client per
    /// proxy besides the direct one, each with these settings, chosen per request and redirect hop by its URL):
    ///
    /// - With `insecure`, it does not verify TLS certificates or host names. Use it only against
    ///   test servers you control; without it, verification stays on.
    /// - The dispatcher follows at most `maxRedirects` redirects, hop by hop, and refuses redirect
    ///   cycles; with `0` it follows none and returns the `3xx` response. On a redirect to another
    ///   origin it sends none of the headers interceptors added (see
    ///   ``Configuration/crossOriginRedirects``).
    /// - It reports a refused connection at once instead of retrying it until the attempt's
    ///   deadline, because flowrun's retry policies decide whether to try again.
    /// - It inflates a compressed (`gzip`, `deflate`) body up to `maxResponseBodySize`, however well it
    ///   compresses, where `HTTPClient.shared` refuses one that inflates more than 25 times its size.
    /// - It creates no tracing spans of its own: the engine's attempt span is the HTTP client
    ///   span, and the engine puts its context in the request headers.
    /// - It keeps up to `maxConnectionsPerHost` HTTP/1.1 connections open to each host. A request
    ///   beyond that waits for a connection, and the wait counts against the attempt's time limit:
    ///   raise it when more requests than that are in flight to one host at once, as when many runs
    ///   share one engine.
    ///
    /// A request whose ``StepRequest/network`` is set — a workflow server's own proxy, connect timeout,
    /// certificates or `insecure` — goes out on clients made for those settings at the first such request: the
    /// server's settings where it has them, these parameters for the rest. Servers with equal settings share them.
    ///
    /// Like `HTTPClient.withHTTPClient`, the clients (those of servers' own settings too) are shut down whether
    /// `body` returns or throws, so the dispatcher must not be used after `body` returns.
    ///
    /// ```swift
    /// let response = try await AsyncHTTPClientDispatcher.withDispatcher(insecure: true, maxRedirects: 0) {
    ///     try await $0.dispatch(StepRequest(method: "GET", url: "https://localhost:8443/health"), context: context)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - insecure: Whether to skip TLS certificate and host name verification; `false` (verify) by default.
    ///   - maxRedirects: The most redirects to follow for one request; `0` follows none. Must not
    ///     be negative.
    ///   - maxResponseBodySize: The largest response body to read, in bytes, after decompression.
    ///   - defaultTimeout: The time limit of attempts whose step sets none.
    ///   - maxConnectionsPerHost: The most HTTP/1.1 connections to one host; 8, like
    ///     `HTTPClient.shared`, by default. Must be positive.
    ///   - proxies: Which requests go through which HTTP proxy (a client per proxy, with the same settings);
    ///     none by default.
    ///   - connectTimeout: How long connecting to a server (or proxy) may take, within the attempt's time
    ///     limit; ``Configuration/defaultConnectTimeout`` (10 seconds) when `nil`.
    ///   - tls: The authorities to trust instead of the system's, and a client certificate for mutual TLS; the
    ///     system's and none by default.
    ///   - isolation: The actor `body` runs on; the caller's, by default.
    ///   - body: The work to do with the dispatcher.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or the client's error if it fails to shut down.
    public static func withDispatcher<Result>(
        insecure: Bool = false,
        maxRedirects: Int = 5,
        maxResponseBodySize: Int = Configuration.defaultMaxResponseBodySize,
        defaultTimeout: Duration? = Configuration.defaultAttemptTimeout,
        maxConnectionsPerHost: Int = 8,
        proxies: ProxySettings = ProxySettings(),
        connectTimeout: Duration? = nil,
        tls: TLSSettings = TLSSettings(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncHTTPClientDispatcher) async throws -> Result
    ) async throws -> Result {
        let clientConfiguration = privateClientConfiguration(
            insecure: insecure, maxRedirects: maxRedirects, maxConnectionsPerHost: maxConnectionsPerHost,
            maxResponseBodySize: maxResponseBodySize, connectTimeout: connectTimeout, tls: tls)
        // The clients of servers with settings of their own are made as their requests need them.
        let serverClients = ServerClients(
            defaults: ServerClients.Defaults(
                insecure: insecure, maxRedirects: maxRedirects, maxConnectionsPerHost: maxConnectionsPerHost,
                maxResponseBodySize: maxResponseBodySize, proxies: proxies, connectTimeout: connectTimeout, tls: tls))
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(
                try await HTTPClient.withHTTPClient(configuration: clientConfiguration, isolation: isolation) { client in
                    try await withProxyClients(
                        for: proxies.servers[...], configuration: clientConfiguration, clients: [:]
                    ) { proxied in
                        var configuration = Configuration(
                            client: client,
                            maxResponseBodySize: maxResponseBodySize,
                            defaultTimeout: defaultTimeout,
                            maxRedirects: maxRedirects
                        )
                        configuration.limitsInflatedSize = true
                        if !proxied.isEmpty {
                            configuration.proxyRoutes = ProxyRoutes(settings: proxies, clients: proxied)
                        }
                        configuration.serverClients = serverClients
                        return try await body(AsyncHTTPClientDispatcher(configuration: configuration))
                    }
                })
        } catch {
            result = .failure(error)
        }
        do {
            try await serverClients.shutdown()
        } catch {
            // The error of `body` matters more than one of shutting down.
            if case .success = result { throw error }
        }
        return try result.get()
    }

    /// Runs `body` with a client per proxy in `servers` (added to `clients`), each with `configuration` and its
    /// proxy, and shuts them down afterwards.
    private static func withProxyClients<Result>(
        for servers: ArraySlice<ProxyServer>, configuration: HTTPClient.Configuration,
        clients: [ProxyServer: HTTPClient], isolation: isolated (any Actor)? = #isolation,
        _ body: ([ProxyServer: HTTPClient]) async throws -> Result
    ) async throws -> Result {
        guard let server = servers.first else { return try await body(clients) }
        return try await HTTPClient.withHTTPClient(configuration: configuration.through(server), isolation: isolation) {
            client in
            var clients = clients
            clients[server] = client
            return try await withProxyClients(
                for: servers.dropFirst(), configuration: configuration, clients: clients, isolation: isolation, body)
        }
    }

    /// The settings of a private client: the shared client's, with the given certificate
    /// verification, redirect limit, connections per host, inflated body size, connect time limit and
    /// certificates, and without connection retries.
    static func privateClientConfiguration(
        insecure: Bool, maxRedirects: Int, maxConnectionsPerHost: Int = 8,
        maxResponseBodySize: Int = Configuration.defaultMaxResponseBodySize, connectTimeout: Duration? = nil,
        tls: TLSSettings = TLSSettings()
    ) -> HTTPClient.Configuration {
        precondition(maxRedirects >= 0, "maxRedirects must not be negative")
        precondition(maxConnectionsPerHost > 0, "maxConnectionsPerHost must be positive")
        var configuration = HTTPClient.Configuration.singletonConfiguration
        // The dispatcher follows redirects itself, hop by hop, to record each and filter the headers.
        configuration.redirectConfiguration = .disallow
        // AsyncHTTPClient would otherwise retry a refused connection with backoff until the
        // deadline, turning "connection refused" into a 30-second wait; the engine retries instead.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = maxConnectionsPerHost
        // The shared client refuses a body that inflates more than 25 times, which a legitimate 2 MB JSON body
        // of repetitive records easily does; the inflated size is what costs memory, and it is what the body
        // size limit bounds anyway.
        configuration.decompression = .enabled(limit: .size(maxResponseBodySize))
        // The engine's `HTTP <METHOD>` attempt span is the client span and already sent `traceparent`;
        // a span of AsyncHTTPClient's own would only duplicate it.
        configuration.tracing.tracer = nil
        var tlsConfiguration = configuration.tlsConfiguration ?? .makeClientConfiguration()
        if insecure { tlsConfiguration.certificateVerification = .none }
        tls.apply(to: &tlsConfiguration)
        configuration.tlsConfiguration = tlsConfiguration
        configuration.timeout.connect = TimeAmount(connectTimeout ?? Configuration.defaultConnectTimeout)
        return configuration
    }
}
