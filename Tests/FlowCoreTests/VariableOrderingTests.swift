@testable import FlowCore
import Testing

/// Issue 9 item 19: an interceptor that reads a var another step sets, with nothing ordering the two, races.
struct VariableOrderingTests {
    private func workflow(userAfter: String) -> String {
        apiServerByDefault + """
            vars: { token: none }
            interceptors: { auth: { bearer: $vars.token } }
            steps:
              - id: login
                request: { method: POST, path: /login }
                set: { token: $response.body#/token }
              - { id: user, interceptors: [auth], request: { method: GET, path: /user }\(userAfter) }
            """
    }

    @Test func anUnorderedReaderIsWarnedAtTheStep() {
        let found = diagnostics(workflow(userAfter: "")).filter { $0.code == .unorderedVar }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.severity == .warning)
        #expect(found.first?.message.contains("add 'after: [login]' to step 'user'") == true)
        #expect(found.first?.location?.line == 10)
    }

    @Test(arguments: [", after: [login]"])
    func anOrderedReaderIsNotWarned(after: String) {
        #expect(diagnostics(workflow(userAfter: after)).filter { $0.code == .unorderedVar }.isEmpty)
    }

    @Test func aReaderThatRunsBeforeTheSetterIsNotWarned() {
        let yaml = apiServerByDefault + """
            vars: { token: none }
            interceptors: { auth: { bearer: $vars.token } }
            steps:
              - { id: user, interceptors: [auth], request: { method: GET, path: /user } }
              - id: login
                after: [user]
                request: { method: POST, path: /login }
                set: { token: $response.body#/token }
            """
        #expect(diagnostics(yaml).filter { $0.code == .unorderedVar }.isEmpty)
    }

    @Test func anOnDemandRefreshThatSetsTheTokenIsNotARace() {
        let yaml = apiServerByDefault + """
            vars: { token: none }
            interceptors:
              auth: { bearer: $vars.token }
              refresh: { run: renew, then: replay }
            steps:
              - { id: user, interceptors: [auth, refresh], request: { method: GET, path: /user } }
              - id: renew
                on-demand: true
                request: { method: POST, path: /token }
                set: { token: $response.body#/token }
            """
        #expect(diagnostics(yaml).filter { $0.code == .unorderedVar }.isEmpty)
    }
}
