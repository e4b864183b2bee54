import Foundation
import Testing

/// The head of a test of workflows/list-invoices.yaml, whose step `login` calls workflows/shared-login.yaml
/// (step `token`): the login and the invoices are stubbed. The cases follow from line 9.
private let head = """
    flowrun-test: 1
    workflow: list-invoices.yaml
    inputs: { username: ada, password: correct-horse }
    stubs:
      - { match: { method: POST, path: /login }, respond: { body: { token: t-1, expiresIn: 3600 } } }
      - { match: { method: GET, path: /invoices }, respond: { body: [] } }
    cases:
      - name: a
    """

/// `flowrun test` of `cases` (from line 9) in a folder with list-invoices.yaml and the workflow it calls.
private func test(_ cases: String) async throws -> FlowRunProcess.Outcome {
    let folder = try TemporaryFolder()
    for name in ["list-invoices.yaml", "shared-login.yaml"] {
        let source = FlowRunProcess.packageRoot.appendingPathComponent("workflows/\(name)")
        try folder.write(name, String(contentsOf: source, encoding: .utf8))
    }
    let file = try folder.write("t.test.yaml", head + "\n" + cases)
    return try await FlowRunProcess.run(["test", file])
}

/// In a test's expectations, a `workflow:` step makes one attempt per call of its workflow, the called workflow's
/// steps are named by their own ids under `attempts` as under `calls`, and a misspelt name is suggested among
/// both.
struct CalledStepExpectationTests {
    @Test func aWorkflowStepMakesOneAttemptAndCalledStepsCountTheirOwn() async throws {
        let outcome = try await test("""
                expect: { attempts: { login: 1, token: 1, invoices: 1 } }
            """)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("1 passed, 0 failed"), "\(outcome.stdout)")
    }

    @Test func wrongCountsOfBothAreDiffed() async throws {
        let outcome = try await test("""
                expect: { attempts: { login: 2, token: 3 } }
            """)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(
            outcome.stdout.contains("step login: expected 2 attempts, actual 1 (run succeeded)"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("step token: expected 3 attempts, actual 1 (200)"), "\(outcome.stdout)")
    }

    @Test func aMisspeltStepIsSuggestedAmongTheCalledWorkflowsSteps() async throws {
        let outcome = try await test("""
                expect:
                  attempts: { tokn: 1 }
                  calls: [{ method: POST, path: /login, step: tokn }]
                  steps: { logn: succeeded }
            """)
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains(
            "t.test.yaml:10:19: error: the workflow has no step 'tokn'; did you mean 'token'? [unknown-step]"),
            "\(outcome.stdout)")
        #expect(outcome.stdout.contains(
            "t.test.yaml:11:51: error: the workflow has no step 'tokn'; did you mean 'token'? [unknown-step]"),
            "\(outcome.stdout)")
        #expect(outcome.stdout.contains(
            "t.test.yaml:12:16: error: the workflow has no step 'logn'; did you mean 'login'? [unknown-step]"),
            "\(outcome.stdout)")
    }
}
