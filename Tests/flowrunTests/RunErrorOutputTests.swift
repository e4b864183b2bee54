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
}
