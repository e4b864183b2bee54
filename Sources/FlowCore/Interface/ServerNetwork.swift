/// The network settings a workflow's server sets for the requests sent to it, with `$env` read and file paths
/// resolved: the part of `servers:` that an HTTP dispatcher applies, each setting `nil` where the server leaves
/// it to the dispatcher's defaults (`flowrun run`'s options and the environment's proxies).
///
/// The engine puts it in ``StepRequest/network`` of every request whose URL starts with the server's; a
/// dispatcher that does not send HTTP itself, such as the mock, ignores it.
///
/// Its description shows a proxy's credentials as `***`, so a message or log that prints it reveals none.
public struct ServerNetwork: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Which proxy the server's requests go through.
    public enum Proxy: Sendable, Hashable {
        /// None: directly to the server, whatever `--proxy` and the proxy environment variables say.
        case direct
        /// The HTTP proxy at this URL, `http://[user[:password]@]host[:port]`, for every request to the server.
        case url(String)
    }

    /// The server's name, for messages.
    public var server: String
    /// The server's proxy, or `nil` for the dispatcher's.
    public var proxy: Proxy?
    /// How long connecting to the server (or its proxy) may take, or `nil` for the dispatcher's limit.
    public var connectTimeout: Duration?
    /// The PEM file of the certificate authorities to trust instead of the system's, or `nil`.
    public var caCertificatesFile: String?
    /// The PEM file of the client certificate for mutual TLS (which may hold its key too), or `nil`.
    public var clientCertificateFile: String?
    /// The PEM file of the client certificate's private key, or `nil` when the certificate's file holds it.
    public var clientKeyFile: String?
    /// Whether to skip TLS certificate verification for the server, or `nil` for the dispatcher's choice.
    public var insecure: Bool?

    /// Creates the settings of a server; every setting left `nil` is the dispatcher's.
    /// - Parameters:
    ///   - server: The server's name, for messages.
    ///   - proxy: Its proxy.
    ///   - connectTimeout: Its connect time limit.
    ///   - caCertificatesFile: The authorities to trust.
    ///   - clientCertificateFile: The client certificate.
    ///   - clientKeyFile: The client certificate's key.
    ///   - insecure: Whether to skip certificate verification.
    public init(
        server: String, proxy: Proxy? = nil, connectTimeout: Duration? = nil, caCertificatesFile: String? = nil,
        clientCertificateFile: String? = nil, clientKeyFile: String? = nil, insecure: Bool? = nil
    ) {
        self.server = server
        self.proxy = proxy
        self.connectTimeout = connectTimeout
        self.caCertificatesFile = caCertificatesFile
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
        self.insecure = insecure
    }

    /// The same settings under no server's name: two servers whose settings are equal can share a client.
    public var unnamed: ServerNetwork {
        var settings = self
        settings.server = ""
        return settings
    }

    /// `server 'bank' (proxy http://***@proxy:3128, cacert ca.pem)`: the settings that are set, no credential.
    public var description: String { "server '\(server)' (\(settingsDescription))" }

    /// `proxy http://***@proxy:3128, cacert ca.pem`: the settings that are set, no credential.
    public var settingsDescription: String {
        var parts: [String] = []
        switch proxy {
        case .direct?: parts.append("proxy none")
        case .url(let url)?: parts.append("proxy \((try? ProxyURL(url))?.description ?? "(not a proxy URL)")")
        case nil: break
        }
        if let connectTimeout { parts.append("connectTimeout \(connectTimeout.roundedText)") }
        if let caCertificatesFile { parts.append("cacert \(caCertificatesFile)") }
        if let clientCertificateFile { parts.append("cert \(clientCertificateFile)") }
        if let clientKeyFile { parts.append("key \(clientKeyFile)") }
        if let insecure { parts.append("insecure \(insecure)") }
        return parts.joined(separator: ", ")
    }

    /// What `dump` and debuggers show: the ``description``, so they reveal no proxy password either.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
