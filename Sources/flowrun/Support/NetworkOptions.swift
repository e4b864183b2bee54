import FlowCore
import FlowHTTP

/// The network settings of `flowrun run`: which HTTP proxy each request goes through (`--proxy`, or the
/// `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` environment variables), how long connecting may take
/// (`--connect-timeout`), and the certificates TLS uses (`--cacert`, `--cert`, `--key`).
struct NetworkOptions {
    var proxies: ProxySettings
    var connectTimeout: Duration?
    var tls: TLSSettings

    /// An option or environment variable that cannot be used: the message names it, never a credential.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads the settings; `--proxy` replaces the environment's proxies, whose `NO_PROXY` still applies.
    /// - Parameter environment: The process environment (not a `.env` file, which is for `$env`).
    init(
        proxy: String?, connectTimeout: String?, caCertificates: String?, certificate: String?, key: String?,
        environment: [String: String]
    ) throws(Invalid) {
        do {
            proxies = try ProxySettings(environment: environment)
        } catch {
            throw Invalid(description: "\(error)")
        }
        if let proxy {
            do {
                proxies = proxies.using(try ProxyServer(url: proxy))
            } catch {
                throw Invalid(description: "--proxy: \(error)")
            }
        }
        self.connectTimeout = nil
        if let connectTimeout {
            guard case .success(let duration) = DurationParser.parse(connectTimeout), duration > .zero else {
                throw Invalid(description: "--connect-timeout: '\(connectTimeout)' is not a duration; write one such as 5s or 500ms")
            }
            self.connectTimeout = duration
        }
        do {
            tls = try TLSSettings(caCertificatesFile: caCertificates, clientCertificateFile: certificate, clientKeyFile: key)
        } catch {
            throw Invalid(description: "\(error)")
        }
    }

    /// Reads every workflow server's own network settings, as the HTTP dispatcher will, so a proxy URL or a
    /// certificate file that cannot be used stops the run before its first request.
    /// - Parameters:
    ///   - plan: The workflow, with the workflows it calls.
    ///   - environment: What `$env` reads.
    /// - Throws: ``Invalid`` naming the server (where it is declared), the key and the file.
    static func checkServers(of plan: Plan, environment: [String: String]) throws(Invalid) {
        for (server, network) in plan.serverNetworks(environment: environment) {
            do {
                _ = try ServerConnectionSettings(network)
            } catch {
                throw Invalid(description: "\(server.name.location): \(error.message)")
            }
        }
    }
}
