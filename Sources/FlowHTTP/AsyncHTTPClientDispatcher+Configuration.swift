public import AsyncHTTPClient

extension AsyncHTTPClientDispatcher {
    /// The client, response body size limit and default timeout of an ``AsyncHTTPClientDispatcher``.
    ///
    /// The defaults suit a command-line run against ordinary JSON APIs: the process-wide
    /// `HTTPClient.shared`, a 10 MiB body limit and a 30-second limit for attempts whose step sets
    /// no `timeout.attempt`.
    ///
    /// ```swift
    /// let dispatcher = AsyncHTTPClientDispatcher(
    ///     configuration: .init(maxResponseBodySize: 50 * 1024 * 1024, defaultTimeout: .seconds(60))
    /// )
    /// ```
    public struct Configuration: Sendable {
        /// The default ``maxResponseBodySize``: 10 MiB.
        public static let defaultMaxResponseBodySize = 10 * 1024 * 1024

        /// The default ``defaultTimeout``: 30 seconds.
        public static let defaultAttemptTimeout: Duration = .seconds(30)
        /// How long connecting to a server or proxy may take when nothing says: 10 seconds.
        ///
        /// AsyncHTTPClient's shared configuration waits 90 seconds for a connection, and a client keeps trying
        /// to connect after the request that wanted the connection gave up, so shutting it down waits that long.
        public static let defaultConnectTimeout: Duration = .seconds(10)

        /// The client that opens, pools and reuses the connections.
        ///
        /// AsyncHTTPClient keeps a pool of connections per scheme, host and port and reuses them
        /// for later requests, so steps and attempts against one API share connections. The
        /// default, ``AsyncHTTPClientDispatcher/sharedClient``, has the settings of
        /// `HTTPClient.shared` but follows no redirect itself: the dispatcher follows them, hop by
        /// hop (see ``maxRedirects``). A client you pass here stays yours: shut it down after the
        /// dispatcher's last request, and configure it with `redirectConfiguration = .disallow`, or
        /// it follows redirects itself and forwards every header but `Authorization` to other origins.
        public var client: HTTPClient

        /// The most redirects the dispatcher follows for one request; with `0` it follows none and
        /// returns the `3xx` response. A longer chain, or a cycle, fails with ``FlowError/Code/transport``.
        public var maxRedirects: Int

        /// What the dispatcher does with a redirect to another scheme, host or port: follow it
        /// without the credentials interceptors added (the default), or refuse it.
        public var crossOriginRedirects: CrossOriginRedirects

        /// The largest response body, in bytes, that the dispatcher reads into memory.
        ///
        /// A longer body fails the attempt with ``FlowError/Code/transport`` instead of being
        /// truncated. When the server declares a longer `Content-Length`, the body is not read
        /// at all.
        public var maxResponseBodySize: Int

        /// The time limit of an attempt whose ``StepContext/attemptTimeout`` is `nil`, or `nil`
        /// to let such attempts wait as long as the client does.
        ///
        /// The limit covers connecting, sending the request and receiving the head and the whole
        /// body.
        public var defaultTimeout: Duration?

        /// Whether ``client`` limits a compressed body by its inflated size, ``maxResponseBodySize``, as the
        /// private clients of `AsyncHTTPClientDispatcher.withDispatcher` do, rather than by its compression ratio,
        /// as `HTTPClient.shared` does; it words the failure message.
        var limitsInflatedSize = false

        /// The clients of the requests that go through a proxy, as `withDispatcher`'s `proxies` set them up;
        /// `nil` sends every request with ``client``.
        var proxyRoutes: ProxyRoutes?

        /// The clients of requests whose workflow server sets its own proxy, connect timeout or certificates, as
        /// `withDispatcher` sets them up; `nil` refuses such requests, as a client of your own cannot be changed.
        var serverClients: ServerClients?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - client: The client to send requests with; `HTTPClient.shared` by default.
        ///   - maxResponseBodySize: The largest response body to read, in bytes; 10 MiB by
        ///     default. Must not be negative.
        ///   - defaultTimeout: The time limit of attempts that have none of their own; 30
        ///     seconds by default.
        ///   - maxRedirects: The most redirects to follow for one request; 5 by default. Must not
        ///     be negative.
        ///   - crossOriginRedirects: What to do with a redirect to another origin.
        public init(
            client: HTTPClient = AsyncHTTPClientDispatcher.sharedClient,
            maxResponseBodySize: Int = Configuration.defaultMaxResponseBodySize,
            defaultTimeout: Duration? = Configuration.defaultAttemptTimeout,
            maxRedirects: Int = 5,
            crossOriginRedirects: CrossOriginRedirects = .withoutCredentials
        ) {
            precondition(maxResponseBodySize >= 0, "maxResponseBodySize must not be negative")
            precondition(maxRedirects >= 0, "maxRedirects must not be negative")
            self.client = client
            self.maxResponseBodySize = maxResponseBodySize
            self.defaultTimeout = defaultTimeout
            self.maxRedirects = maxRedirects
            self.crossOriginRedirects = crossOriginRedirects
        }
    }

    /// The client of the default ``Configuration``: the settings of `HTTPClient.shared`, but it follows no
    /// redirect, so that the dispatcher can follow them itself. Like `HTTPClient.shared`, it is never shut down.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
