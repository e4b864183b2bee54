import Testing

@testable import FlowCore

/// A server URL that reads nothing is known when the file is read: lint refuses one that a run would refuse
/// (not an absolute `http(s)` URL), at the URL, instead of the first run failing on it.
struct ServerURLLintTests {
    private func workflow(server: String) -> String {
        """
        flowrun: 1
        env: { BASE: {} }
        servers:
          \(server)
        steps:
          - { id: a, server: api, request: { method: GET, path: /a } }
        """
    }

    @Test(arguments: [
        "api: ftp://files.test", "api: { url: api.test/v1 }", "api: { url: /v1 }", "api: 'https:/api.test'",
    ])
    func aLiteralURLThatIsNotAbsoluteHTTPIsALintError(server: String) {
        let found = diagnostics(workflow(server: server)).filter { $0.severity == .error }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .invalidValue)
        #expect(found.first?.message.contains("which is not an absolute http(s) URL") == true, "\(found)")
        #expect(found.first?.location?.line == 4)
    }

    @Test(arguments: [
        "api: https://api.test", "api: { url: HTTP://api.test/ }", #"api: { url: "{$env.BASE}" }"#,
        #"api: { url: "{$env.BASE}/v1" }"#,
    ])
    func anHTTPURLOrOneThatReadsAValueIsAccepted(server: String) {
        #expect(diagnostics(workflow(server: server)).filter { $0.severity == .error }.isEmpty)
    }
}
