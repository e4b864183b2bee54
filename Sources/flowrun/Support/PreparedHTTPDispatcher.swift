import FlowHTTP

/// The run's HTTP dispatcher, its client made in the background from the moment the command's options are
/// read, while the workflow is read and compiled.
///
/// Making the client (the event loop threads, the TLS settings, the connection pool) and compiling a small
/// workflow each take a couple of milliseconds of a process that lives for about fifteen, and neither needs the
/// other: on a machine with two cores they overlap. The client serves one ``use(_:)`` and is then shut down.
final class PreparedHTTPDispatcher: Sendable {
    /// Work for the dispatcher, or told that its client could not be made.
    private typealias Use = @Sendable (Result<AsyncHTTPClientDispatcher, any Error>) async -> Void

    private let uses: AsyncStream<Use>.Continuation

    /// Starts making the client; the settings are those of ``AsyncHTTPClientDispatcher/withDispatcher(insecure:maxRedirects:maxResponseBodySize:defaultTimeout:maxConnectionsPerHost:proxies:connectTimeout:tls:isolation:_:)``.
    init(insecure: Bool, maxResponseBodySize: Int, network: NetworkOptions) {
        let (requested, uses) = AsyncStream.makeStream(of: Use.self)
        self.uses = uses
        Task {
            do {
                try await AsyncHTTPClientDispatcher.withDispatcher(
                    insecure: insecure, maxResponseBodySize: maxResponseBodySize, proxies: network.proxies,
                    connectTimeout: network.connectTimeout, tls: network.tls
                ) { http in
                    for await use in requested { await use(.success(http)) }
                }
            } catch {
                // The client could not be made: whoever waits for it learns why. (After its use, the stream has
                // ended, and an error of shutting down reaches no one: the run's result is out by then.)
                for await use in requested { await use(.failure(error)) }
            }
        }
    }

    /// Runs `body` with the dispatcher once its client is ready, then lets the client shut down.
    ///
    /// The result comes back as soon as `body` returns, before the client has shut down: a client keeps trying to
    /// open a connection that a request gave up on at its time limit (a host that drops packets) until the connect
    /// timeout, and the command must not wait for that. The shutdown goes on while the command prints and writes
    /// its files, and ends with the process.
    /// - Throws: The error of making the client, when it could not be made; `body` did not run.
    func use<Value: Sendable>(_ body: @escaping @Sendable (AsyncHTTPClientDispatcher) async -> Value) async throws
        -> Value
    {
        let (results, delivery) = AsyncStream.makeStream(of: Result<Value, any Error>.self)
        let queued = uses.yield { dispatcher in
            switch dispatcher {
            case .success(let http): delivery.yield(.success(await body(http)))
            case .failure(let error): delivery.yield(.failure(error))
            }
            delivery.finish()
        }
        guard case .enqueued = queued else { preconditionFailure("a prepared HTTP dispatcher serves one use") }
        uses.finish()
        for await result in results { return try result.get() }
        throw CancellationError()
    }
}
