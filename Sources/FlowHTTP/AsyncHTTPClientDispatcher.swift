import AsyncHTTPClient
public import FlowCore
import Logging
import NIOCore
import NIOHTTP1

/// A dispatcher that performs each step's request over the network with AsyncHTTPClient.
///
/// `AsyncHTTPClientDispatcher` is the dispatcher that flowrun registers as `http`. It sends the
/// ``StepRequest`` as it is — method, URL with its percent-encoding untouched, header fields in
/// order, body bytes — and returns every answer the server gives as a ``StepResponse``, whatever
/// its status: a `404` or a `503` is a response, not an error, so the engine can match it against
/// the step's declared responses and policies.
///
/// It throws a ``FlowError`` only when there is no complete answer:
///
/// - ``FlowError/Code/transport``: the connection was refused or reset, the host did not resolve,
///   the TLS handshake failed, the server closed the connection early or sent something that is not
///   HTTP, there were more redirects than ``Configuration/maxRedirects`` or a redirect cycle, a
///   redirect to another origin was refused (``Configuration/crossOriginRedirects``), or the body is
///   larger than ``Configuration/maxResponseBodySize``.
/// - ``FlowError/Code/attemptTimeout``: the response (head and whole body) did not arrive within the
///   attempt's time limit, `context.attemptTimeout` or else ``Configuration/defaultTimeout``.
/// - ``FlowError/Code/cancelled``: the task running the request was cancelled.
/// - ``FlowError/Code/binding``: a header name is not an HTTP token, or a header value holds a line
///   break or another control character; nothing is sent. The message names the header, never its
///   value, which may be a secret. A method that is not a token or a URL that is not absolute is
///   refused the same way with ``FlowError/Code/invalidValue``, and a scheme other than `http` and
///   `https` with ``FlowError/Code/unsupported``.
///
/// Every error it throws carries the step id, the attempt, the request as `METHOD url` — redacted by
/// the run's ``SecretRedactor`` (``StepContext/redactor``): without user info, with the values of
/// secret-looking query parameters (`api_key`, `token`, `sig`, …) and every secret of the run replaced
/// by `***` — and, when it wraps a foreign error, that error as ``FlowError/underlyingError``. Its
/// debug log lines are redacted the same way.
///
/// It follows redirects itself, hop by hop, logging each and listing them in
/// ``StepResponse/redirects``. On a redirect to another scheme, host or port it sends none of the
/// header fields that the step's interceptors added (``StepContext/interceptorHeaderNames(in:)``) and no
/// `Authorization`, `Proxy-Authorization` or `Cookie`, as curl does, or refuses the redirect (see
/// ``Configuration/crossOriginRedirects``).
///
/// The dispatcher holds no connections itself: the ``Configuration/client`` pools them, per scheme,
/// host and port, and reuses them across steps, attempts and concurrent steps. By default that is
/// ``sharedClient``, which has the settings of `HTTPClient.shared` (it verifies TLS certificates and
/// needs no shutdown) except that it leaves redirects to the dispatcher.
///
/// ```swift
/// let dispatcher = AsyncHTTPClientDispatcher()
/// let response = try await dispatcher.dispatch(
///     StepRequest(method: "GET", url: "https://api.example.com/items/42", headers: ["Accept": "application/json"]),
///     context: StepContext(stepID: "getItem", attempt: 1, attemptTimeout: .seconds(5), logger: logger)
/// )
/// print(response.status)
/// ```
///
/// ## Choose between the shared client and a private one
///
/// Use the default configuration, which uses ``sharedClient``, in a program that sends requests
/// with normal certificate checks: it needs no set-up or shutdown. Use
/// ``withDispatcher(insecure:maxRedirects:maxResponseBodySize:defaultTimeout:maxConnectionsPerHost:proxies:connectTimeout:tls:isolation:_:)``
/// when the run needs different client settings — certificate verification off for `--insecure`, a
/// redirect limit, more connections per host, HTTP proxies, a connect timeout, a private CA or a client
/// certificate — or fails fast on refused connections; it creates a
/// private client and shuts it down when the closure returns. To use a client of your own, pass it in
/// ``Configuration/client``, with `redirectConfiguration = .disallow`, and shut it down yourself after the
/// last request.
public struct AsyncHTTPClientDispatcher: Dispatcher {
    /// The client, body size limit and default timeout this dispatcher uses.
    public let configuration: Configuration

    /// Creates a dispatcher.
    ///
    /// The dispatcher is cheap to create and copy; the client in `configuration` owns the
    /// connections.
    ///
    /// - Parameter configuration: The client, body size limit and default timeout to use. The
    ///   default uses ``sharedClient``, a 10 MiB body limit, a 30-second timeout and up to 5 redirects.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// `true`: a request ends at its attempt's deadline on the event loop, body included, so the engine hands
    /// the limit over (``StepContext/deadline``) instead of watching the call with a task and a timer.
    public var enforcesTimeLimits: Bool { true }

    /// Sends a request and returns the server's response, whatever its status.
    ///
    /// The header fields are checked before anything is sent. The attempt's time limit,
    /// `context.deadline` when the engine hands it over, else `context.attemptTimeout` or else
    /// ``Configuration/defaultTimeout``, covers connecting, sending, and receiving the head and the whole
    /// body, across the redirects followed; the body is read into memory up to
    /// ``Configuration/maxResponseBodySize`` bytes. Past a handed-over deadline the request fails with that
    /// deadline's error, exactly as the engine's own time limit would.
    ///
    /// - Parameters:
    ///   - request: The request, with an absolute `http` or `https` URL.
    ///   - context: The step and attempt the request belongs to, its time limit and the logger.
    /// - Returns: The response: status, header fields in the order received, and the body bytes.
    /// - Throws: A ``FlowError`` with code ``FlowError/Code/binding`` for a header that cannot be sent
    ///   safely, ``FlowError/Code/invalidValue`` for a method that is not a token or a URL that is not
    ///   absolute, ``FlowError/Code/unsupported`` for a URL that is not `http` or `https`,
    ///   ``FlowError/Code/transport`` when no complete response arrived,
    ///   ``FlowError/Code/attemptTimeout`` when it did not arrive in time, and
    ///   ``FlowError/Code/cancelled`` when the task was cancelled. A request with ``StepRequest/network`` fails
    ///   with ``FlowError/Code/unsupported`` unless the dispatcher was made by `withDispatcher`, and with
    ///   ``FlowError/Code/invalidValue`` or ``FlowError/Code/unreadableFile`` for a proxy or file it cannot use.
    public func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        let timeout = (context.attemptTimeout ?? configuration.defaultTimeout).map(RequestDeadline.clamped)
        let deadline = context.deadline.map(RequestDeadline.init) ?? RequestDeadline(timeout: timeout)
        var current = request
        var redirects: [StepResponse.Redirect] = []
        var visited: Set<String> = [request.url]
        // Every hop goes out with the clients of the server the request was sent to.
        let clients: ClientSet
        do {
            clients = try clientSet(for: request)
        } catch {
            throw failureMapper(for: RequestTarget(request), proxy: nil, timeout: timeout, context: context)
                .map(error, phase: .beforeSending)
        }
        while true {
            let target = RequestTarget(current)
            // Worked out once per hop: the proxy it goes through (for messages) and the client of that proxy.
            let route = clients.route(for: target)
            let failures = failureMapper(for: target, proxy: route.proxy, timeout: timeout, context: context)
            // Only an observed run times its hops.
            var hop = context.exchangeObserver == nil ? nil : HopObservation()
            var response: StepResponse
            do {
                response = try await send(
                    current, target: target, via: route.client, deadline: deadline,
                    failures: failures, context: context, hop: &hop)
            } catch {
                hop?.report(current, redirect: redirects.count, outcome: .failure(error), context: context)
                guard var error = error as? FlowError, !redirects.isEmpty else { throw error }
                // The report lists only the first URL: say how the failing one was reached.
                let hops = redirects.map { "\($0.status)" }.joined(separator: ", ")
                error.message += " (reached by redirect \(hops) from "
                    + RequestTarget(request).description(redactedBy: context.redactor) + ")"
                throw error
            }
            hop?.report(current, redirect: redirects.count, outcome: .success(response), context: context)
            guard
                let next = try nextHop(
                    after: response, of: current, target: target, failures: failures, context: context)
            else {
                response.redirects = redirects
                return response
            }
            guard redirects.count < configuration.maxRedirects else {
                throw failures.map(
                    FlowError(
                        .transport,
                        "the server redirected more than \(configuration.maxRedirects) times (the redirect limit)"),
                    phase: .waitingForHead)
            }
            guard visited.insert(next.url).inserted else {
                throw failures.map(FlowError(.transport, "the server's redirects form a cycle"), phase: .waitingForHead)
            }
            redirects.append(StepResponse.Redirect(status: response.status, url: next.url))
            current = next
        }
    }

    /// The clients of `request`: those of its server's network settings (``StepRequest/network``), if it has
    /// any, else the configuration's.
    /// - Throws: An `unsupported` error when the request has network settings but the configuration has a
    ///   client of its own, which cannot apply them; the error of a proxy or file that cannot be used.
    private func clientSet(for request: StepRequest) throws(FlowError) -> ClientSet {
        guard let network = request.network else {
            return ClientSet(client: configuration.client, proxyRoutes: configuration.proxyRoutes)
        }
        guard let serverClients = configuration.serverClients else {
            throw FlowError(
                .unsupported,
                "server '\(network.server)' sets its own network settings (\(network.settingsDescription)), "
                    + "which only a dispatcher made by AsyncHTTPClientDispatcher.withDispatcher applies; the request was not sent")
        }
        return try serverClients.clients(for: network)
    }

    /// What maps the errors of a hop to `target`, sent through `proxy`, to the ``FlowError`` the run sees.
    private func failureMapper(
        for target: RequestTarget, proxy: ProxyServer?, timeout: Duration?, context: StepContext
    ) -> FailureMapper {
        FailureMapper(
            target: target, context: context, timeout: timeout, maxResponseBodySize: configuration.maxResponseBodySize,
            limitsInflatedSize: configuration.limitsInflatedSize, proxy: proxy)
    }

    /// Sends one request — one hop — and reads its whole response, noting in `hop` when its head arrived.
    private func send(
        _ request: StepRequest, target: RequestTarget, via client: HTTPClient, deadline: RequestDeadline,
        failures: FailureMapper,
        context: StepContext, hop: inout HopObservation?
    ) async throws -> StepResponse {
        // Everything that can be refused without the network is refused here, so a header holding
        // an injected line never reaches a socket.
        do {
            try RequestPreflight.check(request, target: target)
            try Task.checkCancellation()
        } catch {
            throw failures.map(error, phase: .beforeSending)
        }

        // Read once: the context adds the step and attempt to the logger each time it is read.
        let logger = context.logger
        logger.debug(
            "sending request", metadata: ["http.request": "\(target.description(redactedBy: context.redactor))"])

        // The delegate-based call keeps the deadline until the body's last byte, on the event loop: no task
        // and no timer of ours watch the request.
        let reader = ResponseReader(maxBodySize: configuration.maxResponseBodySize, isHead: request.method == "HEAD")
        let response: ResponseReader.Response
        do {
            let task = client.execute(
                request: try makeClientRequest(request), delegate: reader, deadline: deadline.nio)
            response = try await withTaskCancellationHandler {
                try await task.get()
            } onCancel: {
                task.cancel()
            }
        } catch {
            if let handedOver = context.deadline, (error as? HTTPClientError) == .deadlineExceeded {
                throw handedOver.error  // the engine's own time-limit error, as its timer would have failed it
            }
            throw failures.map(error, phase: reader.status.map { .readingBody(status: $0) } ?? .waitingForHead)
        }
        if let arrived = reader.headArrived { hop?.headArrived(at: arrived, version: response.head.version) }

        let status = Int(response.head.status.code)
        let body = response.body

        logger.debug(
            "received response",
            metadata: ["http.status": "\(status)", "http.response.body.size": "\(body.readableBytes)"]
        )
        return StepResponse(
            status: status,
            headers: HeaderFields(response.head.headers.map { HeaderFields.Field(name: $0.name, value: $0.value) }),
            body: Array(body.readableBytesView)
        )
    }

    /// Converts a checked step request into AsyncHTTPClient's form, without touching the URL's
    /// encoding or the order of the header fields.
    private func makeClientRequest(_ request: StepRequest) throws -> HTTPClient.Request {
        var headers = HTTPHeaders()
        for field in request.headers {
            headers.add(name: field.name, value: field.value)
        }
        // A byte buffer body has a known length and can be sent again when a redirect is followed;
        // AsyncHTTPClient sets Content-Length from it.
        return try HTTPClient.Request(
            url: request.url, method: HTTPMethod(rawValue: request.method), headers: headers,
            body: request.body.map { .byteBuffer(ByteBuffer(bytes: $0)) })
    }
}
