import Foundation
import Testing

/// Issue 9 item 20: a failed expectation points at its own line, its diff shows no credential, and `--exclude`
/// keeps fixtures out of a search.
struct TestFailureReportTests {
    private let workflow = """
        flowrun: 1
        inputs: { type: object, properties: { token: { type: string, format: password } } }
        servers: { api: https://api.test }
        interceptors: { auth: { bearer: $inputs.token } }
        defaults: { server: api, interceptors: [auth] }
        steps:
          - { id: user, request: { method: GET, path: /user } }
          - { id: account, after: [user], request: { method: GET, path: /account } }
        """

    private let tests = """
        flowrun-test: 1
        workflow: wf.yaml
        inputs: { token: t-1 }
        stubs:
          - { respond: { body: {} } }
        cases:
          - name: wrong call
            expect:
              calls:
                - GET /user
                - { method: GET, path: /account, headers: { Authorization: Bearer t-2 } }
              steps: { user: succeeded, account: failed }
        """

    @Test func eachFailureNamesTheLineOfItsExpectationAndNoCredential() async throws {
        let folder = try TemporaryFolder()
        try folder.write("wf.yaml", workflow)
        try folder.write("a.test.yaml", tests)
        let human = try await FlowRunProcess.run(["test", "a.test.yaml"], in: folder.url)
        #expect(human.status == 1)
        #expect(human.stdout.contains("a.test.yaml:11:11: calls: calls differ at call 2"), "\(human.stdout)")
        #expect(human.stdout.contains("a.test.yaml:12:33: steps: step statuses differ"), "\(human.stdout)")
        #expect(human.stdout.contains("header Authorization is 'Bearer ***', expected 'Bearer ***'"), "\(human.stdout)")
        #expect(!human.stdout.contains("t-1") && !human.stdout.contains("t-2"), "\(human.stdout)")

        let github = try await FlowRunProcess.run(["test", "a.test.yaml", "--format", "github"], in: folder.url)
        #expect(github.stdout.contains("::error file=a.test.yaml,line=11,col=11,"), "\(github.stdout)")
        #expect(github.stdout.contains("::error file=a.test.yaml,line=12,col=33,"), "\(github.stdout)")

        let json = try await FlowRunProcess.run(["test", "a.test.yaml", "--format", "json"], in: folder.url)
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        let cases = try #require(files.first?["cases"] as? [[String: Any]])
        let failures = try #require(cases.first?["failures"] as? [[String: Any]])
        #expect(failures.compactMap { $0["line"] as? Int } == [11, 12])
    }

    /// docs/testing-workflows.md, outcome: the start of the response is shown as `flowrun run` shows it, line by
    /// line under its label, with control characters escaped.
    @Test func aResponseExcerptIsShownAsTheRunShowsIt() async throws {
        let folder = try TemporaryFolder()
        try folder.write("wf.yaml", workflow)
        try folder.write("a.test.yaml", """
            flowrun-test: 1
            workflow: wf.yaml
            inputs: { token: t-1 }
            stubs:
              - { respond: { status: 500, headers: { content-type: text/plain }, text: "line one\\nline \\e[2Jtwo" } }
            cases:
              - name: down
                expect: { outcome: success }
            """)
        let human = try await FlowRunProcess.run(["test", "a.test.yaml"], in: folder.url)
        #expect(human.status == 1)
        #expect(human.stdout.contains("        response: line one\n                  line \\u{1B}[2Jtwo\n"), "\(human.stdout)")
        #expect(!human.stdout.unicodeScalars.contains { $0 == "\u{1B}" }, "\(human.stdout)")
    }

    @Test func excludeKeepsMatchingEntriesOutOfAFolderSearch() async throws {
        let folder = try TemporaryFolder()
        try folder.write("wf.yaml", workflow)
        try folder.write("a.test.yaml", tests.replacingOccurrences(of: "Bearer t-2", with: "Bearer t-1")
            .replacingOccurrences(of: "account: failed", with: "account: succeeded"))
        try folder.write("Tests/fixtures/bad.test.yaml", "flowrun-test: 1\nnot: valid\n")
        try folder.write("Tests/fixtures/bad.yaml", "flowrun: 2\n")
        try folder.write(".build-x/other.test.yaml", "flowrun-test: 1\nnot: valid\n")

        let all = try await FlowRunProcess.run(["test"], in: folder.url)
        #expect(all.status == 2, "the fixture is found without --exclude: \(all.stdout)")
        #expect(!all.stdout.contains(".build-x"), "hidden folders are always skipped: \(all.stdout)")

        let excluded = try await FlowRunProcess.run(["test", "--exclude", "Tests/*"], in: folder.url)
        #expect(excluded.status == 0, "\(excluded.stdout)")
        #expect(excluded.stdout.contains("1 passed, 0 failed in 1 file"), "\(excluded.stdout)")

        let lint = try await FlowRunProcess.run(["lint", ".", "--exclude", "fixtures"], in: folder.url)
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout.contains("1 file checked, no problems"), "\(lint.stdout)")
    }
}
