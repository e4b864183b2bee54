public import FlowTesting
import FlowCore
import Foundation
import Hummingbird
public import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import UnixSignals

/// An HTTP server that answers from stubs exactly as the in-process ``MockDispatcher`` does: `flowrun mock serve`.
///
/// Every request goes through one ``MockDispatcher``, so matching, response sequences and delays (on the real
/// clock) are the mock's own; a request no stub matches gets a 404 whose JSON body names the closest stub and
/// what differed. Two admin endpoints under ``adminPrefix``, which no API is likely to use, read and reset the
/// state:
///
/// - `GET /__flowrun/calls`: the calls answered since the start or the last reset, oldest first, as JSON
///   (``ServedCall/json``; the most recent ``recordCapacity``).
/// - `POST /__flowrun/reset`: restarts every stub's response sequence at its first response and forgets the
///   calls; 204.
///
/// ```swift
/// let server = MockServer(stubs: stubs, host: "127.0.0.1", port: 0, logger: logger)
/// try await server.run(onListening: { print("listening on \($0)") }, onRequest: { print($0.logLine) })
/// ```
public struct MockServer: Sendable {
    /// The path prefix of the admin endpoints; a request under it never reaches the stubs.
    public static let adminPrefix = "/__flowrun/"
    /// `GET`: the calls answered, as a JSON array.
    public static let callsPath = "/__flowrun/calls"
    /// `POST`: restart every sequence and forget the calls.
    public static let resetPath = "/__flowrun/reset"
    /// The largest request body read, 10 MiB; a larger one is answered 413 without matching.
    public static let maxRequestBodySize = 10 * 1024 * 1024
    /// The most calls `GET /__flowrun/calls` lists: the most recent ones.
    public static let recordCapacity = 10_000
    /// How long requests in flight may take to finish after SIGINT or SIGTERM before they are cancelled.
    public static let shutdownGracePeriod = Duration.seconds(10)

    /// The stubs, tried in order.
    public var stubs: MockStubs
    /// The host name or address to listen on.
    public var host: String
    /// The port to listen on; 0 lets the system choose a free one.
    public var port: Int
    /// The logger of the server's own messages (not the request log: see ``run(onListening:onRequest:)``).
    public var logger: Logger

    /// Creates a server; ``run(onListening:onRequest:)`` starts it.
    /// - Parameters:
    ///   - stubs: The stubs, tried in order.
    ///   - host: The host name or address to listen on, such as `127.0.0.1`, `::1` or `0.0.0.0`.
    ///   - port: The port; 0 for one the system chooses.
    ///   - logger: The logger of the server's own messages.
    public init(stubs: MockStubs, host: String, port: Int, logger: Logger) {
        self.stubs = stubs
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Listens and answers until SIGINT or SIGTERM, then stops gracefully: it stops accepting connections, lets
    /// the requests in flight finish (for at most ``shutdownGracePeriod``) and returns.
    /// - Parameters:
    ///   - onListening: Told the server's base URL once it listens, with the port the system chose for port 0:
    ///     `http://127.0.0.1:8080`.
    ///   - onRequest: Told every request once it is answered, admin ones included.
    /// - Throws: ``ListenError`` when the server cannot listen: the port is taken, the host is unknown or not
    ///   this machine's.
    public func run(
        onListening: @escaping @Sendable (String) -> Void,
        onRequest: @escaping @Sendable (ServedCall) -> Void
    ) async throws {
        let responder = MockResponder(
            dispatcher: MockDispatcher(stubs: stubs, recordsCalls: false),
            record: ServedCallRecord(capacity: Self.recordCapacity),
            maxBodySize: Self.maxRequestBodySize,
            onRequest: onRequest,
            stepContext: StepContext(stepID: "mock-serve", attempt: 1, logger: logger))
        let listening = ListeningFlag()
        let host = host
        let application = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                listening.set()
                let port = channel.localAddress?.port ?? 0
                onListening("http://\(host.contains(":") ? "[\(host)]" : host):\(port)")
            },
            logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = Self.shutdownGracePeriod
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch where !listening.isSet {
            throw ListenError(host: host, port: port, underlyingError: error)
        }
    }

    /// The server could not listen on its host and port.
    public struct ListenError: Error, CustomStringConvertible {
        /// The host it was to listen on.
        public var host: String
        /// The port it was to listen on.
        public var port: Int
        /// Why not, as SwiftNIO said it.
        public var underlyingError: any Error

        /// Whether another socket already listens on the port.
        public var isAddressInUse: Bool {
            (underlyingError as? IOError)?.errnoCode == EADDRINUSE
        }

        /// `cannot listen on 127.0.0.1:8080: the address is already in use`, `…: the host is unknown`.
        public var description: String {
            let reason: String
            if isAddressInUse {
                reason = "the address is already in use"
            } else if let error = underlyingError as? IOError {
                reason = String(cString: strerror(error.errnoCode)).lowercased()  // cannot assign requested address
            } else if underlyingError is SocketAddressError.UnknownHost {
                reason = "the host is unknown"
            } else {
                reason = "\(underlyingError)"
            }
            return "cannot listen on \(host):\(port): \(reason)"
        }
    }
}

/// Whether the server came to listen, which tells a failure to start from one after.
private final class ListeningFlag: Sendable {
    private let value = Mutex(false)

    /// Records that the server listens.
    func set() { value.withLock { $0 = true } }

    /// Whether the server listened.
    var isSet: Bool { value.withLock { $0 } }
}
