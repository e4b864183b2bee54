import Foundation
import Testing

/// The head of a test of workflows/route-payout.yaml, whose switch step `payout` runs case step `sepa-payout`
/// for the Austrian account stubbed here. The case's `expect:` follows from line 12.
private let head = """
    flowrun-test: 1
    workflow: route-payout.yaml
    inputs: { accountId: acc-1, amount: 250, token: t-1 }
    stubs:
      - { match: { method: GET, path: /accounts/acc-1 }, respond: { body: { id: acc-1, country: AT, iban: AT61 } } }
      - { match: { method: POST, path: /sepa/payouts }, respond: { status: 201, body: { id: sp-7, status: pending } } }
      - { match: { method: POST, path: /wires }, respond: { status: 201, body: { id: w-3, status: sent } } }
      - { match: { method: POST, path: /accounts/acc-1/receipts }, respond: { status: 201, body: {} } }
    cases:
      - name: a
        expect:
    """

/// `flowrun test` of `expect` (from line 12) in a folder with route-payout.yaml.
private func test(_ expect: String) async throws -> FlowRunProcess.Outcome {
    let folder = try TemporaryFolder()
    let source = FlowRunProcess.packageRoot.appendingPathComponent("workflows/route-payout.yaml")
    try folder.write("route-payout.yaml", String(contentsOf: source, encoding: .utf8))
    let file = try folder.write("t.test.yaml", head + "\n" + expect)
    return try await FlowRunProcess.run(["test", file])
}

/// The switch step is the step that ran and sent its case's request: `calls`, `steps` and `attempts` name it,
/// and naming the case step, which has no report of its own, is refused when the file is loaded.
struct SwitchCaseExpectationTests {
    @Test func theSwitchStepSentTheRequestRanAndMadeTheAttempt() async throws {
        let outcome = try await test("""
                  calls:
                    - GET /accounts/acc-1
                    - { method: POST, path: /sepa/payouts, step: payout }
                    - POST /accounts/acc-1/receipts
                  steps: { payout: succeeded }
                  attempts: { payout: 1 }
            """)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("1 passed, 0 failed"), "\(outcome.stdout)")
    }

    @Test func aDifferingCallNamesTheSwitchStepAndItsCase() async throws {
        let outcome = try await test("""
                  calls:
                    - GET /accounts/acc-1
                    - { method: POST, path: /wires, step: payout }
                    - POST /accounts/acc-1/receipts
            """)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("expected: POST /wires from step payout\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(
            "actual:   POST /sepa/payouts → 201 (step payout (case sepa-payout), attempt 1): "
                + "path is /sepa/payouts, expected /wires"), "\(outcome.stdout)")
    }

    @Test func theCaseStepIsRefusedWithTheSwitchStepSuggested() async throws {
        let outcome = try await test("""
                  calls: [GET /accounts/acc-1, { method: POST, path: /sepa/payouts, step: sepa-payout }]
                  steps: { sepa-payout: succeeded }
                  attempts: { sepa-payout: 1 }
            """)
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        let message = "error: step 'sepa-payout' has no report of its own: it runs as a case of switch step 'payout', "
            + "which sends its requests and counts its attempts; did you mean 'payout'? [unknown-step]"
        for place in ["12:79", "13:16", "14:19"] {
            #expect(outcome.stdout.contains("t.test.yaml:\(place): \(message)"), "\(outcome.stdout)")
        }
    }
}
