import FlowCore
import Testing

@testable import FlowTesting

/// Decodes `yaml` as `t.test.yaml`, with `mocks` as the stub files it may name.
private func check(_ yaml: String, mocks: [String: String] = [:]) -> WorkflowTestFile.CheckResult {
    WorkflowTestFile.check(bytes: Array(yaml.utf8), path: "dir/t.test.yaml") { path in
        guard let text = mocks[path] else { return .failure(FlowError(.unreadableFile, "cannot read \(path)")) }
        return Result { () throws(FlowError) in try MockStubs.load(yaml: text, path: path) }
    }
}

/// Expects `yaml` to have a problem with `code` at `line`:`column` whose message contains `fragment`.
private func expectProblem(
    _ yaml: String, _ code: FlowError.Code, line: Int, column: Int, containing fragment: String,
    mocks: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let result = check(yaml, mocks: mocks)
    let found = result.diagnostics.first { $0.code == code && $0.location?.line == line }
    #expect(found != nil, "no \(code) at line \(line) in \(result.diagnostics)", sourceLocation: sourceLocation)
    guard let found else { return }
    #expect(found.severity == .error, sourceLocation: sourceLocation)
    #expect(found.location?.column == column, "\(found)", sourceLocation: sourceLocation)
    #expect(found.message.contains(fragment), "\(found)", sourceLocation: sourceLocation)
}

private let header = """
    flowrun-test: 1
    workflow: ../wf.yaml

    """

/// A test file with one case, `a`, whose next line (line 5, indented under the case) is `line`.
private func oneCase(_ line: String) -> String {
    header + "cases:\n  - name: a\n    \(line)\n"
}

struct WorkflowTestFileTests {
    // MARK: The model

    @Test func fullFileDecodesIntoTheModel() throws {
        let result = check(header + """
            env: { BANK_URL: https://bank.test, PORT: 8080 }
            inputs: { token: t-1, count: 2 }
            stubs:
              - { name: shared, match: { path: /user }, respond: { body: { id: u-1 } } }
            mock: shared.mock.yaml
            cases:
              - name: everything
                inputs: { token: t-2 }
                env: { PORT: "9090" }
                runs: 3
                stubs:
                  - { match: { method: GET, path: /user }, respond: [{ status: 503 }, { status: 200 }] }
                expect:
                  outcome: { failure: { kind: timeout, step: user, status: 503, message: took too long } }
                  outputs-exact: { name: ada, list: [1, 2.5] }
                  calls:
                    - GET /user?page=2&tag=a&tag=b
                    - { method: POST, path: "/items/{id}", headers: { X-A: "1" }, body: { k: v }, step: create }
                  attempts: { user: 2 }
                  steps: { user: recovered }
                  elapsed: 1.4s
              - name: defaults
                expect: { elapsed: { max: 2s } }
              - name: zero time
                expect: { outcome: failure, elapsed: 0s }
            """, mocks: ["dir/shared.mock.yaml": "flowrun-mock: 1\nstubs: [{ name: from-file, respond: { status: 204 } }]\n"])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let file = try #require(result.file)
        #expect(file.workflow.value == "../wf.yaml")
        #expect(file.workflowPath == "wf.yaml")
        #expect(file.cases.map(\.name) == ["everything", "defaults", "zero time"])

        let first = file.cases[0]
        #expect(first.location == SourceLocation(path: "dir/t.test.yaml", line: 9, column: 5))
        #expect(first.inputs == ["token": "t-2", "count": 2])
        #expect(first.environment == ["BANK_URL": "https://bank.test", "PORT": "9090"])
        #expect(first.runs == 3)
        // The case's stubs first, then the file's, then the file's stub file.
        #expect(first.stubs.stubs.map(\.name) == [nil, "shared", "from-file"])
        let expectation = first.expectation
        guard case .failure(let failure) = expectation.outcome else {
            Issue.record("expected a failure outcome")
            return
        }
        #expect(failure.kind?.value == "timeout")
        #expect(failure.step?.value == "user")
        #expect(failure.status == 503)
        #expect(failure.message == "took too long")
        #expect(expectation.outputs?.exact == true)
        #expect(expectation.outputs?.values == ["name": "ada", "list": [1, 2.5]])
        #expect(expectation.calls?.count == 2)
        #expect(expectation.calls?[0].match == MockStub.Match(
            method: "GET", path: "/user", query: ["page": ["2"], "tag": ["a", "b"]]))
        #expect(expectation.calls?[1].match == MockStub.Match(
            method: "POST", path: "/items/{id}", headers: ["X-A": "1"], body: .object(["k": "v"])))
        #expect(expectation.calls?[1].step?.value == "create")
        #expect(expectation.attempts.map { [$0.key.value: $0.value] } == [["user": 2]])
        #expect(expectation.steps.map { [$0.key.value: $0.value] } == [["user": .recovered]])
        #expect(expectation.elapsed == .exactly(.milliseconds(1400)))

        #expect(file.cases[1].expectation.outcome == .success)
        #expect(file.cases[1].expectation.elapsed == .within(min: nil, max: .seconds(2)))
        #expect(file.cases[1].inputs == ["token": "t-1", "count": 2])
        #expect(file.cases[2].expectation.outcome == .failure(.init()))
        #expect(file.cases[2].expectation.elapsed == .exactly(.zero))
    }

    @Test(arguments: [
        ("workflow.yaml", "tests/a.test.yaml", "tests/workflow.yaml"),
        ("../workflow.yaml", "tests/a.test.yaml", "workflow.yaml"),
        ("./w/../x.yaml", "a.test.yaml", "x.yaml"),
        ("/abs/w.yaml", "tests/a.test.yaml", "/abs/w.yaml"),
        ("w.yaml", "/root/t/a.test.yaml", "/root/t/w.yaml"),
    ])
    func pathsResolveAgainstTheTestFilesFolder(written: String, file: String, resolved: String) {
        #expect(WorkflowTestFile.resolve(written, from: file) == resolved)
    }

    // MARK: Located errors

    @Test func unknownKeysAreReportedWithSuggestions() {
        expectProblem(header + """
            cases:
              - name: a
                expcet: { outcome: success }
            """, .unknownKey, line: 5, column: 5, containing: "unknown key 'expcet' in case 'a'; did you mean 'expect'?")
        expectProblem(header + """
            cases:
              - name: a
                expect: { outptus: { x: 1 } }
            """, .unknownKey, line: 5, column: 15, containing: "did you mean 'outputs'?")
        expectProblem(header + """
            cases:
              - name: a
                expect:
                  outcome: { failure: { knd: http } }
            """, .unknownKey, line: 6, column: 29, containing: "did you mean 'kind'?")
        expectProblem(header + """
            worklfow: x.yaml
            cases: [{ name: a }]
            """, .unknownKey, line: 3, column: 1, containing: "did you mean 'workflow'?")
    }

    @Test func missingKeysAreReported() {
        expectProblem("flowrun-test: 1\ncases: [{ name: a }]\n", .missingKey, line: 1, column: 1,
                      containing: "the test file is missing the required key 'workflow'")
        expectProblem(header + "cases:\n  - expect: {}\n", .missingKey, line: 4, column: 5,
                      containing: "case #1 is missing the required key 'name'")
    }

    @Test func wrongTypesAreReported() {
        expectProblem(oneCase("inputs: 3"), .typeMismatch, line: 5, column: 13,
                      containing: "expected 'inputs' of case 'a' to be a mapping, found the integer 3")
        expectProblem(header + "cases: { a: 1 }\n", .typeMismatch, line: 3, column: 8,
                      containing: "expected 'cases' to be a sequence")
        expectProblem(oneCase("expect: { attempts: { user: many } }"), .typeMismatch,
                      line: 5, column: 33, containing: "expected the attempts of step 'user' to be a whole number from 0")
        // A count that is a number, but not a whole one from 0, is not called "not a number".
        expectProblem(oneCase("expect: { items: { details: -1 } }"), .typeMismatch, line: 5, column: 33,
                      containing: "expected the items of step 'details' to be a whole number from 0, found the integer -1")
        expectProblem(oneCase("expect: { iterations: { poll: 1.5 } }"), .typeMismatch, line: 5, column: 35,
                      containing: "expected the iterations of step 'poll' to be a whole number from 0, found the number 1.5")
        expectProblem(oneCase("expect: { calls: GET /user }"), .typeMismatch,
                      line: 5, column: 22, containing: "expected 'calls' to be a sequence of calls")
        expectProblem(oneCase("expect: { outcome: 3 }"), .typeMismatch,
                      line: 5, column: 24, containing: "expected 'outcome' to be success, failure")
        expectProblem(oneCase("runs: 0"), .invalidValue, line: 5, column: 11,
                      containing: "a number of runs from 1 to 1000")
        expectProblem(oneCase("env: { A: [1] }"), .typeMismatch, line: 5, column: 15,
                      containing: "expected the value of 'A' to be a string")
    }

    @Test func invalidValuesAreReportedWithSuggestions() {
        expectProblem(oneCase("expect: { outcome: sucess }"), .invalidValue,
                      line: 5, column: 24, containing: "unknown outcome 'sucess'; did you mean 'success'?")
        expectProblem(oneCase("expect: { outcome: { failure: { kind: htp } } }"),
                      .invalidValue, line: 5, column: 43, containing: "unknown error kind 'htp'; did you mean 'http'?")
        expectProblem(oneCase("expect: { steps: { user: recoverd } }"), .invalidValue,
                      line: 5, column: 30, containing: "unknown step status 'recoverd'; did you mean 'recovered'?")
        expectProblem(oneCase("expect: { outcome: { failure: { status: 99 } } }"),
                      .invalidValue, line: 5, column: 45, containing: "from 100 to 599")
        expectProblem(header + "flowrun-test: 2\n", .duplicateKey, line: 3, column: 1, containing: "flowrun-test")
    }

    @Test func versionMustBeSupported() {
        expectProblem("flowrun-test: 2\nworkflow: w.yaml\ncases: [{ name: a }]\n", .unsupportedVersion, line: 1,
                      column: 15, containing: "unsupported test format version 2")
    }

    @Test func invalidDurationsAreReported() {
        expectProblem(oneCase("expect: { elapsed: 5 parsecs }"), .invalidValue,
                      line: 5, column: 24, containing: "invalid duration '5 parsecs'")
        // About 292 years or more once crashed the parser (SIGILL).
        expectProblem(oneCase("expect: { elapsed: 9999999999s }"), .invalidValue,
                      line: 5, column: 24, containing: "longer than 2562047h (about 292 years)")
        expectProblem(oneCase("expect: { elapsed: 1.5 }"), .typeMismatch,
                      line: 5, column: 24, containing: "expected 'elapsed' to be a duration such as 1.4s")
        expectProblem(oneCase("expect: { elapsed: { min: 3s, max: 2s } }"),
                      .invalidValue, line: 5, column: 31, containing: "'min' (3s) is longer than 'max' (2s)")
        expectProblem(oneCase("expect: { elapsed: {} }"), .missingKey,
                      line: 5, column: 24, containing: "'elapsed' needs 'min', 'max' or both")
    }

    @Test func stubsGetTheStubFileDecodersErrors() {
        expectProblem(header + """
            cases:
              - name: a
                stubs:
                  - { match: { method: GET, path: user }, respond: { status: 200 } }
            """, .invalidValue, line: 6, column: 39, containing: "a stub path starts with '/'")
        expectProblem(header + """
            cases:
              - name: a
                stubs:
                  - { match: { method: get, path: /user }, respond: { status: 200 } }
            """, .invalidValue, line: 6, column: 28, containing: "methods are upper-case: 'GET'")
        expectProblem(header + """
            stubs:
              - { match: { pth: /user }, respond: { status: 200 } }
            cases: [{ name: a }]
            """, .unknownKey, line: 4, column: 16, containing: "did you mean 'path'?")
        expectProblem(header + """
            cases:
              - name: a
                stubs:
                  - { respond: { status: 200, delay: soon } }
            """, .invalidValue, line: 6, column: 42, containing: "invalid duration 'soon'")
    }

    @Test func callsAreCheckedLikeStubs() {
        expectProblem(oneCase("expect: { calls: [get /user] }"), .invalidValue,
                      line: 5, column: 23, containing: "unknown HTTP method 'get'; methods are upper-case: 'GET'")
        expectProblem(oneCase("expect: { calls: [GET] }"), .invalidValue,
                      line: 5, column: 23, containing: "expected a call such as 'GET /user'")
        expectProblem(oneCase("expect: { calls: [GET /a/x**] }"), .invalidValue,
                      line: 5, column: 23, containing: "'**' matches the rest of a path")
        expectProblem(oneCase("expect: { calls: [{ method: GET }] }"), .missingKey,
                      line: 5, column: 23, containing: "call #1 of 'calls' is missing the required key 'path'")
        expectProblem(oneCase("expect: { calls: [{ method: GET, path: /a, bdy: {} }] }"),
                      .unknownKey, line: 5, column: 48, containing: "did you mean 'body'?")
    }

    @Test func outputsAndOutputsExactExcludeEachOther() {
        expectProblem(oneCase("expect: { outputs: { a: 1 }, outputs-exact: { a: 1 } }"),
                      .invalidValue, line: 5, column: 34, containing: "either 'outputs' (a subset) or 'outputs-exact'")
    }

    @Test func caseNamesMustBeUnique() {
        expectProblem(header + "cases:\n  - name: a\n  - name: a\n", .duplicateName, line: 5, column: 5,
                      containing: "two cases are named 'a'")
    }

    @Test func mockFilesAreLoadedAndTheirProblemsReported() {
        expectProblem(oneCase("mock: missing.mock.yaml"), .unreadableFile,
                      line: 5, column: 11, containing: "cannot read dir/missing.mock.yaml")
        let result = check(header + "cases:\n  - name: a\n    mock: bad.mock.yaml\n  - name: b\n    mock: bad.mock.yaml\n",
                           mocks: ["dir/bad.mock.yaml": "flowrun-mock: 1\nstubs: [{ respond: { status: 7 } }]\n"])
        // The stub file's own location, reported once although two cases name the file.
        #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
        #expect(result.diagnostics.first?.location?.path == "dir/bad.mock.yaml")
        #expect(result.diagnostics.first?.message.contains("from 100 to 599") == true)
    }

    @Test func everyProblemIsReportedInFileOrder() {
        let result = check(header + """
            cases:
              - name: a
                expcet: {}
                stubs: [{ match: { path: x }, respond: {} }]
              - name: b
                expect: { elapsed: forever }
            """)
        #expect(result.diagnostics.map { $0.location?.line } == [5, 6, 8])
        #expect(result.file?.cases.count == 2)
    }

    @Test func loadThrowsTheFirstProblemWithACount() {
        let error = #expect(throws: FlowError.self) {
            try WorkflowTestFile.load(yaml: header + "cases:\n  - name: a\n    runs: x\n    expect: 4\n", path: "t.test.yaml")
        }
        #expect(error?.location?.line == 5)
        #expect(error?.message.hasSuffix("(and 1 more problem)") == true)
    }

    @Test func emptyFileIsReported() {
        expectProblem("", .typeMismatch, line: 1, column: 1, containing: "the test file is empty")
    }
}
