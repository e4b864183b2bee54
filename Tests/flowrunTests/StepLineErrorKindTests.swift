import FlowTestServer
import Foundation
import Testing

/// docs/run-reports.md, the human format: a step line shows the last attempt's status, or its error kind when
/// no response arrived, by the name the JSON report's error `code` uses.
@Suite(.timeLimit(.minutes(2)))
struct StepLineErrorKindTests {
    private static func workflow(attemptTimeout: String) -> String {
        """
        flowrun: 1
        name: kinds
        env: { API: {} }
        servers: { api: { url: "{$env.API}" } }
        policies:
          p:
            timeout: { attempt: \(attemptTimeout) }
            retry: [ { when: { errors: [transport, timeout.attempt] }, attempts: 2, delay: 10ms } ]
        defaults: { server: api, policy: p }
        steps:
          - id: a
            request: { method: GET, path: /x }
        """
    }

    /// The step line of `stderr` for step `a`.
    private static func stepLine(_ stderr: String) -> String {
        stderr.split(separator: "\n").first { $0.hasPrefix("✗ a ") }.map(String.init) ?? ""
    }

    @Test func aRefusedConnectionShowsTransport() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("kinds.yaml", Self.workflow(attemptTimeout: "5s"))
        try await withRefusingPort { port in
            let outcome = try await FlowRunProcess.run(
                ["run", path], environment: ["API": "http://127.0.0.1:\(port)"])
            #expect(outcome.status == 1, "\(outcome.stderr)")
            let line = Self.stepLine(outcome.stderr)
            #expect(line.contains("GET http://127.0.0.1:\(port)/x  transport  "), "\(outcome.stderr)")
            #expect(line.hasSuffix("(2 attempts)"), "\(line)")
        }
    }

    @Test func aSlowServerShowsTheAttemptTimeout() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("kinds.yaml", Self.workflow(attemptTimeout: "100ms"))
        let slow = TestReply(status: 200, body: Array("{}".utf8), delay: .seconds(2))
        try await withTestServer({ _ in slow }) { server in
            let outcome = try await FlowRunProcess.run(["run", path], environment: ["API": server.baseURL])
            #expect(outcome.status == 1, "\(outcome.stderr)")
            let line = Self.stepLine(outcome.stderr)
            #expect(line.contains("GET \(server.baseURL)/x  timeout.attempt  "), "\(outcome.stderr)")
            let json = try await FlowRunProcess.run(
                ["run", path, "--format", "json"], environment: ["API": server.baseURL])
            #expect(json.stdout.contains("timeout.attempt"), "\(json.stdout)")
        }
    }
}
