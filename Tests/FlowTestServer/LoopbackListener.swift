import NIOCore
import NIOPosix

/// A listening socket on 127.0.0.1, on an ephemeral port, with its own one-thread event loop: what the test
/// server and the test proxy are built on.
struct LoopbackListener {
    let channel: any Channel
    let group: MultiThreadedEventLoopGroup
    let port: Int

    /// Binds, setting up each accepted connection's pipeline with `configure`.
    static func bind(_ configure: @escaping @Sendable (any Channel) throws -> Void) async throws -> LoopbackListener {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    do {
                        try configure(channel)
                        return channel.eventLoop.makeSucceededVoidFuture()
                    } catch {
                        return channel.eventLoop.makeFailedFuture(error)
                    }
                }
                .bind(host: "127.0.0.1", port: 0)
                .get()
            guard let port = channel.localAddress?.port else { throw TestServerError.noPort }
            return LoopbackListener(channel: channel, group: group, port: port)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }
}
