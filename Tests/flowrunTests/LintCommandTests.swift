import Foundation
import Testing

private let valid = """
    flowrun: 1
    servers: { api: "https://api.example.com" }
    defaults: { server: api }
    steps:
      - id: ping
        request: { method: GET, path: /ping }
    """

struct LintCommandTests {
    @Test func cleanFileExitsZero() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("ok.yaml", valid)
        let outcome = try FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("1 file checked, no problems"))
    }

    @Test func errorsArePrintedCompilerStyleWithTheSourceLineAndACaret() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.yaml", valid.replacingOccurrences(of: "/ping", with: "\"/p/{$inputs.id}\""))
        let outcome = try FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("\(path):6:48: error: '$inputs.id' reads input 'id', but the workflow declares no inputs"))
        #expect(lines[1] == "        request: { method: GET, path: \"/p/{$inputs.id}\" }")
        #expect(lines[2] == "    " + String(repeating: " ", count: 47) + "^")
        #expect(outcome.stdout.contains("1 error, 0 warnings"))
    }

    @Test func warningsFailOnlyWithStrict() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("warn.yaml", valid + "\ntypes: { Unused: { type: string } }\n")
        #expect(try FlowRunProcess.run(["lint", path]).status == 0)
        let strict = try FlowRunProcess.run(["lint", "--strict", path])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("warning: type 'Unused' is never used"))
    }

    @Test func githubFormatPrintsWorkflowCommands() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.yaml", valid.replacingOccurrences(of: "GET", with: "GOT"))
        let outcome = try FlowRunProcess.run(["lint", "--format", "github", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.hasPrefix("::error file=\(path),line=6,col=24,title=flowrun lint (invalid-value)::"))
    }

    @Test func jsonFormatIsParseableAndComplete() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.yaml", valid)
        try folder.write("b.yaml", "flowrun: 1\nsteps: 3\n")
        let outcome = try FlowRunProcess.run(["lint", "--format", "json", folder.url.path])
        #expect(outcome.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let summary = document?["summary"] as? [String: Int]
        #expect(summary == ["files": 2, "errors": 1, "warnings": 0])
        let files = document?["files"] as? [[String: Any]]
        let diagnostics = files?[1]["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.first?["code"] as? String == "type-mismatch")
        #expect(diagnostics?.first?["line"] as? Int == 2)
    }

    @Test func foldersAreSearchedSkippingTestAndMockFiles() throws {
        let folder = try TemporaryFolder()
        try folder.write("one.yaml", valid)
        try folder.write("nested/two.yml", valid)
        try folder.write("one.test.yaml", "not: a workflow")
        try folder.write("one.mock.yaml", "not: a workflow")
        let outcome = try FlowRunProcess.run(["lint", folder.url.path])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("2 files checked, no problems"))
    }

    @Test func missingFilesAndMissingArgumentsExitTwo() throws {
        let missing = try FlowRunProcess.run(["lint", "/nonexistent/flow.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/flow.yaml: no such file or folder"))
        let none = try FlowRunProcess.run(["lint"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("Usage"))
    }

    @Test(arguments: [
        ("tabs.yaml", "flowrun: 1\nsteps:\n\t- id: a\n"),
        ("unclosed.yaml", "flowrun: 1\nname: \"oops\nsteps: []\n"),
        ("indent.yaml", "flowrun: 1\nsteps:\n  - id: a\n   request: {}\n"),
        ("dup.yaml", "flowrun: 1\nsteps: []\nsteps: []\n"),
        ("empty.yaml", ""),
        ("comments.yaml", "# nothing here\n"),
        ("binary.yaml", "\u{0}\u{1}\u{2}garbage\u{FFFF}"),
    ])
    func malformedFilesExitOneWithALocatedError(name: String, contents: String) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(name, contents)
        let outcome = try FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.range(of: #"^\#(path):[0-9]+:[0-9]+: error: "#, options: .regularExpression) != nil,
                "\(outcome.stdout)")
    }
}
