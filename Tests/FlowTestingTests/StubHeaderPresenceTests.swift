import FlowCore
import Logging
import Testing

@testable import FlowTesting

/// `!present` and `!absent` in a stub's `match.headers`, which recorded stubs use for credentials.
struct StubHeaderPresenceTests {
    private func stubs(_ yaml: String) throws -> MockStubs {
        try MockStubs.load(yaml: "flowrun-mock: 1\nstubs:\n" + yaml, path: "p.mock.yaml")
    }

    private func status(_ stubs: MockStubs, _ headers: HeaderFields) async throws -> Int? {
        let mock = MockDispatcher(stubs: stubs)
        let context = StepContext(stepID: "s", attempt: 1, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        do {
            return try await mock.dispatch(StepRequest(method: "GET", url: "https://api.test/a", headers: headers), context: context).status
        } catch let error as FlowError where error.code == .mockUnmatched {
            #expect(error.message.contains("header"), "\(error.message)")
            return nil
        }
    }

    @Test func presentMatchesAnyValueAndAbsentMatchesNone() async throws {
        let stubs = try stubs("""
              - match: { headers: { Authorization: !present, x-debug: !absent } }
                respond: { status: 204 }
            """)
        #expect(stubs.stubs[0].match.presentHeaders == ["Authorization"])
        #expect(try await status(stubs, ["authorization": "Bearer anything"]) == 204)
        #expect(try await status(stubs, [:]) == nil)
        #expect(try await status(stubs, ["Authorization": "Basic x", "X-Debug": "1"]) == nil)
    }

    @Test func aMatcherTagAnywhereElseIsALocatedError() throws {
        for (yaml, line) in [
            ("  - { match: { query: { a: !present } }, respond: { status: 200 } }", 3),
            ("  - match: { method: GET }\n    respond: { status: 200, headers: { A: !present } }", 4),
            ("  - match: { body: { a: !absent } }\n    respond: { status: 200 }", 3),
        ] {
            do {
                _ = try stubs(yaml)
                Issue.record("expected an error for \(yaml)")
            } catch let error as FlowError {
                #expect(error.location?.line == line, "\(error)")
                #expect(error.message.contains("'!present' and '!absent' are values of 'match.headers'"), "\(error.message)")
            }
        }
    }
}
