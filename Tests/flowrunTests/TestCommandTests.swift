import Foundation
import FoundationXML
import Testing

private let workflow = """
    flowrun: 1
    env: { API_URL: {} }
    servers: { api: "{$env.API_URL}" }
    policies:
      standard: { retry: { when: { status: 503 }, attempts: 3, delay: 1s } }
    defaults: { server: api, policy: standard }
    steps:
      - id: user
        request: { method: GET, path: /user }
        outputs: { name: $response.body#/name }
    outputs:
      name: $steps.user.outputs.name
    """

/// The head of the test files here: the workflow, its server and a stub that answers `GET /user` with `ada`.
/// The cases follow from line 6.
private let testFileHead = """
    flowrun-test: 1
    workflow: wf.yaml
    env: { API_URL: https://api.test }
    stubs:
      - { match: { method: GET, path: /user }, respond: { body: { name: ada } } }

    """

/// Two passing cases.
private let tests = testFileHead + """
    cases:
      - name: happy path
        expect: { outputs: { name: ada }, calls: [GET /user] }
      - name: retries a 503
        stubs:
          - { match: { path: /user }, respond: [{ status: 503 }, { body: { name: ada } }] }
        expect: { attempts: { user: 2 }, elapsed: 1s }
    """

/// A passing case and a failing one, whose name needs escaping in XML.
private let failing = testFileHead + """
    cases:
      - name: passes
        expect: { outputs: { name: ada } }
      - name: "wrong <name> & more"
        expect: { outputs: { name: bob } }
    """

/// A folder holding the workflow and `files` (name to contents).
private func folder(_ files: [String: String]) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    try folder.write("wf.yaml", workflow)
    for (name, contents) in files { try folder.write(name, contents) }
    return folder
}

struct TestCommandTests {
    @Test func passingCasesExitZeroWithALinePerCaseAndASummary() async throws {
        let folder = try folder(["a.test.yaml": tests])
        let outcome = try await FlowRunProcess.run(["test", "."], in: folder.url)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("a.test.yaml\n"))
        #expect(outcome.stdout.contains("✓ happy path  (0s virtual, "))
        #expect(outcome.stdout.contains("✓ retries a 503  (1s virtual, "))
        #expect(outcome.stdout.contains("2 passed, 0 failed in 1 file ("))
    }

    @Test func theCurrentFolderIsTheDefault() async throws {
        let folder = try folder(["sub/a.test.yml": tests.replacingOccurrences(of: "wf.yaml", with: "../wf.yaml")])
        let outcome = try await FlowRunProcess.run(["test"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("sub/a.test.yml\n"))
    }

    @Test func aFailingCaseExitsOneWithItsDiff() async throws {
        let folder = try folder(["f.test.yaml": failing])
        let outcome = try await FlowRunProcess.run(["test", folder.url.path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("✓ passes"))
        #expect(outcome.stdout.contains("✗ wrong <name> & more"))
        // Issue 9 item 20: the failure names the line of the expectation that failed.
        #expect(outcome.stdout.contains("f.test.yaml:10:26: outputs: outputs differ\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(#"        /name: expected "bob", actual "ada""#))
        #expect(outcome.stdout.contains("1 passed, 1 failed in 1 file"))
    }

    @Test func anInvalidTestFileExitsTwoWithLocatedErrors() async throws {
        let folder = try folder([
            "bad.test.yaml": "flowrun-test: 1\nworkflow: wf.yaml\ncases:\n  - name: a\n    expcet: {}\n",
            "good.test.yaml": tests,
        ])
        let outcome = try await FlowRunProcess.run(["test", "."], in: folder.url)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains(
            "bad.test.yaml:5:5: error: unknown key 'expcet' in case 'a'; did you mean 'expect'? [unknown-key]"))
        #expect(outcome.stdout.contains("        expcet: {}\n"))
        // The valid file still runs.
        #expect(outcome.stdout.contains("2 passed, 0 failed, 1 invalid file in 2 files"))
    }

    @Test func lintErrorsAgainstTheWorkflowMakeTheFileInvalid() async throws {
        let folder = try folder(["a.test.yaml": """
            flowrun-test: 1
            workflow: wf.yaml
            cases:
              - name: a
                stubs: [{ match: { path: /users }, respond: {} }]
                expect: { outputs: { nme: x }, attempts: { usr: 1 } }
            """])
        let outcome = try await FlowRunProcess.run(["test", "."], in: folder.url)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("a.test.yaml:5:13: error: this stub can never answer: no step of the workflow sends any method /users"))
        #expect(outcome.stdout.contains("a.test.yaml:6:26: error: the workflow has no output 'nme'; did you mean 'name'?"))
        #expect(outcome.stdout.contains("a.test.yaml:6:48: error: the workflow has no step 'usr'; did you mean 'user'?"))
    }

    @Test func aWorkflowThatDoesNotCompileMakesTheFileInvalid() async throws {
        let folder = try TemporaryFolder()
        try folder.write("wf.yaml", "flowrun: 1\nsteps: 3\n")
        try folder.write("a.test.yaml", tests)
        let outcome = try await FlowRunProcess.run(["test", "."], in: folder.url)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("wf.yaml:2:8: error:"))
    }

    @Test func noTestFilesExitsTwo() async throws {
        let folder = try TemporaryFolder()
        try folder.write("wf.yaml", workflow)
        let outcome = try await FlowRunProcess.run(["test", folder.url.path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("no test files (*.test.yaml, *.test.yml) found"))
        let missing = try await FlowRunProcess.run(["test", folder.url.appendingPathComponent("nope").path])
        #expect(missing.status == 2)
    }

    /// About 292 years or more once crashed the option's parser (SIGILL).
    @Test func aWallTimeoutTooLongForTheClockIsAnArgumentError() async throws {
        let folder = try folder(["a.test.yaml": tests])
        let outcome = try await FlowRunProcess.run(["test", ".", "--wall-timeout", "2562048h"], in: folder.url)
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("--wall-timeout: invalid duration '2562048h': longer than 2562047h"))
    }

    @Test func filterSelectsCasesBySubstringOrRegex() async throws {
        let folder = try folder(["a.test.yaml": tests])
        let substring = try await FlowRunProcess.run(["test", ".", "--filter", "503"], in: folder.url)
        #expect(substring.status == 0)
        #expect(substring.stdout.contains("retries a 503"))
        #expect(!substring.stdout.contains("happy path"))
        #expect(substring.stdout.contains("1 passed, 0 failed"))

        let regex = try await FlowRunProcess.run(["test", ".", "--filter", "a\\.test\\.yaml › h.*th$"], in: folder.url)
        #expect(regex.stdout.contains("happy path"))
        #expect(!regex.stdout.contains("retries"))

        let none = try await FlowRunProcess.run(["test", ".", "--filter", "nothing"], in: folder.url)
        #expect(none.status == 2)
        #expect(none.stderr.contains("no case matches --filter 'nothing'"))
    }

    @Test func junitReportParsesBackWithCountsAndAttributes() async throws {
        let folder = try folder(["f.test.yaml": failing, "a.test.yaml": tests])
        let outcome = try await FlowRunProcess.run(["test", ".", "--format", "junit"], in: folder.url)
        #expect(outcome.status == 1)
        let document = try XMLDocument(data: Data(outcome.stdout.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "0")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["a.test.yaml", "f.test.yaml"])
        let cases = suites[1].elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["passes", "wrong <name> & more"])
        #expect(cases[1].attribute(forName: "classname")?.stringValue == "f")
        #expect(cases[1].attribute(forName: "line")?.stringValue == "10")  // the failed expectation's line
        #expect(Double(cases[1].attribute(forName: "time")?.stringValue ?? "") != nil)
        let failure = try #require(cases[1].elements(forName: "failure").first)
        #expect(failure.attribute(forName: "type")?.stringValue == "outputs")
        #expect(failure.attribute(forName: "message")?.stringValue == "outputs differ")
        #expect(failure.stringValue?.contains(#"/name: expected "bob", actual "ada""#) == true)
        #expect(cases[0].elements(forName: "failure").isEmpty)
    }

    @Test func junitOutIsWrittenBesideTheChosenFormat() async throws {
        let folder = try folder(["a.test.yaml": tests, "bad.test.yaml": "flowrun-test: 1\nworkflow: wf.yaml\n"])
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("out"), withIntermediateDirectories: true)
        let outcome = try await FlowRunProcess.run(["test", ".", "--junit-out", "out/report.xml"], in: folder.url)
        // An invalid file: exit 2, reported as a suite with one errored case.
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("2 passed, 0 failed, 1 invalid file in 2 files"))
        let data = try Data(contentsOf: folder.url.appendingPathComponent("out/report.xml"))
        let root = try #require(try XMLDocument(data: data).rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "3")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        let error = try #require(root.elements(forName: "testsuite")[1].elements(forName: "testcase").first?
            .elements(forName: "error").first)
        #expect(error.attribute(forName: "type")?.stringValue == "invalid-test-file")
        #expect(error.stringValue?.contains("bad.test.yaml:1:1: error: the test file is missing the required key 'cases'") == true)
    }

    /// A report path that cannot be written is named with the reason before any case runs, exit 2, and nothing is
    /// left behind; a report that is written replaces the old file whole.
    @Test func aJUnitOutThatCannotBeWrittenIsNamedWithTheReason() async throws {
        let folder = try folder(["a.test.yaml": tests])
        let missingFolder = try await FlowRunProcess.run(
            ["test", "a.test.yaml", "--junit-out", "/nonexistent/dir/r.xml"], in: folder.url)
        #expect(missingFolder.status == 2)
        #expect(missingFolder.stderr
            == "flowrun test: cannot write /nonexistent/dir/r.xml: the folder /nonexistent/dir does not exist\n")
        #expect(missingFolder.stdout.isEmpty, "no case runs: \(missingFolder.stdout)")
        let relative = try await FlowRunProcess.run(
            ["test", "a.test.yaml", "--junit-out", "out/report.xml"], in: folder.url)
        #expect(relative.status == 2)
        #expect(relative.stderr == "flowrun test: cannot write out/report.xml: the folder out does not exist\n")

        let aFolder = try await FlowRunProcess.run(["test", "a.test.yaml", "--junit-out", "."], in: folder.url)
        #expect(aFolder.status == 2)
        #expect(aFolder.stderr == "flowrun test: cannot write .: it is a folder\n")

        let noMatch = try await FlowRunProcess.run(
            ["test", "a.test.yaml", "--junit-out", "r.xml", "--filter", "nothing"], in: folder.url)
        #expect(noMatch.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["a.test.yaml", "wf.yaml"],
                "no partial file is left behind")

        let old = try folder.write("r.xml", "old report")
        let written = try await FlowRunProcess.run(["test", "a.test.yaml", "--junit-out", "r.xml"], in: folder.url)
        #expect(written.status == 0, "\(written.stderr)")
        let report = try String(contentsOfFile: old, encoding: .utf8)
        #expect(report.hasPrefix("<?xml"), "\(report)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
            == ["a.test.yaml", "r.xml", "wf.yaml"])
    }

    @Test func githubFormatAnnotatesFailedCasesAtTheirLine() async throws {
        let folder = try folder(["f.test.yaml": failing])
        let outcome = try await FlowRunProcess.run(["test", ".", "--format", "github"], in: folder.url)
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(
            "::error file=f.test.yaml,line=10,col=26,title=flowrun test%3A wrong <name> & more (outputs)::outputs differ%0A  /name: expected \"bob\""))
        #expect(lines[1].hasPrefix("1 passed, 1 failed in 1 file"))
    }

    @Test func jsonFormatHasEveryCase() async throws {
        let folder = try folder(["a.test.yaml": tests])
        let outcome = try await FlowRunProcess.run(["test", ".", "--format", "json"], in: folder.url)
        #expect(outcome.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let summary = document?["summary"] as? [String: Any]
        #expect(summary?["passed"] as? Int == 2)
        let files = document?["files"] as? [[String: Any]]
        let cases = files?.first?["cases"] as? [[String: Any]]
        #expect(cases?.map { $0["name"] as? String } == ["happy path", "retries a 503"])
        #expect(cases?.last?["elapsed"] as? String == "1s")
    }

    @Test func theExamplesPass() async throws {
        let outcome = try await FlowRunProcess.run(["test", "workflows/"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains(" 0 failed in 13 files"))
    }
}
