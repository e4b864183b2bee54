import AsyncHTTPClient
import FlowCore
import FlowTestServer
import Foundation
import Logging
import NIOCore
import NIOSSL
import Testing

@testable import FlowHTTP

/// A workflow server's network settings as the dispatcher applies them, per request (``StepRequest/network``).
struct ServerNetworkDispatchTests {
    private let context = StepContext(
        stepID: "s", attempt: 1, attemptTimeout: .seconds(5),
        logger: Logger(label: "ServerNetworkDispatchTests") { _ in SwiftLogNoOpLogHandler() })

    private func request(_ url: String, _ network: ServerNetwork?) -> StepRequest {
        var request = StepRequest(method: "GET", url: url)
        request.network = network
        return request
    }

    @Test func aRequestsOwnCacertTrustsItsServerWhereTheDispatchersDefaultsDoNot() async throws {
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        try await withTestServer(tls: try certificates.serverContext(), { _ in .text("private") }) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let refused = await #expect(throws: FlowError.self) {
                    try await dispatcher.dispatch(request(server.baseURL + "/a", nil), context: context)
                }
                #expect(refused?.message.hasPrefix("TLS handshake with 127.0.0.1:\(server.port) failed") == true)
                let network = ServerNetwork(server: "bank", caCertificatesFile: certificates.caCertificate)
                let response = try await dispatcher.dispatch(request(server.baseURL + "/b", network), context: context)
                #expect(String(decoding: response.body, as: UTF8.self) == "private")
                // A later request with the same settings reuses the client, and its open connection.
                _ = try await dispatcher.dispatch(request(server.baseURL + "/c", network), context: context)
            }
            #expect(server.requests.map(\.path) == ["/b", "/c"])
        }
    }

    /// Connecting never completes; the attempt's 5-second limit would end it as an attempt timeout, and the
    /// dispatcher's own connect timeout (AsyncHTTPClient's 10 seconds) later still: only the server's ends it as
    /// a connect timeout.
    @Test func aServersConnectTimeoutBoundsConnectingToIt() async throws {
        try await withUnansweredPort { port in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let network = ServerNetwork(server: "slow", connectTimeout: .milliseconds(200))
                let error = await #expect(throws: FlowError.self) {
                    try await dispatcher.dispatch(request("http://127.0.0.1:\(port)/x", network), context: context)
                }
                #expect(error?.code == .transport)
                #expect(error?.message == "connecting to 127.0.0.1:\(port) timed out", "\(error?.message ?? "")")
            }
        }
    }

    @Test func aServersConnectTimeoutAndProxyWinAndTheRestAreTheDispatchers() throws {
        let defaultProxy = try ProxyServer(url: "http://default-proxy:3128")
        let clients = ServerClients(
            defaults: ServerClients.Defaults(
                insecure: true, maxRedirects: 5, maxConnectionsPerHost: 8, maxResponseBodySize: 1024,
                proxies: ProxySettings(http: defaultProxy, https: defaultProxy, noProxy: ["localhost"]),
                connectTimeout: .seconds(2), tls: TLSSettings()))
        let own = try ServerConnectionSettings(
            ServerNetwork(server: "a", proxy: .url("http://own:8080"), connectTimeout: .milliseconds(1500), insecure: false))
        #expect(clients.configuration(for: own).timeout.connect == .milliseconds(1500))
        #expect(clients.configuration(for: own).tlsConfiguration?.certificateVerification == .fullVerification)
        #expect(own.proxies?.server(forScheme: "https", host: "localhost", port: 443)?.host == "own")

        let inherited = try ServerConnectionSettings(ServerNetwork(server: "b", proxy: .direct))
        #expect(clients.configuration(for: inherited).timeout.connect == .seconds(2))
        #expect(clients.configuration(for: inherited).tlsConfiguration?.certificateVerification == NIOSSL.CertificateVerification.none)
        #expect(inherited.proxies?.server(forScheme: "https", host: "api.test", port: 443) == nil)
    }

    @Test func aDispatcherOnAClientOfYourOwnRefusesAServersSettingsAndNamesNoCredential() async throws {
        let network = ServerNetwork(server: "bank", proxy: .url("http://ada:hunter2@proxy.test:3128"))
        let error = await #expect(throws: FlowError.self) {
            try await AsyncHTTPClientDispatcher().dispatch(request("http://127.0.0.1:9/x", network), context: context)
        }
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("server 'bank' sets its own network settings (proxy http://***@proxy.test:3128)") == true,
                "\(error?.message ?? "")")
        #expect(error.map { !"\($0)".contains("hunter2") } == true)
    }

    @Test(arguments: [
        (ServerNetwork(server: "bank", proxy: .url("socks5://ada:hunter2@proxy:1080")),
         "the proxy of server 'bank': 'socks5' proxies are not supported"),
        (ServerNetwork(server: "bank", caCertificatesFile: "/nonexistent/ca.pem"),
         "the 'cacert' file of server 'bank', /nonexistent/ca.pem: no such file"),
        (ServerNetwork(server: "bank", clientCertificateFile: "/nonexistent/me.pem"),
         "the 'cert' file of server 'bank', /nonexistent/me.pem: no such file"),
    ])
    func settingsThatCannotBeUsedNameTheServerTheKeyAndTheFile(network: ServerNetwork, message: String) {
        let error = #expect(throws: FlowError.self) { try ServerConnectionSettings(network) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("hunter2") == false)
    }
}
