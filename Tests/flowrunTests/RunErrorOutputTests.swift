import FlowTestServer
import Foundation
import Testing

/// What `flowrun run` prints of a failed response on a terminal.
struct RunErrorOutputTests {
    /// ANSI sequences a hostile server might send: red text, a cleared screen, a window title.
    @Test(arguments: [
        // JSON, the sequences escaped in its string: the error message quotes the decoded message.
        (#"{"message":"\u001b[31mred\u001b[2J"}"#, "application/json", #"status 500: \u{1B}[31mred\u{1B}[2J"#),
        // Text, the sequences raw: the response excerpt shows them.
        ("\u{1B}[31mred\u{1B}]0;pwned\u{07}", "text/plain", #"response: \u{1B}[31mred\u{1B}]0;pwned\u{7}"#),
    ])
    func aResponseNeverSendsTheTerminalAnEscapeSequence(body: String, contentType: String, shown: String) async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        try await withTestServer({ _ in .text(body, status: 500, headers: [("Content-Type", contentType)]) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "ping.yaml"], in: folder.url, environment: ["API": server.baseURL])
            #expect(outcome.status == 1)
            #expect(!outcome.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(outcome.stderr)")
            #expect(outcome.stderr.contains(shown), "\(outcome.stderr)")
        }
    }

    /// docs/run-reports.md, the human format: the response excerpt keeps its lines, each later one under the first,
    /// in a workflow's run and an Arazzo document's alike; never a literal `\n`, and still no escape sequence.
    @Test(arguments: ["workflow", "arazzo"])
    func aResponseExcerptKeepsItsLines(document: String) async throws {
        // An Arazzo document's `list-cats` workflow, whose one step lists the cats, and a workflow that sends the same.
        let folder = try ArazzoRunCommandTests.withTwoWorkflows()
        try folder.write("ping.yaml", """
            flowrun: 1
            env: { API: {} }
            servers: { api: "{$env.API}" }
            steps:
              - { id: ping, server: api, request: { method: GET, path: /v1/pets } }
            """)
        let body = "line one\r\nline \u{1B}[2Jtwo\n\n"
        try await withTestServer({ _ in .text(body, status: 500, headers: [("Content-Type", "text/plain")]) }) { server in
            let arguments = document == "workflow"
                ? ["run", "ping.yaml"]
                : ["run", "two.arazzo.yaml", "--workflow", "list-cats", "--server", "shop=\(server.baseURL)/v1"]
            let outcome = try await FlowRunProcess.run(arguments, in: folder.url, environment: ["API": server.baseURL])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("  response: line one\n            line \\u{1B}[2Jtwo\n"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains(#"line one\r\n"#) && !outcome.stderr.contains(#"line one\n"#), "\(outcome.stderr)")
            #expect(!outcome.stderr.unicodeScalars.contains { $0 == "\u{1B}" }, "\(outcome.stderr)")

            // `--format json` keeps the excerpt as the server sent it.
            let json = try await FlowRunProcess.run(arguments + ["--format", "json"], in: folder.url, environment: ["API": server.baseURL])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect((report["error"] as? [String: Any])?["responseExcerpt"] as? String == body, "\(json.stdout)")
        }
    }

    /// A step that recovers quotes the server's message on its line: the line stays one line, with no escape sequence.
    @Test func aRecoveredStepsMessageIsEscaped() async throws {
        let folder = try TemporaryFolder.withPingWorkflow("catch: [{ when: { step: ping, status: 500 }, fallback: {} }]")
        let body = #"{"message":"down\u001b[2J\nfor \u001b]0;pwned\u0007now"}"#
        try await withTestServer({ _ in .text(body, status: 500, headers: [("Content-Type", "application/json")]) }) { server in
            let outcome = try await FlowRunProcess.run(["run", "ping.yaml"], in: folder.url, environment: ["API": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let line = try #require(outcome.stderr.split(separator: "\n").first { $0.hasPrefix("↺ ping") })
            #expect(line.hasSuffix(#"recovered from: status 500: down\u{1B}[2J\nfor \u{1B}]0;pwned\u{7}now"#),
                    "\(outcome.stderr)")
            #expect(!outcome.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(outcome.stderr)")
        }
    }
}
