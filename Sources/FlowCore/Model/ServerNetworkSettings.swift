/// The network keys of a server under `servers:` as written: `proxy`, `connectTimeout`, `cacert`, `cert`, `key`
/// and `insecure`, each `nil` when the server leaves it to `flowrun run`'s options and the environment.
///
/// `proxy` and the file paths may read `$env` (and nothing else: they describe the machine the run is on, not
/// the run's data, and are checked once before the first request). A relative file path is relative to the
/// folder of the workflow file. ``resolved(server:environment:)`` gives what a dispatcher applies.
package struct ServerNetworkSettings: Sendable {
    /// The proxy URL, or `none` to go directly.
    package var proxy: Located<ValueTemplate>?
    /// How long connecting may take.
    package var connectTimeout: Located<Duration>?
    /// The PEM file of the authorities to trust instead of the system's.
    package var caCertificates: Located<ValueTemplate>?
    /// The PEM file of the client certificate.
    package var certificate: Located<ValueTemplate>?
    /// The PEM file of the client certificate's key.
    package var key: Located<ValueTemplate>?
    /// Whether to skip certificate verification.
    package var insecure: Located<Bool>?
    /// The path of the workflow file, whose folder relative file paths start from.
    package var workflowPath: String

    /// The value `proxy:` takes to send the server's requests directly, in any case.
    package static let directProxy = "none"

    /// No setting: everything is the dispatcher's.
    /// - Parameter workflowPath: The path of the workflow file the server is declared in.
    package init(workflowPath: String) {
        self.workflowPath = workflowPath
    }

    /// Whether the server sets none of the keys.
    package var isEmpty: Bool {
        proxy == nil && connectTimeout == nil && caCertificates == nil && certificate == nil && key == nil
            && insecure == nil
    }

    /// The settings that hold a template, with their workflow key: what `$env` may be read in.
    package var templates: [(key: String, value: Located<ValueTemplate>)] {
        [("proxy", proxy), ("cacert", caCertificates), ("cert", certificate), ("key", key)].compactMap { entry in
            entry.1.map { (entry.0, $0) }
        }
    }

    /// The settings with `$env` read from `environment` and file paths resolved against the workflow's folder, or
    /// `nil` when the server sets none. A value that comes out empty (an empty `$env` variable) is left unset.
    /// - Parameters:
    ///   - server: The server's name.
    ///   - environment: The values `$env.NAME` reads.
    /// - Throws: A `binding` error for a `$env` variable that is not in `environment`.
    package func resolved(server: String, environment: [String: String]) throws(FlowError) -> ServerNetwork? {
        guard !isEmpty else { return nil }
        func text(_ setting: Located<ValueTemplate>?) throws(FlowError) -> String? {
            guard let setting else { return nil }
            do {
                let value: JSONValue = try setting.value.evaluate { expression in
                    guard case .environment(let name) = expression.source, let value = environment[name] else {
                        throw FlowError(
                            .binding, "server '\(server)' reads '\(expression)', which has no value",
                            at: setting.location)
                    }
                    return .string(value)
                }
                // `proxy: "{$env.CORP_PROXY}"` with the variable empty leaves the setting to the dispatcher.
                let text = value.interpolationText
                return text.trimmingSpacesAndTabs().isEmpty ? nil : text
            } catch let error as FlowError {
                throw error
            } catch {
                throw FlowError(.binding, "\(error)", at: setting.location, underlyingError: error)
            }
        }
        func file(_ setting: Located<ValueTemplate>?) throws(FlowError) -> String? {
            try text(setting).map { SubWorkflowLoader.resolve($0, from: workflowPath) }
        }
        let proxy = try text(proxy).map { $0.lowercased() == Self.directProxy ? ServerNetwork.Proxy.direct : .url($0) }
        let network = ServerNetwork(
            server: server, proxy: proxy, connectTimeout: connectTimeout?.value,
            caCertificatesFile: try file(caCertificates), clientCertificateFile: try file(certificate),
            clientKeyFile: try file(key), insecure: insecure?.value)
        return network == ServerNetwork(server: server) ? nil : network
    }
}
