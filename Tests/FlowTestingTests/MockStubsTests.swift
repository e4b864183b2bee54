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

    @Test func badValuesAreReportedAtTheValue() {
        let prefix = "flowrun-mock: 1\nstubs:\n"
        expectFailure(prefix + "  - respond: { status: 700 }\n", .invalidValue, line: 3, column: 24,
                      containing: "'status' must be from 100 to 599, found 700")
        expectFailure(prefix + "  - respond: { status: ok }\n", .typeMismatch, line: 3, column: 24,
                      containing: "expected 'status' to be a status code such as 200, found the string 'ok'")
        expectFailure(prefix + "  - respond: { delay: 5 parsecs }\n", .invalidValue, line: 3, column: 23,
                      containing: "invalid duration '5 parsecs'")
        expectFailure(prefix + "  - respond: { delay: 50 }\n", .typeMismatch, line: 3, column: 23,
                      containing: "write a unit, such as 50ms or 2s")
        expectFailure(prefix + "  - respond: []\n", .invalidValue, line: 3, column: 14,
                      containing: "'respond' of stub #1 needs at least one response")
        expectFailure(prefix + "  - respond: [ { status: 200 }, 404 ]\n", .typeMismatch, line: 3, column: 33,
                      containing: "expected a response of stub #1 to be a mapping, found the integer 404")
        expectFailure(prefix + "  - { match: { method: get }, respond: {} }\n", .invalidValue, line: 3, column: 24,
                      containing: "unknown HTTP method 'get'; methods are upper-case: 'GET'")
        expectFailure(prefix + "  - { match: { method: GETT }, respond: {} }\n", .invalidValue, line: 3, column: 24,
                      containing: "unknown HTTP method 'GETT'; did you mean 'GET'?")
        expectFailure(prefix + "  - { match: { path: user }, respond: {} }\n", .invalidValue, line: 3, column: 22,
                      containing: "a stub path starts with '/'")
        expectFailure(prefix + "  - { match: { path: '/a?b=1' }, respond: {} }\n", .invalidValue, line: 3, column: 22,
                      containing: "list query parameters under 'query'")
        expectFailure(prefix + "  - { match: { path: '/a/**/b' }, respond: {} }\n", .invalidValue, line: 3, column: 22,
                      containing: "'**' matches the rest of a path")
        expectFailure(prefix + "  - { match: { path: '/files/{name}.json' }, respond: {} }\n", .invalidValue,
                      line: 3, column: 22, containing: "a path parameter fills a whole segment")
        expectFailure(prefix + "  - { match: { query: { page: ~ } }, respond: {} }\n", .typeMismatch, line: 3,
                      column: 31, containing: "expected the value of query parameter 'page' to be a string, found null")
        expectFailure(prefix + "  - respond: { headers: { X-A: \"a\\nb\" } }\n", .invalidValue, line: 3, column: 32,
                      containing: "header 'X-A' may not contain a line break")
        expectFailure(prefix + "  - respond: { body: { x: .nan } }\n", .invalidValue, line: 3, column: 27,
                      containing: "JSON has no NaN or infinity")
        expectFailure(prefix + "  - { name: [a], respond: {} }\n", .typeMismatch, line: 3, column: 13,
                      containing: "expected the name of stub #1 to be a string, found a sequence")
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
