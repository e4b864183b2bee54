import FlowTestServer
import Foundation
import Testing

/// A workflow server's own network settings (`proxy`, `cacert`, `cert`, `key` under `servers:`), against real
/// proxies and servers on 127.0.0.1: each applies to the requests sent to its server only, and wins over
/// `flowrun run`'s options.
struct RunServerNetworkTests {
    /// The proxy variables of the machine running the tests, which no run here may see.
    private static let proxyVariables: Set<String> = [
        "HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy",
    ]

    /// A workflow with two servers, `first` and `second` (each with `settings` added to its `url`), that pings
    /// `first`, then `second`.
    private static func twoServers(first: String = "", second: String = "", env: String = "") -> String {
        """
        flowrun: 1
        env: { FIRST: {}, SECOND: {}\(env) }
        servers:
          first: { url: "{$env.FIRST}"\(first) }
          second: { url: "{$env.SECOND}"\(second) }
        steps:
          - { id: pingFirst, server: first, request: { method: GET, path: /first } }
          - { id: pingSecond, server: second, after: [pingFirst], request: { method: GET, path: /second } }
        """
    }

    /// Runs `body` with two plain HTTP test servers.
    private func withTwoServers(_ body: (TestHTTPServer, TestHTTPServer) async throws -> Void) async throws {
        try await withTestServer { first in
            try await withTestServer { second in try await body(first, second) }
        }
    }

    @Test func onlyTheServerWithAProxyGoesThroughIt() async throws {
        let folder = try TemporaryFolder()
        try folder.write("two.yaml", Self.twoServers(first: #", proxy: "{$env.PROXY}""#, env: ", PROXY: {}"))
        try await withTwoServers { first, second in
            try await withTestProxy { proxy in
                let outcome = try await FlowRunProcess.run(
                    ["run", "two.yaml"], in: folder.url,
                    environment: ["FIRST": first.baseURL, "SECOND": second.baseURL, "PROXY": proxy.url],
                    removing: Self.proxyVariables)
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(proxy.connects.map(\.target) == ["127.0.0.1:\(first.port)"])
                #expect(first.requests.map(\.path) == ["/first"])
                #expect(second.requests.map(\.path) == ["/second"])
            }
        }
    }

    @Test func proxyNoneSendsAServerDirectlyWhateverDashDashProxySays() async throws {
        let folder = try TemporaryFolder()
        try folder.write("two.yaml", Self.twoServers(first: ", proxy: none"))
        try await withTwoServers { first, second in
            try await withTestProxy { proxy in
                let outcome = try await FlowRunProcess.run(
                    ["run", "two.yaml", "--proxy", proxy.url], in: folder.url,
                    environment: ["FIRST": first.baseURL, "SECOND": second.baseURL],
                    removing: Self.proxyVariables)
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(proxy.connects.map(\.target) == ["127.0.0.1:\(second.port)"])
                #expect(first.requests.count == 1)
                #expect(second.requests.count == 1)
            }
        }
    }

    /// `cacert` is relative to the workflow's folder (`flows/`), not to the working directory, and trusts the
    /// private CA for its server only: the other server, signed by the same CA, is not trusted.
    @Test func aServersCacertTrustsItsPrivateCAForThatServerOnly() async throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        try folder.write("certs/ca.pem", try String(contentsOfFile: certificates.caCertificate, encoding: .utf8))
        try folder.write("flows/two.yaml", Self.twoServers(first: ", cacert: ../certs/ca.pem"))
        let context = try certificates.serverContext()
        try await withTestServer(tls: context) { first in
            try await withTestServer(tls: context) { second in
                let outcome = try await FlowRunProcess.run(
                    ["run", "flows/two.yaml"], in: folder.url,
                    environment: ["FIRST": first.baseURL, "SECOND": second.baseURL], removing: Self.proxyVariables)
                #expect(outcome.status == 1)
                #expect(first.requests.map(\.path) == ["/first"], "\(outcome.stderr)")
                #expect(second.requests.isEmpty)
                #expect(outcome.stderr.contains("TLS handshake with 127.0.0.1:\(second.port) failed"), "\(outcome.stderr)")
            }
        }
    }

    /// Mutual TLS with one server, its files read through `$env`, and a plain server beside it; the server's
    /// `cert` and `key` win over `--cert` and `--key`, which name a certificate the server does not know.
    @Test func aServersClientCertificateIsPresentedToThatServer() async throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates.make()
        defer { certificates.remove() }
        let strangers = try TestCertificates.make()
        defer { strangers.remove() }
        try folder.write("two.yaml", Self.twoServers(
            first: #", cacert: "{$env.CERTS}/ca.pem", cert: "{$env.CERTS}/client.pem", key: "{$env.CERTS}/client.key""#,
            env: ", CERTS: {}"))
        try await withTestServer(tls: try certificates.serverContext(requiringClientCertificates: true)) { first in
            try await withTestServer { second in
                let outcome = try await FlowRunProcess.run(
                    ["run", "two.yaml", "--cert", strangers.clientCertificate, "--key", strangers.clientKey],
                    in: folder.url,
                    environment: [
                        "FIRST": first.baseURL, "SECOND": second.baseURL, "CERTS": certificates.folderPath,
                    ],
                    removing: Self.proxyVariables)
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(first.requests.map(\.path) == ["/first"])
                #expect(second.requests.map(\.path) == ["/second"])
            }
        }
    }

    @Test func aMissingCacertReadThroughEnvExits2NamingTheServerKeyAndFileBeforeAnyRequest() async throws {
        let folder = try TemporaryFolder()
        try folder.write("two.yaml", Self.twoServers(second: #", cacert: "{$env.CA}""#, env: ", CA: {}"))
        try await withTwoServers { first, second in
            let outcome = try await FlowRunProcess.run(
                ["run", "two.yaml"], in: folder.url,
                environment: ["FIRST": first.baseURL, "SECOND": second.baseURL, "CA": "missing/ca.pem"],
                removing: Self.proxyVariables)
            #expect(outcome.status == 2)
            #expect(
                outcome.stderr.hasPrefix(
                    "flowrun run: two.yaml:5:3: the 'cacert' file of server 'second', missing/ca.pem: no such file"),
                "\(outcome.stderr)")
            #expect(first.requests.isEmpty)
        }
    }

    @Test func lintNamesAMissingLiteralFileWhereItIsWritten() async throws {
        let folder = try TemporaryFolder()
        try folder.write("flows/two.yaml", Self.twoServers(first: ", cert: client.pem, key: client.key"))
        let outcome = try await FlowRunProcess.run(["lint", "flows/two.yaml"], in: folder.url)
        #expect(outcome.status != 0)
        let output = outcome.stdout + outcome.stderr
        #expect(output.contains("flows/two.yaml:4:39"), "\(output)")
        #expect(output.contains("the 'cert' file of server 'first', client.pem (flows/client.pem): no such file"), "\(output)")
        #expect(output.contains("the 'key' file of server 'first', client.key (flows/client.key): no such file"), "\(output)")
    }

    /// A server's proxy password appears in no message, report or HAR file, though the proxy refuses the
    /// connection.
    @Test func aServersProxyCredentialsAreNeverShown() async throws {
        let folder = try TemporaryFolder()
        try folder.write("two.yaml", Self.twoServers(second: #", proxy: "{$env.PROXY}""#, env: ", PROXY: {}"))
        try await withTestServer { first in
            try await withRefusingPort { port in
                let outcome = try await FlowRunProcess.run(
                    ["run", "two.yaml", "--format", "json", "--har-out", "run.har", "-v"], in: folder.url,
                    environment: [
                        "FIRST": first.baseURL, "SECOND": "http://127.0.0.1:9/x",
                        "PROXY": "http://ada:hunter2@127.0.0.1:\(port)",
                    ],
                    removing: Self.proxyVariables)
                #expect(outcome.status == 1)
                #expect(outcome.stdout.contains("through the proxy http://***@127.0.0.1:\(port)"), "\(outcome.stdout)")
                let har = try String(contentsOf: folder.url.appendingPathComponent("run.har"), encoding: .utf8)
                for text in [outcome.stdout, outcome.stderr, har] {
                    #expect(!text.contains("hunter2"))
                }
            }
        }
    }
}
