import FlowTestServer
import Foundation
import Testing

/// `flowrun run`'s proxy and connect-timeout settings, against a real proxy and server on 127.0.0.1.
struct RunNetworkOptionsTests {
    /// The proxy variables of the machine running the tests, which no run here may see.
    private static let proxyVariables: Set<String> = [
        "HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy",
    ]

    /// A host that drops connection attempts: the attempt's 300 ms limit ends the run, and the command exits
    /// then, not after the connect timeout that the HTTP client's pending attempt still waits for. That timeout is
    /// 60 s here, so a slow start on a loaded machine (seconds, in a debug build) cannot be mistaken for it.
    @Test func aRunThatTimedOutConnectingExitsAtOnceNotAfterTheConnectTimeout() async throws {
        let folder = try TemporaryFolder()
        try folder.write("slow.yaml", unansweredWorkflow)
        try await withUnansweredPort { port in
            let started = ContinuousClock.now
            let outcome = try await FlowRunProcess.run(
                ["run", "slow.yaml", "--format", "json", "--connect-timeout", "60s"], in: folder.url,
                environment: ["API": "http://127.0.0.1:\(port)"], removing: Self.proxyVariables)
            let elapsed = started.duration(to: .now)
            #expect(outcome.status == 1, "\(outcome.stderr)")
            #expect(outcome.stdout.contains(#""code": "timeout.attempt""#), "\(outcome.stdout)")
            #expect(elapsed < .seconds(30), "flowrun run took \(elapsed)")
        }
    }

    @Test func dashDashProxySendsEveryRequestThroughTheProxy() async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        try await withTestServer { server in
            try await withTestProxy { proxy in
                let outcome = try await FlowRunProcess.run(
                    ["run", "ping.yaml", "--proxy", proxy.url, "--connect-timeout", "2s"], in: folder.url,
                    environment: ["API": server.baseURL], removing: Self.proxyVariables)
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(proxy.connects.map(\.target) == ["127.0.0.1:\(server.port)"])
                #expect(server.requests.map(\.path) == ["/ping"])
            }
        }
    }

    @Test func theProxyVariablesAreHonouredAndNoProxyBypassesThem() async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        try await withTestServer { server in
            try await withTestProxy { proxy in
                let through = try await FlowRunProcess.run(
                    ["run", "ping.yaml"], in: folder.url,
                    environment: ["API": server.baseURL, "HTTP_PROXY": proxy.url], removing: Self.proxyVariables)
                #expect(through.status == 0, "\(through.stderr)")
                #expect(proxy.connects.count == 1)

                let direct = try await FlowRunProcess.run(
                    ["run", "ping.yaml", "--proxy", proxy.url], in: folder.url,
                    environment: ["API": server.baseURL, "no_proxy": "localhost,127.0.0.1"],
                    removing: Self.proxyVariables)
                #expect(direct.status == 0, "\(direct.stderr)")
                #expect(proxy.connects.count == 1)
                #expect(server.requests.count == 2)
            }
        }
    }

    @Test(arguments: [
        (["--proxy", "socks5://ada:hunter2@proxy:1080"], [String: String](),
         "flowrun run: --proxy: 'socks5' proxies are not supported"),
        (["--connect-timeout", "soon"], [:], "flowrun run: --connect-timeout: 'soon' is not a duration"),
        ([], ["HTTPS_PROXY": "http://ada:hunter2@proxy:70000"],
         "flowrun run: HTTPS_PROXY: the proxy's port '70000' is not a number from 1 to 65535"),
    ])
    func unusableNetworkSettingsExit2BeforeAnyRequest(
        arguments: [String], environment: [String: String], message: String
    ) async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        try await withTestServer { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "ping.yaml"] + arguments, in: folder.url,
                environment: environment.merging(["API": server.baseURL]) { $1 }, removing: Self.proxyVariables)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("hunter2"))
            #expect(server.requests.isEmpty)
        }
    }
    @Test func dashDashCacertAndAClientCertificateReachAMutualTLSServerOfAPrivateCA() async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        let context = try certificates.serverContext(requiringClientCertificates: true)
        try await withTestServer(tls: context) { server in
            let untrusted = try await FlowRunProcess.run(
                ["run", "ping.yaml"], in: folder.url, environment: ["API": server.baseURL], removing: Self.proxyVariables)
            #expect(untrusted.status == 1)
            #expect(untrusted.stderr.contains("TLS handshake with 127.0.0.1:\(server.port) failed"), "\(untrusted.stderr)")

            let trusted = try await FlowRunProcess.run(
                ["run", "ping.yaml", "--cacert", certificates.caCertificate, "--cert", certificates.clientCertificate,
                 "--key", certificates.clientKey],
                in: folder.url, environment: ["API": server.baseURL], removing: Self.proxyVariables)
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(server.requests.map(\.path) == ["/ping"])
        }
    }

    @Test func aCertificateFileThatCannotBeUsedExits2BeforeAnyRequest() async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        try await withTestServer(tls: try certificates.serverContext()) { server in
            for (arguments, message) in [
                (["--cacert", certificates.path("missing.pem")], "flowrun run: --cacert \(certificates.path("missing.pem")): "),
                (["--cert", certificates.clientCertificate, "--key", certificates.strayKey],
                 "flowrun run: --key \(certificates.strayKey): the key does not belong to the client certificate"),
                // Without --key, the key is looked for in the certificate's file: the message names that file's option.
                (["--cert", certificates.clientCertificate],
                 "flowrun run: --cert \(certificates.clientCertificate): it holds no private key; give the key's file too"),
            ] {
                let outcome = try await FlowRunProcess.run(
                    ["run", "ping.yaml"] + arguments, in: folder.url, environment: ["API": server.baseURL],
                    removing: Self.proxyVariables)
                #expect(outcome.status == 2)
                #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
            }
            #expect(server.requests.isEmpty)
        }
    }
}
