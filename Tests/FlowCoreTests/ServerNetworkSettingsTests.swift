@testable import FlowCore
import Foundation
import Testing

/// A server's network keys under `servers:` (`proxy`, `connectTimeout`, `cacert`, `cert`, `key`, `insecure`):
/// how they are decoded and checked, and how they reach the dispatcher in ``StepRequest/network``.
struct ServerNetworkSettingsTests {
    /// Compiles `yaml` as `flows/wf.yaml`, so relative paths resolve against `flows/`.
    private func flowsPlan(_ yaml: String) throws -> Plan {
        try WorkflowCompiler().compile(yaml: yaml, path: "flows/wf.yaml")
    }

    @Test func theSettingsReachTheDispatcherForRequestsToTheirServerOnly() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let plan = try flowsPlan("""
            flowrun: 1
            env: { CERTS: {}, PROXY: { default: "http://ada:hunter2@proxy.test:3128" } }
            servers:
              bank:
                url: https://bank.test
                proxy: "{$env.PROXY}"
                connectTimeout: 1500ms
                cacert: "{$env.CERTS}/ca.pem"
                cert: "/etc/{$env.CERTS}/client.pem"
                key: "{$env.CERTS}/../client.key"
                insecure: false
              plain: https://plain.test
              local: { url: "http://localhost:8080", proxy: none }
            steps:
              - { id: toBank, server: bank, request: { method: GET, path: /accounts } }
              - { id: elsewhere, server: bank, request: { method: GET, path: "https://other.test/x" } }
              - { id: toPlain, server: plain, request: { method: GET, path: /x } }
              - { id: toLocal, server: local, request: { method: GET, path: /x } }
            """)
        let report = await engine(dispatcher).run(plan, inputs: [:], environment: ["CERTS": "certs"])
        #expect(report.error == nil, "\(String(describing: report.error))")
        let byURL = Dictionary(dispatcher.requests.map { ($0.url, $0.network) }, uniquingKeysWith: { a, _ in a })
        #expect(
            byURL["https://bank.test/accounts"]
                == ServerNetwork(
                    server: "bank", proxy: .url("http://ada:hunter2@proxy.test:3128"), connectTimeout: .milliseconds(1500),
                    caCertificatesFile: "flows/certs/ca.pem", clientCertificateFile: "/etc/certs/client.pem",
                    clientKeyFile: "flows/client.key", insecure: false))
        #expect(byURL["https://other.test/x"] == .some(nil))
        #expect(byURL["https://plain.test/x"] == .some(nil))
        #expect(byURL["http://localhost:8080/x"] == ServerNetwork(server: "local", proxy: .direct))
        // The steps run at once, so their requests arrive in any order.
        let toBank = try #require(dispatcher.requests.first { $0.url == "https://bank.test/accounts" })
        let shown = "\(toBank)"
        #expect(shown.contains("proxy http://***@proxy.test:3128"), "\(shown)")
        #expect(!shown.contains("hunter2"))
    }

    /// A called workflow's server keeps its own settings, `$env` read as that workflow declares it and paths
    /// relative to its own folder; `flowrun run` checks them too (``Plan/serverNetworks(environment:)``).
    @Test func aCalledWorkflowsServerKeepsItsOwnSettings() async throws {
        let callee = """
            flowrun: 1
            env: { CA: { default: ca.pem } }
            servers: { auth: { url: "https://auth.test", cacert: "certs/{$env.CA}" } }
            steps:
              - { id: token, server: auth, request: { method: POST, path: /login } }
            """
        let caller = """
            flowrun: 1
            servers: { api: { url: "https://api.test", proxy: none } }
            steps:
              - { id: login, workflow: ./auth/login.yaml }
              - { id: use, server: api, after: [login], request: { method: GET, path: /x } }
            """
        let plan = try SubWorkflowTests.compiler(["flows/auth/login.yaml": callee])
            .compile(yaml: caller, path: "flows/main.yaml")
        let checked = plan.serverNetworks(environment: ["CA": "private-ca.pem"]).map(\.network)
        #expect(checked == [
            ServerNetwork(server: "api", proxy: .direct),
            ServerNetwork(server: "auth", caCertificatesFile: "flows/auth/certs/private-ca.pem"),
        ])
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let report = await engine(dispatcher).run(plan, inputs: [:], environment: [:])
        #expect(report.error == nil, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.network) == [
            ServerNetwork(server: "auth", caCertificatesFile: "flows/auth/certs/ca.pem"),
            ServerNetwork(server: "api", proxy: .direct),
        ])
    }

    @Test func anEmptyEnvValueLeavesTheSettingUnsetAndNoneIsCaseInsensitive() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let plan = try flowsPlan("""
            flowrun: 1
            env: { PROXY: { default: "" } }
            servers:
              fromEnv: { url: "https://a.test", proxy: "{$env.PROXY}" }
              shouting: { url: "https://b.test", proxy: NONE }
            steps:
              - { id: a, server: fromEnv, request: { method: GET, path: /x } }
              - { id: b, server: shouting, request: { method: GET, path: /x } }
            """)
        let report = await engine(dispatcher).run(plan, inputs: [:], environment: [:])
        #expect(report.error == nil, "\(String(describing: report.error))")
        let byURL = Dictionary(dispatcher.requests.map { ($0.url, $0.network) }, uniquingKeysWith: { a, _ in a })
        #expect(byURL["https://a.test/x"] == .some(nil))
        #expect(byURL["https://b.test/x"] == ServerNetwork(server: "shouting", proxy: .direct))
    }

    @Test func badValuesAreLintErrorsWhereTheyAreWritten() {
        let found = diagnostics("""
            flowrun: 1
            inputs: { type: object, properties: { ca: { type: string } } }
            servers:
              a: { url: "https://a.test", proxy: "socks5://ada:hunter2@proxy:1080", connectTimeout: soon }
              b: { url: "https://b.test", connectTimout: 2s, key: b.key, insecure: yes }
              c: { url: "https://c.test", cacert: "{$inputs.ca}", connectTimeout: 0s, proxy: "" }
            steps:
              - { id: a, server: a, request: { method: GET, path: /x } }
              - { id: b, server: b, request: { method: GET, path: /x } }
              - { id: c, server: c, request: { method: GET, path: "/{$inputs.ca}" } }
            """)
        func finding(_ text: String) -> Diagnostic? { found.first { $0.message.contains(text) } }
        let proxy = finding("the proxy of server 'a': 'socks5' proxies are not supported")
        #expect(proxy?.location?.line == 4 && proxy?.location?.column == 38, "\(found)")
        #expect(!found.contains { $0.message.contains("hunter2") })
        let timeout = finding("connect timeout of server 'a'")
        #expect(timeout?.location?.line == 4 && timeout?.code == .invalidValue, "\(found)")
        #expect(finding("unknown key 'connectTimout'")?.message.contains("did you mean 'connectTimeout'?") == true, "\(found)")
        #expect(finding("server 'b' has a 'key' but no 'cert'")?.location?.line == 5, "\(found)")
        #expect(finding("'insecure' of server 'b' to be true or false")?.location?.line == 5, "\(found)")
        let input = finding("'cacert' of server 'c' reads '$inputs.ca'; it may read $env only")
        #expect(input?.location?.line == 6 && input?.location?.column == 41, "\(found)")
        #expect(finding("a duration must be positive (in the connect timeout of server 'c')")?.location?.line == 6, "\(found)")
        // `key` without `cert` is an error, and so is its missing file.
        #expect(finding("the 'key' file of server 'b', b.key: no such file")?.location?.line == 5, "\(found)")
        #expect(finding("the proxy of server 'c' is empty")?.location?.line == 6, "\(found)")
        #expect(found.filter { $0.severity == .error }.count == 9, "\(found)")
    }

    @Test func literalFilesAreCheckedAgainstTheWorkflowsFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-pem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("certs"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
        try certificate.write(to: folder.appendingPathComponent("certs/ca.pem"), atomically: true, encoding: .utf8)
        try certificate.write(to: folder.appendingPathComponent("certs/client.pem"), atomically: true, encoding: .utf8)
        try "not a key".write(to: folder.appendingPathComponent("certs/client.key"), atomically: true, encoding: .utf8)
        let yaml = """
            flowrun: 1
            servers:
              good: { url: "https://good.test", cacert: certs/ca.pem }
              noKey: { url: "https://a.test", cert: certs/client.pem }
              badKey: { url: "https://b.test", cert: certs/client.pem, key: certs/client.key }
              folder: { url: "https://c.test", cacert: certs }
            steps:
              - { id: a, server: good, request: { method: GET, path: /x } }
              - { id: b, server: noKey, request: { method: GET, path: /x } }
              - { id: c, server: badKey, request: { method: GET, path: /x } }
              - { id: d, server: folder, request: { method: GET, path: /x } }
            """
        let path = folder.appendingPathComponent("wf.yaml").path
        let found = WorkflowCompiler().check(yaml: yaml, path: path).diagnostics.filter { $0.severity == .error }
        let certs = folder.appendingPathComponent("certs").path
        #expect(found.map(\.message) == [
            "the 'cert' file of server 'noKey', certs/client.pem (\(certs)/client.pem): it holds no PEM private key; "
                + "give the key's file as 'key'",
            "the 'key' file of server 'badKey', certs/client.key (\(certs)/client.key): it holds no PEM private key",
            "the 'cacert' file of server 'folder', certs (\(certs)): it is a folder",
        ], "\(found)")
        #expect(found.allSatisfy { $0.code == .unreadableFile && $0.location?.path == path })
        #expect(found.first?.location?.line == 4)
    }
}
