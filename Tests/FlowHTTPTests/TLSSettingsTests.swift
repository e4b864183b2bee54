import FlowCore
import FlowTestServer
import Foundation
import Logging
import Testing

@testable import FlowHTTP

/// A private CA (`--cacert`) and mutual TLS (`--cert`, `--key`) against a real HTTPS server on 127.0.0.1, with
/// certificates made for the test by `openssl`.
struct TLSSettingsTests {
    private func get(_ url: String, tls: TLSSettings) async throws -> StepResponse {
        try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false, tls: tls) { dispatcher in
            try await dispatcher.dispatch(
                StepRequest(method: "GET", url: url),
                context: StepContext(
                    stepID: "s", attempt: 1, attemptTimeout: .seconds(5),
                    logger: Logger(label: "TLSSettingsTests") { _ in SwiftLogNoOpLogHandler() }))
        }
    }

    @Test func aServerOfAPrivateCAIsTrustedOnlyWithThatCA() async throws {
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        try await withTestServer(tls: try certificates.serverContext(), { _ in .text("private") }) { server in
            let refused = await #expect(throws: FlowError.self) { try await get(server.baseURL + "/", tls: TLSSettings()) }
            #expect(refused?.code == .transport)
            #expect(refused?.message.hasPrefix("TLS handshake with 127.0.0.1:\(server.port) failed") == true,
                    "\(refused?.message ?? "")")

            let trusted = try TLSSettings(
                caCertificatesFile: certificates.caCertificate, clientCertificateFile: nil, clientKeyFile: nil)
            let response = try await get(server.baseURL + "/", tls: trusted)
            #expect(String(decoding: response.body, as: UTF8.self) == "private")
            #expect(server.requests.count == 1)
        }
    }

    @Test func mutualTLSPresentsTheClientCertificate() async throws {
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        let context = try certificates.serverContext(requiringClientCertificates: true)
        try await withTestServer(tls: context) { server in
            let withoutCertificate = try TLSSettings(
                caCertificatesFile: certificates.caCertificate, clientCertificateFile: nil, clientKeyFile: nil)
            await #expect(throws: FlowError.self) { try await get(server.baseURL + "/", tls: withoutCertificate) }
            #expect(server.requests.isEmpty)

            let withCertificate = try TLSSettings(
                caCertificatesFile: certificates.caCertificate, clientCertificateFile: certificates.clientCertificate,
                clientKeyFile: certificates.clientKey)
            #expect(try await get(server.baseURL + "/", tls: withCertificate).status == 200)
            #expect(server.requests.count == 1)
        }
    }

    @Test func aCertificateFileThatHoldsItsKeyNeedsNoKeyFile() throws {
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        let combined = certificates.path("combined.pem")
        let text = try String(contentsOfFile: certificates.clientCertificate, encoding: .utf8)
            + String(contentsOfFile: certificates.clientKey, encoding: .utf8)
        try Data(text.utf8).write(to: URL(fileURLWithPath: combined))
        let settings = try TLSSettings(caCertificatesFile: nil, clientCertificateFile: combined, clientKeyFile: nil)
        #expect(settings.clientChain.count == 1 && settings.clientKey != nil)
    }

    @Test func unusableFilesAreNamedWithTheirOption() throws {
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        let missing = certificates.path("missing.pem")
        func failure(_ ca: String?, _ certificate: String?, _ key: String?) -> TLSSettings.InvalidFile? {
            do {
                _ = try TLSSettings(caCertificatesFile: ca, clientCertificateFile: certificate, clientKeyFile: key)
                return nil
            } catch {
                return error
            }
        }
        let noFile = failure(missing, nil, nil)
        #expect(noFile?.role == .caCertificates && noFile?.path == missing)
        #expect(noFile?.description.hasPrefix("--cacert \(missing): ") == true)
        #expect(noFile?.reason == "no such file")
        #expect(failure(nil, certificates.clientCertificate, missing)?.reason == "no such file")
        #expect(failure(certificates.path("."), nil, nil)?.reason == "it is a folder")
        #expect(failure(certificates.serverKey, nil, nil)?.reason == "it holds no PEM certificate")
        #expect(failure(nil, nil, certificates.clientKey)?.reason == "a key needs its client certificate too")
        let keyless = failure(nil, certificates.clientCertificate, nil)
        #expect(keyless?.role == .clientCertificate && keyless?.path == certificates.clientCertificate)
        #expect(keyless?.reason == "it holds no private key; give the key's file too")
        let stray = failure(nil, certificates.clientCertificate, certificates.strayKey)
        #expect(stray?.role == .clientKey && stray?.reason == "the key does not belong to the client certificate")
        #expect(failure(certificates.caCertificate, certificates.clientCertificate, certificates.clientKey) == nil)
    }
}
