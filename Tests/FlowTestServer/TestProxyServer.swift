import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A `CONNECT` request a ``TestProxyServer`` received.
package struct ProxiedConnect: Sendable {
    /// The tunnel's target as asked for: `host:port`.
    package var target: String
    /// The `Proxy-Authorization` header, if one was sent.
    package var authorization: String?
}

/// A small real HTTP proxy on 127.0.0.1 that opens `CONNECT` tunnels, as corporate proxies do, and records each
/// request for one; any other method is answered `405`.
///
/// With `requiring` credentials, a `CONNECT` without that exact `Proxy-Authorization` value is answered `407`.
/// Start one with ``withTestProxy(requiring:_:)``.
package final class TestProxyServer: Sendable {
    /// The ephemeral port the proxy listens on.
    package let port: Int
    private let recorder: ConnectRecorder
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// `http://127.0.0.1:<port>`.
    package var url: String { "http://127.0.0.1:\(port)" }

    /// Every `CONNECT` received so far, in order.
    package var connects: [ProxiedConnect] { recorder.log.withLock { $0 } }

    private init(port: Int, recorder: ConnectRecorder, channel: any Channel, group: MultiThreadedEventLoopGroup) {
        self.port = port
        self.recorder = recorder
        self.channel = channel
        self.group = group
    }

    /// Binds a proxy to 127.0.0.1 on an ephemeral port.
    /// - Parameter requiring: The `Proxy-Authorization` value a tunnel needs, or `nil` for none.
    package static func start(requiring authorization: String? = nil) async throws -> TestProxyServer {
        let recorder = ConnectRecorder()
        let listener = try await LoopbackListener.bind { channel in
            let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
            let encoder = HTTPResponseEncoder()
            let sync = channel.pipeline.syncOperations
            try sync.addHandler(decoder)
            try sync.addHandler(encoder)
            try sync.addHandler(
                ConnectHandler(recorder: recorder, authorization: authorization, decoder: decoder, encoder: encoder))
        }
        return TestProxyServer(port: listener.port, recorder: recorder, channel: listener.channel, group: listener.group)
    }

    /// Stops listening and closes every tunnel.
    package func stop() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}

/// Runs `body` with a running test proxy, and stops it whether `body` returns or throws.
package func withTestProxy<Result>(
    requiring authorization: String? = nil, _ body: (TestProxyServer) async throws -> Result
) async throws -> Result {
    let proxy = try await TestProxyServer.start(requiring: authorization)
    let result: Result
    do {
        result = try await body(proxy)
    } catch {
        try? await proxy.stop()
        throw error
    }
    try await proxy.stop()
    return result
}

/// Where the connection handlers record the `CONNECT`s, shared with the server object.
private final class ConnectRecorder: Sendable {
    let log = Mutex<[ProxiedConnect]>([])
}

/// Answers one connection's `CONNECT`: connects to the target, says `200`, then takes its HTTP handlers out of
/// the pipeline and relays bytes both ways.
private final class ConnectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let recorder: ConnectRecorder
    private let authorization: String?
    private let decoder: ByteToMessageHandler<HTTPRequestDecoder>
    private let encoder: HTTPResponseEncoder
    private var target: (host: String, port: Int)?

    init(
        recorder: ConnectRecorder, authorization: String?, decoder: ByteToMessageHandler<HTTPRequestDecoder>,
        encoder: HTTPResponseEncoder
    ) {
        self.recorder = recorder
        self.authorization = authorization
        self.decoder = decoder
        self.encoder = encoder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard head.method == .CONNECT, let colon = head.uri.lastIndex(of: ":"),
                let port = Int(head.uri[head.uri.index(after: colon)...])
            else {
                respond(.methodNotAllowed, context: context, close: true)
                return
            }
            let sent = head.headers["Proxy-Authorization"].first
            recorder.log.withLock { $0.append(ProxiedConnect(target: head.uri, authorization: sent)) }
            if let authorization, sent != authorization {
                respond(.proxyAuthenticationRequired, context: context, close: true)
                return
            }
            target = (String(head.uri[..<colon]), port)
        case .body:
            break
        case .end:
            guard let target else { return }
            connect(to: target, context: context)
        }
    }

    private func connect(to target: (host: String, port: Int), context: ChannelHandlerContext) {
        let client = context.channel
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let boundContext = NIOLoopBound(context, eventLoop: loop)
        ClientBootstrap(group: loop).connect(host: target.host, port: target.port).whenComplete { result in
            let context = boundContext.value
            switch result {
            case .success(let server):
                handler.value.respond(.ok, context: context, close: false)
                // The tunnel is open: no more HTTP on this connection, bytes both ways.
                let (toServer, toClient) = GlueHandler.matchedPair()
                do {
                    let pipeline = client.pipeline.syncOperations
                    pipeline.removeHandler(handler.value.encoder, promise: nil)
                    pipeline.removeHandler(handler.value.decoder, promise: nil)
                    try pipeline.addHandler(toServer)
                    pipeline.removeHandler(context: context, promise: nil)
                    // The server's channel runs on this same event loop.
                    try server.pipeline.syncOperations.addHandler(toClient)
                } catch {
                    client.close(promise: nil)
                    server.close(promise: nil)
                }
            case .failure:
                handler.value.respond(.badGateway, context: context, close: true)
            }
        }
    }

    private func respond(_ status: HTTPResponseStatus, context: ChannelHandlerContext, close: Bool) {
        var headers = HTTPHeaders([("Content-Length", "0")])
        if status == .proxyAuthenticationRequired { headers.add(name: "Proxy-Authenticate", value: "Basic realm=\"test\"") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if close {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

/// One end of a tunnel: what one channel reads, its partner's channel writes.
private final class GlueHandler: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: GlueHandler?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    static func matchedPair() -> (GlueHandler, GlueHandler) {
        let first = GlueHandler()
        let second = GlueHandler()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    private func partnerWrite(_ data: NIOAny) {
        guard let context = partner?.context else { return }
        if context.eventLoop.inEventLoop {
            context.write(data, promise: nil)
        }
    }

    private func partnerFlush() {
        partner?.context?.flush()
    }

    private func partnerClose() {
        partner?.context?.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partnerWrite(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partnerFlush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partnerClose()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
        partnerClose()
    }
}
