import AsyncHTTPClient
import FlowCore
import Synchronization

/// The clients of the requests whose workflow server sets network settings (``StepRequest/network``): one
/// ``ClientSet`` per distinct settings, made at the first request that needs it and shut down with the
/// dispatcher, since AsyncHTTPClient sets proxies, connect timeouts and certificates per client.
///
/// A server's setting wins over the dispatcher's; what it leaves unset is the dispatcher's (``Defaults``).
final class ServerClients: Sendable {
    /// The dispatcher's own settings: what `withDispatcher` was given.
    struct Defaults: Sendable {
        var insecure: Bool
        var maxRedirects: Int
        var maxConnectionsPerHost: Int
        var maxResponseBodySize: Int
        var proxies: ProxySettings
        var connectTimeout: Duration?
        var tls: TLSSettings
    }

    private let defaults: Defaults
    /// The client sets made so far, by settings without the server's name; `nil` once shut down.
    private let sets = Mutex<[ServerNetwork: ClientSet]?>([:])

    init(defaults: Defaults) {
        self.defaults = defaults
    }

    /// The clients of a request to the server with `network`, made at the first request that needs them.
    /// - Throws: The ``ServerConnectionSettings`` error of a proxy or file that cannot be used, or a `cancelled`
    ///   error once the dispatcher is shut down.
    func clients(for network: ServerNetwork) throws(FlowError) -> ClientSet {
        let key = network.unnamed
        if let known = sets.withLock({ $0?[key] }) { return known }
        // Files are read outside the lock: other servers' requests need not wait for them.
        let settings = try ServerConnectionSettings(network)
        let configuration = configuration(for: settings)
        let made: Result<ClientSet, FlowError> = sets.withLock { sets in
            guard sets != nil else {
                return .failure(FlowError(.cancelled, "the HTTP dispatcher was shut down; the request was not sent"))
            }
            if let known = sets?[key] { return .success(known) }
            let set = ClientSet.make(configuration: configuration, proxies: settings.proxies ?? defaults.proxies)
            sets?[key] = set
            return .success(set)
        }
        return try made.get()
    }

    /// The client settings of a server: its own where it has them, the dispatcher's elsewhere.
    func configuration(for settings: ServerConnectionSettings) -> HTTPClient.Configuration {
        AsyncHTTPClientDispatcher.privateClientConfiguration(
            insecure: settings.insecure ?? defaults.insecure, maxRedirects: defaults.maxRedirects,
            maxConnectionsPerHost: defaults.maxConnectionsPerHost, maxResponseBodySize: defaults.maxResponseBodySize,
            connectTimeout: settings.connectTimeout ?? defaults.connectTimeout,
            tls: defaults.tls.overridden(by: settings.tls))
    }

    /// Shuts every client down; later requests are refused.
    func shutdown() async throws {
        let made = sets.withLock { sets in
            defer { sets = nil }
            return sets?.values.flatMap(\.allClients) ?? []
        }
        var firstError: (any Error)?
        for client in made {
            do { try await client.shutdown() } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }
}
