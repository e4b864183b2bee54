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

        /// The client that opens, pools and reuses the connections.
        ///
        /// AsyncHTTPClient keeps a pool of connections per scheme, host and port and reuses them
        /// for later requests, so steps and attempts against one API share connections. The
        /// default, `HTTPClient.shared`, verifies TLS certificates, follows up to 20 redirects,
        /// retries failed connection attempts until the request's deadline, and is never shut
        /// down. A client you pass here stays yours: shut it down after the dispatcher's last
        /// request.
        public var client: HTTPClient

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

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - client: The client to send requests with; `HTTPClient.shared` by default.
        ///   - maxResponseBodySize: The largest response body to read, in bytes; 10 MiB by
        ///     default. Must not be negative.
        ///   - defaultTimeout: The time limit of attempts that have none of their own; 30
        ///     seconds by default.
        public init(
            client: HTTPClient = .shared,
            maxResponseBodySize: Int = Configuration.defaultMaxResponseBodySize,
            defaultTimeout: Duration? = Configuration.defaultAttemptTimeout
        ) {
            precondition(maxResponseBodySize >= 0, "maxResponseBodySize must not be negative")
            self.client = client
            self.maxResponseBodySize = maxResponseBodySize
            self.defaultTimeout = defaultTimeout
        }
    }
}
