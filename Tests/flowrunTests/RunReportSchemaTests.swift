import FlowTestServer
import Foundation
import Testing

/// `flowrun run --format json` prints what docs/run-reports.md and schemas/run-report.schema.json say, checked by
/// an independent validator (Python jsonschema) on succeeded, recovered and failed runs.
@Suite(.enabled(if: pythonValidatorAvailable, "needs python3 with jsonschema and ruamel.yaml"))
struct RunReportSchemaTests {
    private static let root = FlowRunProcess.packageRoot
    private static let schema = root.appendingPathComponent("schemas/run-report.schema.json").path
    private static let validator = root.appendingPathComponent("Tests/flowrunTests/support/validate_schema.py").path

    /// A workflow whose step `a` fails with 503 (retried once), whose step `b` then never starts, and whose step
    /// `c` is recovered by a `catch` fallback when `recover` is set.
    private static func workflow(recover: Bool) -> String {
        """
        flowrun: 1
        name: report-shapes
        servers: { api: { url: "https://api.example" } }
        defaults: { server: api }
        policies:
          p: { retry: { attempts: 2, delay: 10ms } }
        steps:
          - { id: c, request: { method: GET, path: /c }, outputs: { n: $response.body#/n } }
          - { id: a, policy: p, request: { method: GET, path: /a }, after: [c] }
          - { id: b, request: { method: GET, path: /b }, after: [a] }
        \(recover ? "catch:\n  - { when: { step: a }, fallback: {} }\n" : "")
        """
    }

    private static let stubs = """
        flowrun-mock: 1
        stubs:
          - { match: { method: GET, path: /c }, respond: { body: { n: 1 } } }
          - { match: { method: GET, path: /a }, respond: { status: 503, body: { error: down } } }
          - { match: { method: GET, path: /b }, respond: { body: {} } }
          - { match: { method: POST, path: /d }, respond: { status: 503, body: { error: down } } }
        """

    private func validate(_ paths: [String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                    process.arguments = ["python3", Self.validator, Self.schema] + paths
                    let pipe = Pipe()
                    process.standardOutput = pipe
                    try process.run()
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
                })
            }
        }
    }

    @Test func succeededRecoveredAndFailedRunsMatchTheSchema() async throws {
        let folder = try TemporaryFolder()
        try folder.write("failing.yaml", Self.workflow(recover: false))
        try folder.write("recovering.yaml", Self.workflow(recover: true))
        try folder.write("stubs.mock.yaml", Self.stubs)
        let banking = try await FlowRunProcess.run(
            ["run", "workflows/banking.yaml", "--mock", "workflows/banking.mock.yaml",
             "--inputs", "workflows/banking.inputs.json", "--format", "json"],
            environment: ["BANK_URL": "https://bank.example"])
        #expect(banking.status == 0, "\(banking.stderr)")
        #expect(banking.stdout.contains(#""refreshFor" : "user""#) || banking.stdout.contains(#""refreshFor": "user""#))
        let failing = try await FlowRunProcess.run(
            ["run", "failing.yaml", "--mock", "stubs.mock.yaml", "--format", "json"], in: folder.url)
        #expect(failing.status == 1, "\(failing.stderr)")
        let recovering = try await FlowRunProcess.run(
            ["run", "recovering.yaml", "--mock", "stubs.mock.yaml", "--format", "json"], in: folder.url)
        #expect(recovering.status == 0, "\(recovering.stderr)")
        #expect(recovering.stdout.contains(#""recovered""#))
        #expect(failing.stdout.contains(#""skipped""#) && failing.stdout.contains(#""retryDelayMs""#))

        // A POST that fails with a status its policy would retry, were POST idempotent.
        try folder.write("refusing.yaml", """
            flowrun: 1
            name: refusing
            servers: { api: { url: "https://api.example" } }
            policies:
              p: { retry: { attempts: 2, delay: 10ms } }
            steps:
              - { id: d, server: api, policy: p, idempotent: false, request: { method: POST, path: /d } }
            """)
        let refusing = try await FlowRunProcess.run(
            ["run", "refusing.yaml", "--mock", "stubs.mock.yaml", "--format", "json"], in: folder.url)
        #expect(refusing.status == 1, "\(refusing.stderr)")
        #expect(refusing.stdout.contains(#""retryRefused""#), "\(refusing.stdout)")

        let reports = try [("banking", banking), ("failing", failing), ("recovering", recovering), ("refusing", refusing)].map { name, run in
            try folder.write("\(name).json", run.stdout)
        }
        let result = try await validate(reports)
        #expect(result.status == 0, "\(result.output)")
    }

    /// An attempt that followed a redirect between two loopback servers lists its hops as the schema says.
    @Test func aRedirectedAttemptMatchesTheSchema() async throws {
        let folder = try TemporaryFolder()
        try await withTestServer({ _ in .text(#"{"ok": true}"#, headers: [("Content-Type", "application/json")]) }) { target in
            try await withTestServer({ _ in .redirect(to: target.baseURL + "/ok", status: 307) }) { first in
                try folder.write("hop.yaml", """
                    flowrun: 1
                    name: hop
                    servers: { api: { url: "\(first.baseURL)" } }
                    steps:
                      - { id: a, server: api, request: { method: GET, path: /start } }
                    """)
                let run = try await FlowRunProcess.run(["run", "hop.yaml", "--format", "json"], in: folder.url)
                #expect(run.status == 0, "\(run.stderr)")
                #expect(run.stdout.contains(#""redirects""#), "\(run.stdout)")
                let result = try await validate([try folder.write("hop.json", run.stdout)])
                #expect(result.status == 0, "\(result.output)")
            }
        }
    }

    /// The report of a workflow that does not compile: its error is a lint code with a location.
    @Test func aWorkflowThatDoesNotCompileMatchesTheSchema() async throws {
        let run = try await RunLintFailureReportTests.runBroken(["--format", "json"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stdout.contains("unknown-key"), "\(run.stdout)")
        let folder = try TemporaryFolder()
        let result = try await validate([try folder.write("broken.json", run.stdout)])
        #expect(result.status == 0, "\(result.output)")
    }

    /// The schema is strict enough to catch a report that drifts from the docs.
    @Test func theSchemaRefusesAnUndocumentedFieldAndAFailureWithoutItsError() async throws {
        let folder = try TemporaryFolder()
        let extra = try folder.write("extra.json", """
            {"workflow": "w", "status": "succeeded", "outputs": {}, "durationMs": 1, "steps": [], "surprise": 1}
            """)
        let failedWithoutError = try folder.write("failed.json", """
            {"workflow": "w", "status": "failed", "outputs": {}, "durationMs": 1, "steps": []}
            """)
        let attemptWithoutURL = try folder.write("attempt.json", """
            {"workflow": "w", "status": "succeeded", "outputs": {}, "durationMs": 1, "steps": [{"id": "a",
             "status": "succeeded", "startedAfterMs": 0, "durationMs": 0, "outputs": {},
             "attempts": [{"number": 1, "method": "GET", "startedAfterMs": 0, "durationMs": 0}]}]}
            """)
        let result = try await validate([extra, failedWithoutError, attemptWithoutURL])
        #expect(result.status == 1)
        for path in [extra, failedWithoutError, attemptWithoutURL] {
            #expect(result.output.contains("INVALID \(path)"), "\(result.output)")
        }
    }
}
