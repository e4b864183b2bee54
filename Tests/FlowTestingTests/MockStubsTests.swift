import FlowCore
import Testing

@testable import FlowTesting

/// Expects loading `yaml` to fail with `code` at `line`:`column`, with a message containing `fragment`.
private func expectFailure(
    _ yaml: String,
    _ code: FlowError.Code,
    line: Int,
    column: Int,
    containing fragment: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    do {
        let stubs = try MockStubs.load(yaml: yaml, path: "t.mock.yaml")
        Issue.record("expected \(code) at \(line):\(column), loaded \(stubs.stubs.count) stubs",
                     sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.location?.path == "t.mock.yaml", "\(error)", sourceLocation: sourceLocation)
        #expect(error.location?.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(error.location?.column == column, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
    }
}

struct MockStubsTests {
    @Test func fullFileLoadsIntoTheModel() throws {
        let stubs = try MockStubs.load(yaml: """
            flowrun-mock: 1
            stubs:
              - name: user
                match:
                  method: GET
                  path: /user/{id}
                  query: { page: 2, tag: [a, "b c"] }
                  headers: { Authorization: "Bearer t-1" }
                  body: { kind: card, n: [1, 2.5, null, true] }
                respond:
                  status: 201
                  headers: { Content-Type: application/json, X-Id: 7 }
                  body: { userId: u-1 }
                  delay: 50ms
              - respond:
                  - { status: 401 }
                  - body: "plain text"
                  - { status: 204, delay: 1.5s }
            """, path: "t.mock.yaml")
        #expect(stubs.stubs.count == 2)
        let user = stubs.stubs[0]
        #expect(user.name == "user")
        #expect(user.location == SourceLocation(path: "t.mock.yaml", line: 3, column: 5))
        #expect(user.match == MockStub.Match(
            method: "GET", path: "/user/{id}", query: ["page": ["2"], "tag": ["a", "b c"]],
            headers: ["Authorization": "Bearer t-1"],
            body: .object(["kind": .string("card"), "n": .array([.int(1), .double(2.5), .null, .bool(true)])])))
        #expect(user.responses == [MockStub.Response(
            status: 201, headers: ["Content-Type": "application/json", "X-Id": "7"],
            body: .json(.object(["userId": .string("u-1")])), delay: .milliseconds(50))])

        let sequence = stubs.stubs[1]
        #expect(sequence.name == nil)
        #expect(sequence.match == MockStub.Match())
        #expect(sequence.responses == [
            MockStub.Response(status: 401),
            MockStub.Response(status: 200, body: .text("plain text")),
            MockStub.Response(status: 204, delay: .milliseconds(1500)),
        ])
    }

    @Test func emptyStubListLoads() throws {
        #expect(try MockStubs.load(yaml: "flowrun-mock: 1\nstubs: []\n", path: "t.mock.yaml").stubs.isEmpty)
    }

    @Test func unknownKeysAreReportedWhereTheyAreWithSuggestions() {
        expectFailure("""
            flowrun-mock: 1
            stubs:
              - match: { method: GET, pth: /x }
                respond: { status: 200 }
            """, .unknownKey, line: 3, column: 27,
            containing: "unknown key 'pth' in 'match' of stub #1; did you mean 'path'?")
        expectFailure("""
            flowrun-mock: 1
            stubs:
              - name: user
                respond:
                  status: 200
                  header: { A: b }
            """, .unknownKey, line: 6, column: 7,
            containing: "unknown key 'header' in a response of stub 'user'; did you mean 'headers'?")
        expectFailure("""
            flowrun-mock: 1
            stub: []
            """, .unknownKey, line: 2, column: 1, containing: "did you mean 'stubs'?")
        expectFailure("""
            flowrun-mock: 1
            stubs:
              - name: a
                responds: { status: 200 }
            """, .unknownKey, line: 4, column: 5, containing: "did you mean 'respond'?")
    }

    @Test func missingKeysAndVersionsAreReported() {
        expectFailure("stubs: []\n", .missingKey, line: 1, column: 1,
                      containing: "the mock file is missing the required key 'flowrun-mock'")
        expectFailure("flowrun-mock: 2\nstubs: []\n", .unsupportedVersion, line: 1, column: 15,
                      containing: "unsupported mock format version 2")
        expectFailure("flowrun-mock: 1\nstubs:\n  - name: x\n", .missingKey, line: 3, column: 5,
                      containing: "stub 'x' is missing the required key 'respond'")
        expectFailure("", .typeMismatch, line: 1, column: 1, containing: "the mock file is empty")
        expectFailure("flowrun-mock: 1\nstubs: { a: 1 }\n", .typeMismatch, line: 2, column: 8,
                      containing: "expected 'stubs' to be a sequence of stubs, found a mapping")
    }

    /// Each stub is the one item of `stubs:`, on line 3.
    @Test(arguments: [
        ("respond: { status: 700 }", FlowError.Code.invalidValue, 24, "'status' must be from 100 to 599, found 700"),
        ("respond: { status: ok }", .typeMismatch, 24,
         "expected 'status' to be a status code such as 200, found the string 'ok'"),
        ("respond: { delay: 5 parsecs }", .invalidValue, 23, "invalid duration '5 parsecs'"),
        ("respond: { delay: 50 }", .typeMismatch, 23, "write a unit, such as 50ms or 2s"),
        // About 292 years or more once crashed the parser (SIGILL).
        ("respond: { delay: 2562048h }", .invalidValue, 23, "longer than 2562047h (about 292 years)"),
        ("respond: []", .invalidValue, 14, "'respond' of stub #1 needs at least one response"),
        ("respond: [ { status: 200 }, 404 ]", .typeMismatch, 33,
         "expected a response of stub #1 to be a mapping, found the integer 404"),
        ("{ match: { method: get }, respond: {} }", .invalidValue, 24,
         "unknown HTTP method 'get'; methods are upper-case: 'GET'"),
        ("{ match: { method: GETT }, respond: {} }", .invalidValue, 24,
         "unknown HTTP method 'GETT'; did you mean 'GET'?"),
        ("{ match: { path: user }, respond: {} }", .invalidValue, 22, "a stub path starts with '/'"),
        ("{ match: { path: '/a?b=1' }, respond: {} }", .invalidValue, 22, "list query parameters under 'query'"),
        ("{ match: { path: '/a/**/b' }, respond: {} }", .invalidValue, 22, "'**' matches the rest of a path"),
        ("{ match: { path: '/files/{name}.json' }, respond: {} }", .invalidValue, 22,
         "a path parameter fills a whole segment"),
        ("{ match: { query: { page: ~ } }, respond: {} }", .typeMismatch, 31,
         "expected the value of query parameter 'page' to be a string, found null"),
        ("respond: { headers: { X-A: \"a\\nb\" } }", .invalidValue, 32, "header 'X-A' may not contain a line break"),
        ("respond: { body: { x: .nan } }", .invalidValue, 27, "JSON has no NaN or infinity"),
        ("{ name: [a], respond: {} }", .typeMismatch, 13,
         "expected the name of stub #1 to be a string, found a sequence"),
    ])
    func badValuesAreReportedAtTheValue(stub: String, code: FlowError.Code, column: Int, message: String) {
        expectFailure("flowrun-mock: 1\nstubs:\n  - \(stub)\n", code, line: 3, column: column, containing: message)
    }

    @Test func stubNamesAreUnique() {
        expectFailure("""
            flowrun-mock: 1
            stubs:
              - { name: a, respond: {} }
              - { name: b, respond: {} }
              - { name: a, respond: {} }
            """, .duplicateName, line: 5, column: 5, containing: "two stubs are named 'a'")
    }

    @Test func theFirstOfSeveralProblemsIsThrownWithACount() {
        expectFailure("""
            flowrun-mock: 1
            stubs:
              - respond: { status: 999 }
              - respond: { statsu: 200 }
            """, .invalidValue, line: 3, column: 24, containing: "(and 1 more problem in this file)")
    }

    @Test func yamlSyntaxErrorsKeepTheirLocation() {
        expectFailure("flowrun-mock: 1\nstubs:\n  - respond: { status: 200\n", .invalidYAML, line: 4, column: 1,
                      containing: "")
    }
}
