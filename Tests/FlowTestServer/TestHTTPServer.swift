import NIOCore
import NIOHTTP1
import NIOPosix
package import NIOSSL
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request as the test server received it, before any interpretation.
package struct RecordedRequest: Sendable {
    /// The method, as sent.
    package var method: String
    /// The request target as sent: path and query, percent-encoding untouched.
    package var uri: String
    /// The header fields in the order sent.
    package var headers: [(name: String, value: String)]
    /// The body bytes.
    package var body: [UInt8]
    /// When the request's head arrived, on the continuous clock, so tests can measure the gaps between attempts.
    package var receivedAt: ContinuousClock.Instant = .now

    /// The path of ``uri``, without the query.
    package var path: String {
        String(uri[..<(uri.firstIndex(of: "?") ?? uri.endIndex)])
    }

    /// The values of the fields named `name`, compared case-insensitively.
    package func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}

/// What the test server does with a request.
package struct TestReply: Sendable {
    /// How the reply ends.
    package enum Ending: Sendable {
        /// The whole response is sent and the connection stays open for the next request.
        case complete
        /// The connection is closed without a byte of response.
        case closeWithoutAnswer
        /// The head (with the full `Content-Length`) and the first `bytes` of the body are sent, then the
        /// connection is closed.
        case truncateAndClose(afterBytes: Int)
        /// The head and the first `bytes` of the body are sent, then nothing more until the server stops.
        case truncateAndStall(afterBytes: Int)
        /// The head (with the full `Content-Length`) and the first `bytes` of the body are sent; a moment later
        /// the connection is reset (TCP RST, through `SO_LINGER` 0) rather than closed.
        case resetAfter(bytes: Int)
    }

    /// The status code.
    package var status: Int = 200
    /// The header fields, in order.
    package var headers: [(String, String)] = []
    /// The body.
    package var body: [UInt8] = []
    /// Whether to send `Content-Length`; without it the body is sent chunked.
    package var declaresLength = true
    /// How long to wait before answering.
    package var delay: Duration = .zero
    /// How the reply ends.
    package var ending: Ending = .complete

    /// Creates a reply; every part has a default, so a test names only what it cares about.
    /// - Parameters:
    ///   - status: The status code; 200 by default.
    ///   - headers: The header fields, in order.
    ///   - body: The body.
    ///   - declaresLength: Whether to send `Content-Length`; without it the body is sent chunked.
    ///   - delay: How long to wait before answering.
    ///   - ending: How the reply ends.
    package init(
        status: Int = 200,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        declaresLength: Bool = true,
        delay: Duration = .zero,
        ending: Ending = .complete
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.declaresLength = declaresLength
        self.delay = delay
        self.ending = ending
    }

    /// A complete reply with a text body.
    package static func text(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> TestReply {
        TestReply(status: status, headers: headers, body: Array(text.utf8))
    }

    /// A reply that closes the connection without answering.
    package static let closeWithoutAnswer = TestReply(ending: .closeWithoutAnswer)

    /// A redirect to `location` (on this server or another one) with `status`.
    package static func redirect(to location: String, status: Int = 302) -> TestReply {
        TestReply(status: status, headers: [("Location", location)])
    }
}

/// A small real HTTP/1.1 server on 127.0.0.1 that records every request and answers each with a
/// per-test handler.
///
/// Start one with ``withTestServer(_:_:)``, which stops it when the test's closure returns or throws.
package final class TestHTTPServer: Sendable {
    /// The ephemeral port the server listens on.
    package let port: Int
    /// The recorded requests and the count of accepted connections.
    private let state: ServerState
    /// The listening channel.
    private let channel: any Channel
    /// The server's own event loop; shutting it down closes every connection it accepted.
    private let group: MultiThreadedEventLoopGroup

    /// `http://127.0.0.1:<port>`, or `https://` for a server started with TLS.
    package var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }
    /// `http` or `https`.
    private let scheme: String

    /// Every request received so far, in order.
    package var requests: [RecordedRequest] { state.requests.withLock { $0 } }

    /// How many connections the server accepted.
    package var connectionCount: Int { state.connections.load(ordering: .relaxed) }

    private init(port: Int, state: ServerState, channel: any Channel, group: MultiThreadedEventLoopGroup, scheme: String) {
        self.scheme = scheme
        self.port = port
        self.state = state
        self.channel = channel
        self.group = group
    }

    /// Binds a server to 127.0.0.1 on an ephemeral port.
    /// - Parameters:
    ///   - tls: Speaks HTTPS with this context (its certificate, and the client certificates it requires, if
    ///     any) instead of plain HTTP.
    ///   - handler: Decides the reply to each request.
    package static func start(
        tls: NIOSSLContext? = nil, _ handler: @escaping @Sendable (RecordedRequest) -> TestReply
    ) async throws -> TestHTTPServer {
        let state = ServerState()
        let listener = try await LoopbackListener.bind { channel in
            state.connections.add(1, ordering: .relaxed)
            if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(RecordingHandler(state: state, respond: handler))
        }
        return TestHTTPServer(
            port: listener.port, state: state, channel: listener.channel, group: listener.group, scheme: tls == nil ? "http" : "https")
    }

    /// Stops listening and closes every connection.
    package func stop() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }

    /// Waits until the server has received `count` requests, or five seconds passed.
    package func waitForRequests(_ count: Int) async throws {
        let giveUp = ContinuousClock.now + .seconds(5)
        while requests.count < count, ContinuousClock.now < giveUp {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Runs `body` with a running test server, and stops the server whether `body` returns or throws.
/// - Parameters:
///   - handler: Decides the reply to each request; called on the server's event loop.
///   - body: The test.
package func withTestServer<Result>(
    tls: NIOSSLContext? = nil,
    _ handler: @escaping @Sendable (RecordedRequest) -> TestReply = { _ in .text("ok") },
    _ body: (TestHTTPServer) async throws -> Result
) async throws -> Result {
    let server = try await TestHTTPServer.start(tls: tls, handler)
    let result: Result
    do {
        result = try await body(server)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
    return result
}

/// Runs `body` with a port on 127.0.0.1 that refuses connections, and frees the port afterwards.
///
/// The port belongs to a socket that is bound but not listening, so connecting is refused, and no
/// other test's server, binding port 0 in parallel, can be given the same port meanwhile — as it
/// could if the port were bound and closed again.
package func withRefusingPort<Result>(_ body: (Int) async throws -> Result) async throws -> Result {
    let (descriptor, port) = try boundLoopbackSocket()
    defer { close(descriptor) }
    return try await body(port)
}

/// Runs `body` with a port on 127.0.0.1 where connecting never completes, and frees the port afterwards.
///
/// The port's socket listens with a backlog of 0, and connections nobody accepts fill its queue, so the
/// system drops every later connection attempt: the client waits for the connection until its connect timeout.
package func withUnansweredPort<Result>(_ body: (Int) async throws -> Result) async throws -> Result {
    let (listener, port) = try boundLoopbackSocket()
    defer { close(listener) }
    guard listen(listener, 0) == 0 else { throw TestServerError.noPort }
    var fillers: [Int32] = []
    defer { fillers.forEach { close($0) } }
    for _ in 0..<2 {
        let (filler, _) = try boundLoopbackSocket(port: 0)
        fillers.append(filler)
        _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
        var address = loopbackAddress(port: port)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                connect(filler, address, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
    return try await body(port)
}

/// A TCP socket bound to 127.0.0.1 and `port` (0 for an ephemeral one), and the port it got.
private func boundLoopbackSocket(port: Int = 0) throws -> (descriptor: Int32, port: Int) {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw TestServerError.noPort }
    var address = loopbackAddress(port: port)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
        }
    }
    guard bound else {
        close(descriptor)
        throw TestServerError.noPort
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// The address of `port` on 127.0.0.1.
private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

/// Why the test server could not start.
package enum TestServerError: Error {
    /// The bound channel has no port.
    case noPort
    /// Making test certificates failed: the command and what it said.
    case openssl(String)
}

/// What the server's connections share.
private final class ServerState: Sendable {
    /// The requests received, in order.
    let requests = Mutex<[RecordedRequest]>([])
    /// The connections accepted.
    let connections = Atomic<Int>(0)
}

/// Records each request and writes the handler's reply.
private final class RecordingHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: ServerState
    private let respond: @Sendable (RecordedRequest) -> TestReply
    private var head: HTTPRequestHead?
    private var headReceivedAt: ContinuousClock.Instant = .now
    private var body: [UInt8] = []

    init(state: ServerState, respond: @escaping @Sendable (RecordedRequest) -> TestReply) {
        self.state = state
        self.respond = respond
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            headReceivedAt = .now
            body = []
        case .body(let buffer):
            body += buffer.readableBytesView
        case .end:
            guard let head else { return }
            let request = RecordedRequest(
                method: head.method.rawValue,
                uri: head.uri,
                headers: head.headers.map { (name: $0.name, value: $0.value) },
                body: body,
                receivedAt: headReceivedAt
            )
            state.requests.withLock { $0.append(request) }
            let reply = head.method == .HEAD ? Self.withoutBody(respond(request)) : respond(request)
            if reply.delay > .zero {
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: TimeAmount(reply.delay)) {
                    let (handler, context) = bound.value
                    if context.channel.isActive { handler.send(reply, context: context) }
                }
            } else {
                send(reply, context: context)
            }
        }
    }

    /// `reply` with an empty body: a HEAD response has none, and sending one would corrupt the connection.
    private static func withoutBody(_ reply: TestReply) -> TestReply {
        var reply = reply
        reply.body = []
        reply.declaresLength = true
        return reply
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func send(_ reply: TestReply, context: ChannelHandlerContext) {
        if case .closeWithoutAnswer = reply.ending {
            context.close(promise: nil)
            return
        }
        var headers = HTTPHeaders(reply.headers)
        if reply.declaresLength, !headers.contains(name: "content-length") {
            headers.add(name: "Content-Length", value: String(reply.body.count))
        }
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)

        switch reply.ending {
        case .complete, .closeWithoutAnswer:
            if !reply.body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: reply.body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .truncateAndClose(let bytes):
            // Small enough to be written at once, so the close that follows does not discard it.
            context.writeAndFlush(
                wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: reply.body.prefix(bytes))))),
                promise: nil
            )
            context.close(promise: nil)
        case .truncateAndStall(let bytes):
            context.writeAndFlush(
                wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: reply.body.prefix(bytes))))),
                promise: nil
            )
        case .resetAfter(let bytes):
            context.writeAndFlush(
                wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: reply.body.prefix(bytes))))),
                promise: nil
            )
            // The pause lets the client read the head and the first bytes, so the reset hits it mid-body.
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .milliseconds(10)) {
                Self.reset(channel)
            }
        }
    }

    /// Closes `channel` with a TCP reset: `SO_LINGER` with a zero timeout makes `close` send RST, not FIN.
    private static func reset(_ channel: any Channel) {
        guard channel.isActive else { return }
        guard let provider = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
