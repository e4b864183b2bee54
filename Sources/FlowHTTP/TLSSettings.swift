import FlowCore
import NIOSSL

/// Certificates for TLS besides the system's: the certificate authorities to trust instead of the system's
/// (curl's `--cacert`, for an API behind a private CA) and a client certificate for mutual TLS (`--cert` and
/// `--key`, which FAPI and open-banking APIs require).
///
/// Every file is read, and the client certificate checked against its key, when the settings are made, so a
/// missing or unusable file is an error before the first request rather than a failed handshake later.
///
/// ```swift
/// let tls = try TLSSettings(caCertificatesFile: "corp-ca.pem", clientCertificateFile: "me.pem", clientKeyFile: "me.key")
/// try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false, tls: tls) { dispatcher in … }
/// ```
public struct TLSSettings: Sendable {
    /// The authorities to trust instead of the system's, or `nil` for the system's.
    var trustRoots: [NIOSSLCertificate]?
    /// The client certificate and the chain up to its authority, first the certificate; empty for none.
    var clientChain: [NIOSSLCertificate] = []
    /// The client certificate's private key.
    var clientKey: NIOSSLPrivateKey?

    /// The system's authorities and no client certificate.
    public init() {}

    /// Reads PEM files.
    /// - Parameters:
    ///   - caCertificatesFile: One or more CA certificates to trust instead of the system's.
    ///   - clientCertificateFile: The client certificate, optionally followed by its chain; it may also hold the
    ///     private key when `clientKeyFile` is `nil`.
    ///   - clientKeyFile: The client certificate's private key, unencrypted.
    /// - Throws: ``InvalidFile`` naming the file (and the option, as `role`) that cannot be read or used, or a
    ///   key that does not belong to the certificate.
    public init(caCertificatesFile: String?, clientCertificateFile: String?, clientKeyFile: String?) throws(InvalidFile) {
        if let caCertificatesFile {
            trustRoots = try Self.certificates(in: caCertificatesFile, role: .caCertificates)
        }
        guard let clientCertificateFile else {
            if let clientKeyFile {
                throw InvalidFile(path: clientKeyFile, role: .clientKey, reason: "a key needs its client certificate too")
            }
            return
        }
        clientChain = try Self.certificates(in: clientCertificateFile, role: .clientCertificate)
        let keyFile = clientKeyFile ?? clientCertificateFile
        // Without a key file the key is looked for in the certificate's file: that file, and its option or server
        // key, is the one a problem with the key names.
        let keyRole: InvalidFile.Role = clientKeyFile == nil ? .clientCertificate : .clientKey
        try Self.checkReadable(keyFile, role: keyRole)
        do {
            clientKey = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            throw InvalidFile(
                path: keyFile, role: keyRole,
                reason: clientKeyFile == nil
                    ? "it holds no private key; give the key's file too"
                    : "it holds no unencrypted PEM private key (\(error))")
        }
        // The certificate and key must be a pair: found now, not in the first handshake.
        var configuration = TLSConfiguration.makeClientConfiguration()
        apply(to: &configuration)
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw InvalidFile(path: keyFile, role: keyRole, reason: "the key does not belong to the client certificate")
        }
    }

    /// These settings with a server's own over them: its authorities instead of these when it names some, its
    /// client certificate and key instead of these when it has one.
    func overridden(by server: TLSSettings) -> TLSSettings {
        var merged = self
        if let trustRoots = server.trustRoots { merged.trustRoots = trustRoots }
        if server.clientKey != nil {
            merged.clientChain = server.clientChain
            merged.clientKey = server.clientKey
        }
        return merged
    }

    /// Puts the authorities, certificate and key into `configuration`.
    func apply(to configuration: inout TLSConfiguration) {
        if let trustRoots { configuration.trustRoots = .certificates(trustRoots) }
        if let clientKey, !clientChain.isEmpty {
            configuration.certificateChain = clientChain.map { .certificate($0) }
            configuration.privateKey = .privateKey(clientKey)
        }
    }

    private static func certificates(in path: String, role: InvalidFile.Role) throws(InvalidFile) -> [NIOSSLCertificate] {
        try checkReadable(path, role: role)
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw InvalidFile(path: path, role: role, reason: Self.reason(error, path: path))
        }
        guard !certificates.isEmpty else {
            throw InvalidFile(path: path, role: role, reason: "it holds no PEM certificate")
        }
        return certificates
    }

    /// Fails for a file that is not there or cannot be read: NIOSSL reports both as a file with no PEM in it.
    private static func checkReadable(_ path: String, role: InvalidFile.Role) throws(InvalidFile) {
        if let problem = PEMFileCheck.readabilityProblem(at: path) {
            throw InvalidFile(path: path, role: role, reason: problem)
        }
    }

    /// Why a file could not be read: it is missing or unreadable, or not PEM.
    private static func reason(_ error: any Error, path: String) -> String {
        if let error = error as? NIOSSLError, case .failedToLoadCertificate = error {
            return "it holds no PEM certificate"
        }
        return "cannot read it (\(error))"
    }

    /// A certificate or key file that cannot be used.
    public struct InvalidFile: Error, CustomStringConvertible, Sendable {
        /// What the file was for.
        public enum Role: String, Sendable {
            case caCertificates = "--cacert"
            case clientCertificate = "--cert"
            case clientKey = "--key"

            /// The key of a workflow's server that names such a file: `cacert`, `cert` or `key`.
            public var serverKey: String { String(rawValue.dropFirst(2)) }
        }

        /// The file's path, as given.
        public var path: String
        /// What it was for; its raw value is the `flowrun run` option.
        public var role: Role
        /// What is wrong with it.
        public var reason: String

        /// `--cacert corp-ca.pem: it holds no PEM certificate`.
        public var description: String { "\(role.rawValue) \(path): \(reason)" }
    }
}
