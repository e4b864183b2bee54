import FlowCore
import Testing

@testable import FlowTesting

private let workflow = """
    flowrun: 1
    env: { API_URL: {} }
    servers:
      api: { url: "{$env.API_URL}" }
      fixed: https://fixed.example/v2
    defaults: { server: api }
    steps:
      - id: user
        request: { method: GET, path: /user }
        outputs: { userId: $response.body#/id }
      - id: account
        request: { method: GET, path: "/accounts/{$steps.user.outputs.userId}/summary" }
      - id: pinned
        server: fixed
        request: { method: POST, path: /pins }
    catch:
      - when: { step: account }
        end: { reason: no-account }
    outputs:
      userId: $steps.user.outputs.userId
      reason: $steps.user.outputs.userId
    """

/// The lint findings of a test file (the `flowrun-test`, `workflow` lines are added) against ``workflow``.
private func lint(_ yaml: String) throws -> [Diagnostic] {
    try lintTestFile(yaml, against: workflow)
}

/// The lint findings of a test file `t.test.yaml` (the `flowrun-test`, `workflow` lines are added) against the
/// workflow `text`, compiled as `wf.yaml`.
func lintTestFile(_ yaml: String, against text: String) throws -> [Diagnostic] {
    let plan = try WorkflowCompiler().compile(yaml: text, path: "wf.yaml")
    let file = try WorkflowTestFile.load(yaml: "flowrun-test: 1\nworkflow: wf.yaml\n" + yaml, path: "t.test.yaml")
    return file.lint(against: plan)
}

struct WorkflowTestLintTests {
    @Test func outputsTheWorkflowNeverProducesAreErrors() throws {
        let diagnostics = try lint("""
            cases:
              - name: a
                expect: { outputs: { userID: u-1, reason: r, userId: u-1 } }
            """)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.code == .unknownReference)
        #expect(diagnostics.first?.message == "the workflow has no output 'userID'; did you mean 'userId'?")
        #expect(diagnostics.first?.location == SourceLocation(path: "t.test.yaml", line: 5, column: 26))
    }

    @Test func stepsTheWorkflowLacksAreErrorsWherever() throws {
        let diagnostics = try lint("""
            cases:
              - name: a
                expect:
                  outcome: { failure: { step: acount } }
                  attempts: { usr: 1 }
                  steps: { pined: succeeded }
                  calls: [{ method: GET, path: /user, step: nobody }]
            """)
        #expect(diagnostics.map(\.code) == Array(repeating: .unknownStep, count: 4))
        #expect(diagnostics.map { $0.location?.line } == [6, 7, 8, 9])
        #expect(diagnostics[0].message == "the workflow has no step 'acount'; did you mean 'account'?")
        #expect(diagnostics[1].message.contains("did you mean 'user'?"))
    }

    @Test func stubsNoStepCanReachAreErrors() throws {
        let diagnostics = try lint("""
            env: { API_URL: https://api.test }
            stubs:
              - { name: users, match: { method: GET, path: /users }, respond: {} }
            cases:
              - name: a
                stubs:
                  - { name: wrong-method, match: { method: DELETE, path: /user }, respond: {} }
                  - { match: { path: "/accounts/{id}" }, respond: {} }
            """)
        #expect(diagnostics.map(\.code) == [.unreachable, .unreachable, .unreachable])
        #expect(diagnostics.map { $0.location?.line } == [5, 9, 10])
        #expect(diagnostics[0].message == "stub 'users' can never answer: no step of the workflow sends GET /users; "
            + "the steps send GET /user, GET /accounts/{…}/summary, POST /v2/pins")
        #expect(diagnostics[2].message.hasPrefix("this stub can never answer: no step of the workflow sends any method /accounts/{id}"))
    }

    @Test func aStubReachableInOneCaseIsReachable() throws {
        let diagnostics = try lint("""
            stubs:
              - { match: { path: /v1/user }, respond: {} }
            cases:
              - { name: plain, env: { API_URL: https://api.test } }
              - { name: versioned, env: { API_URL: https://api.test/v1/ } }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test(arguments: [
        (nil, "{ match: { method: GET, path: /user }, respond: {} }"),
        (nil, "{ match: { path: /base/user }, respond: {} }"),  // an unknown server URL may carry a prefix
        ("https://api.test/base", "{ match: { path: /base/user }, respond: {} }"),
        ("https://api.test", "{ match: { path: /accounts/a-1/summary }, respond: {} }"),  // {$…} is any segment
        ("https://api.test", #"{ match: { path: "/accounts/{id}/summary" }, respond: {} }"#),
        ("https://api.test", "{ match: { path: /accounts/** }, respond: {} }"),
        ("https://api.test", "{ match: { method: POST, path: /v2/pins }, respond: {} }"),  // a literal server URL's path
        ("https://api.test", "{ match: { method: POST }, respond: {} }"),
        ("https://api.test", "{ respond: {} }"),
    ] as [(String?, String)])
    func reachableStubsPass(apiURL: String?, stub: String) throws {
        let env = apiURL.map { "    env: { API_URL: \"\($0)\" }\n" } ?? ""
        let diagnostics = try lint("cases:\n  - name: a\n" + env + "    stubs:\n      - \(stub)\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test(arguments: [
        "{ match: { method: POST, path: /pins }, respond: {} }",   // the fixed server's /v2 is missing
        "{ match: { path: /accounts/a-1 }, respond: {} }",
        "{ match: { path: /user }, respond: {} }",                // the env server URL adds /base
    ])
    func unreachableStubsAreFound(stub: String) throws {
        let diagnostics = try lint(
            "cases:\n  - name: a\n    env: { API_URL: https://api.test/base }\n    stubs:\n      - \(stub)\n")
        #expect(diagnostics.map(\.code) == [.unreachable])
    }
}
