package import FlowCore

/// A workflow server's network settings (``ServerNetwork``) read and checked: its proxy URL parsed and its
/// certificate files loaded, so a bad one is found before the first request, with a message that names the
/// server, the key and the file, never a proxy's credentials.
///
/// `flowrun run` makes these for every server before the first request, to exit 2 on a bad one; the dispatcher
/// makes them again for the client of a server's settings.
package struct ServerConnectionSettings: Sendable {
    /// Which proxy the server's requests go through, or `nil` for the dispatcher's proxies.
    var proxies: ProxySettings?
    /// The connect time limit, or `nil` for the dispatcher's.
    var connectTimeout: Duration?
    /// The server's authorities and client certificate; empty where the dispatcher's apply.
    var tls: TLSSettings
    /// Whether to skip certificate verification, or `nil` for the dispatcher's choice.
    var insecure: Bool?

    /// Reads `network`.
    /// - Throws: An `invalid-value` ``FlowError`` for a proxy URL flowrun cannot use, or an `unreadable-file` one
    ///   for a certificate or key file that is missing, unreadable, not PEM, or a key that does not belong to
    ///   the certificate.
    package init(_ network: ServerNetwork) throws(FlowError) {
        switch network.proxy {
        case nil: proxies = nil
        case .direct?: proxies = ProxySettings()
        case .url(let url)?:
            do {
                let proxy = try ProxyServer(url: url)
                // The server's own proxy carries all its requests: NO_PROXY is for the environment's proxies.
                proxies = ProxySettings(http: proxy, https: proxy, noProxy: [])
            } catch {
                throw FlowError(
                    .invalidValue, "the proxy of server '\(network.server)': \(error.reason) (or write 'none' to go directly)")
            }
        }
        connectTimeout = network.connectTimeout
        insecure = network.insecure
        do {
            tls = try TLSSettings(
                caCertificatesFile: network.caCertificatesFile, clientCertificateFile: network.clientCertificateFile,
                clientKeyFile: network.clientKeyFile)
        } catch {
            throw FlowError(
                .unreadableFile,
                "the '\(error.role.serverKey)' file of server '\(network.server)', \(error.path): \(error.reason)")
        }
    }
}
