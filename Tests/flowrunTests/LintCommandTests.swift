import Foundation
import Testing

/// Two policies, a refresh interceptor and an on-demand POST refresh step, for `--explain`.
private let explained = """
    flowrun: 1
    servers: { api: "https://api.example.com" }
    vars: { token: t }
    interceptors:
      auth: { bearer: $vars.token }
      refresh: { run: renew, then: replay }
    policies:
      standard:
        timeout: { attempt: 5s, total: 30s }
        retry:
          - when: { status: [429, 503] }
            attempts: 4
            delay: 200ms
            backoff: exponential
            jitter: full
            retryAfter: { max: 10s }
          - { when: { errors: transport }, attempts: 3, delay: 500ms }
      quick:
        timeout: { attempt: 2s }
        retry: { when: { status: 503 }, attempts: 3, delay: 1s, retryAfter: { honor: false } }
    defaults: { server: api, interceptors: [auth, refresh], policy: standard }
    steps:
      - id: user
        request: { method: GET, path: /user }
      - id: ping
        policy: quick
        interceptors: []
        request: { method: GET, path: /ping }
      - id: renew
        on-demand: true
        interceptors: []
        idempotent: false
        request: { method: POST, path: /token }
        set: { token: $response.body#/t }
    """

struct LintCommandTests {
    @Test func cleanFileExitsZero() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("ok.yaml", WorkflowTexts.clean)
        let outcome = try await FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("1 file checked, no problems"))
    }

    @Test func errorsArePrintedCompilerStyleWithTheSourceLineAndACaret() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "bad.yaml", WorkflowTexts.clean.replacingOccurrences(of: "/ping", with: "\"/p/{$inputs.id}\""))
        let outcome = try await FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("\(path):6:48: error: '$inputs.id' reads input 'id', but the workflow declares no inputs"))
        #expect(lines[1] == "        request: { method: GET, path: \"/p/{$inputs.id}\" }")
        #expect(lines[2] == "    " + String(repeating: " ", count: 47) + "^")
        #expect(outcome.stdout.contains("1 error, 0 warnings"))
    }

    @Test func warningsFailOnlyWithStrict() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("warn.yaml", WorkflowTexts.clean + "\ntypes: { Unused: { type: string } }\n")
        #expect(try await FlowRunProcess.run(["lint", path]).status == 0)
        let strict = try await FlowRunProcess.run(["lint", "--strict", path])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("warning: type 'Unused' is never used"))
    }

    @Test func githubFormatPrintsWorkflowCommands() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.yaml", WorkflowTexts.clean.replacingOccurrences(of: "GET", with: "GOT"))
        let outcome = try await FlowRunProcess.run(["lint", "--format", "github", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.hasPrefix("::error file=\(path),line=6,col=24,title=flowrun lint (invalid-value)::"))
    }

    @Test func jsonFormatIsParseableAndComplete() async throws {
        let folder = try TemporaryFolder()
        try folder.write("a.yaml", WorkflowTexts.clean)
        try folder.write("b.yaml", "flowrun: 1\nsteps: 3\n")
        let outcome = try await FlowRunProcess.run(["lint", "--format", "json", folder.url.path])
        #expect(outcome.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let summary = document?["summary"] as? [String: Int]
        #expect(summary == ["files": 2, "errors": 1, "warnings": 0])
        let files = document?["files"] as? [[String: Any]]
        let diagnostics = files?[1]["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.first?["code"] as? String == "type-mismatch")
        #expect(diagnostics?.first?["line"] as? Int == 2)
    }

    @Test func foldersAreSearchedSkippingTestAndMockFiles() async throws {
        let folder = try TemporaryFolder()
        try folder.write("one.yaml", WorkflowTexts.clean)
        try folder.write("nested/two.yml", WorkflowTexts.clean)
        try folder.write("one.test.yaml", "not: a workflow")
        try folder.write("one.mock.yaml", "not: a workflow")
        let outcome = try await FlowRunProcess.run(["lint", folder.url.path])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("2 files checked, no problems"))
    }

    @Test func missingFilesAndMissingArgumentsExitTwo() async throws {
        let missing = try await FlowRunProcess.run(["lint", "/nonexistent/flow.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/flow.yaml: no such file or folder"))
        let none = try await FlowRunProcess.run(["lint"])
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
    func malformedFilesExitOneWithALocatedError(name: String, contents: String) async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(name, contents)
        let outcome = try await FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.range(of: #"^\#(path):[0-9]+:[0-9]+: error: "#, options: .regularExpression) != nil,
                "\(outcome.stdout)")
    }

    @Test func explainPrintsEachStepsWorstCaseAfterTheFindings() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("flow.yaml", explained)
        let outcome = try await FlowRunProcess.run(["lint", "--strict", "--explain", path])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        // user: 1 + 3 + 2 attempts, each a request, a refresh (1 request) and a replay; 6 × 10s + 31s of delays
        // is cut to the 30s total. ping: 3 × 2s + 1s + 1s. renew: a POST, never retried.
        #expect(outcome.stdout == """
            \(path): worst case per step, in plan order
              step   policy    attempts  requests  longest              notes
              user   standard         6        18  30s (total timeout)  each attempt: 401 → renew (1 request) + replay
              ping   quick            3         3  8s
              renew  standard         1         1  5s                   on-demand; never retried: not idempotent
              total, the regular steps one after another: 21 requests, longest 38s

            1 file checked, no problems

            """)
    }

    @Test func explainSaysWhyAFileWithErrorsIsNotExplained() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.yaml", WorkflowTexts.clean.replacingOccurrences(of: "GET", with: "GOT"))
        let outcome = try await FlowRunProcess.run(["lint", "--explain", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("\n\(path): not explained: the file has errors\n"))
    }

    @Test func explainAddsTheFiguresToJSON() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("flow.yaml", explained)
        let outcome = try await FlowRunProcess.run(["lint", "--explain", "--format", "json", path])
        #expect(outcome.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let file = (document?["files"] as? [[String: Any]])?.first
        let steps = try #require((file?["explain"] as? [String: Any])?["steps"] as? [[String: Any]])
        #expect(steps.map { $0["id"] as? String } == ["user", "ping", "renew"])
        #expect(steps[0]["attempts"] as? Int == 6)
        #expect(steps[0]["requests"] as? Int == 18)
        #expect(steps[0]["requestsPerAttempt"] as? Int == 3)
        #expect(steps[0]["retryDelaySeconds"] as? Double == 31)
        let duration = steps[0]["duration"] as? [String: Any]
        #expect(duration?["bound"] as? String == "total-timeout")
        #expect(duration?["seconds"] as? Double == 30)
        let refresh = steps[0]["refresh"] as? [String: Any]
        #expect(refresh?["step"] as? String == "renew")
        #expect(refresh?["statuses"] as? [Int] == [401])
        #expect(refresh?["requests"] as? Int == 1)
        #expect((steps[1]["duration"] as? [String: Any])?["seconds"] as? Double == 8)
        #expect(steps[2]["attemptLimit"] as? String == "not-idempotent")
        #expect(steps[2]["policy"] as? String == "standard")
    }

    @Test func explainBoundsAPaginationByMaxPagesAndAFanOutPerItem() async throws {
        let outcome = try await FlowRunProcess.run(
            ["lint", "--explain", "workflows/paginate-all-pages.yaml", "workflows/fan-out-details.yaml"])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains(
            "  issues  standard        60        60  10m                  "
                + "paginate: bounded by maxPages 20: 20 × (3 attempts, 30s (total timeout))"), "\(outcome.stdout)")
        #expect(lines.contains("  total, the regular steps one after another: 63 requests, longest 630s"), "\(outcome.stdout)")
        #expect(lines.contains(
            "  details       standard  3 per item  3 per item  25s per item  forEach: × the number of items "
                + "(unknown until run time), at most 4 at once; longest 25s × ⌈items / 4⌉"), "\(outcome.stdout)")
        #expect(lines.contains(
            "  total, the regular steps one after another: 6 requests + 3 × the items of details, "
                + "longest 50s + 25s × ⌈items of details / 4⌉ (item counts unknown until run time)"), "\(outcome.stdout)")
    }

    @Test func explainGivesAWorkflowStepTheCalledFilesTotal() async throws {
        let outcome = try await FlowRunProcess.run(["lint", "--explain", "workflows/list-invoices.yaml"])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stdout.contains(
            "  login     -              1         3  20s                     workflow ./shared-login.yaml: its total\n"),
            "\(outcome.stdout)")
    }

    @Test func explainsJSONSaysWhatIsPerItemAndBoundedByALimit() async throws {
        let outcome = try await FlowRunProcess.run(
            ["lint", "--explain", "--format", "json", "workflows/fan-out-details.yaml", "workflows/paginate-all-pages.yaml",
             "workflows/list-invoices.yaml"])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let files = try #require(document?["files"] as? [[String: Any]])
        let explained = files.map { $0["explain"] as? [String: Any] }
        func step(_ file: Int, _ id: String) -> [String: Any]? {
            (explained[file]?["steps"] as? [[String: Any]])?.first { $0["id"] as? String == id }
        }
        let details = try #require(step(0, "details"))
        #expect(details["perItem"] as? Bool == true)
        let forEach = details["loop"] as? [String: Any]
        #expect(forEach?["kind"] as? String == "forEach")
        #expect(forEach?["maxIterations"] is NSNull)
        #expect(forEach?["maxConcurrency"] as? Int == 4)
        let fanOutTotal = explained[0]?["total"] as? [String: Any]
        #expect(fanOutTotal?["lowerBound"] as? Bool == true)
        #expect(fanOutTotal?["requests"] as? Int == 6)
        #expect((fanOutTotal?["perItem"] as? [[String: Any]])?.first?["step"] as? String == "details")

        let issues = try #require(step(1, "issues"))
        #expect(issues["perItem"] as? Bool == false)
        let paginate = issues["loop"] as? [String: Any]
        #expect(paginate?["kind"] as? String == "paginate")
        #expect(paginate?["maxIterations"] as? Int == 20)
        #expect((paginate?["perIteration"] as? [String: Any])?["attempts"] as? Int == 3)
        #expect(issues["requests"] as? Int == 60)
        #expect((explained[1]?["total"] as? [String: Any])?["lowerBound"] as? Bool == false)

        let login = try #require(step(2, "login"))
        let call = login["subWorkflow"] as? [String: Any]
        #expect(call?["path"] as? String == "./shared-login.yaml")
        #expect((call?["total"] as? [String: Any])?["requests"] as? Int == 3)
    }
}
