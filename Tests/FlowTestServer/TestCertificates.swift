import Foundation
package import NIOSSL

/// A private certificate authority made for one test, with a server certificate for 127.0.0.1 and a client
/// certificate it signed, as PEM files in a temporary folder: what `--cacert` and mutual TLS are tested with.
///
/// Made with the `openssl` command (Debian's `openssl` package), with P-256 keys, valid for a day.
package struct TestCertificates: Sendable {
    /// The folder holding the files; removed by ``remove()``.
    let folder: URL
    package var caCertificate: String { path("ca.pem") }
    package var serverCertificate: String { path("server.pem") }
    package var serverKey: String { path("server.key") }
    package var clientCertificate: String { path("client.pem") }
    package var clientKey: String { path("client.key") }
    /// A key that belongs to no certificate here.
    package var strayKey: String { path("stray.key") }

    /// The path of the folder holding the files.
    package var folderPath: String { folder.path }
    package func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Makes the authority, the server and client certificates, and a stray key.
    package static func make() throws -> TestCertificates {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificates = TestCertificates(folder: folder)
        try certificates.write("server.ext", "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
        try certificates.write("client.ext", "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n")
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + key + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=flowrun test CA"], in: folder)
        for name in ["server", "client"] {
            try openssl(["req"] + key + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=flowrun test \(name)"], in: folder)
            try openssl(
                ["x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", "\(name).pem", "-days", "1", "-extfile", "\(name).ext"], in: folder)
        }
        try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", "stray.key"], in: folder)
        return certificates
    }

    /// A server context with the server certificate; with `requiringClientCertificates`, it asks for a client
    /// certificate signed by the authority and refuses a handshake without one.
    package func serverContext(requiringClientCertificates: Bool = false) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(serverCertificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: serverKey, format: .pem)))
        if requiringClientCertificates {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caCertificate))
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// Removes the folder.
    package func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    private static func openssl(_ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestServerError.openssl("openssl \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
