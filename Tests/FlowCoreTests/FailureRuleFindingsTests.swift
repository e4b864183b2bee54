import Testing

@testable import FlowCore

/// A finding about a step's `on-error` rule names it as such, not as a catch rule: the user looks for the
/// rule under the step, not under `catch:`.
struct FailureRuleFindingsTests {
    /// A workflow whose step `charge` has the on-error rule `rule`, and a workflow `catch` with `rule` too.
    private func workflow(onError rule: String, catchRule: String = "{ when: { step: charge }, fallback: {} }") -> String {
        apiServerByDefault + """
            steps:
              - id: charge
                request: { method: POST, path: /charges }
                on-error:
                  - \(rule)
              - id: notify
                request: { method: POST, path: /notify }
            catch:
              - \(catchRule)
            """
    }

    @Test(arguments: [
        ("{ fallback: {}, end: {} }", "an on-error rule has one action; found 'fallback' and 'end'"),
        ("{ when: { status: 500 } }", "an on-error rule needs one action: fallback, goto, run or end"),
        ("{ run: notify }", "the on-error rule of step 'charge' runs step 'notify', which is not on-demand"),
    ])
    func anOnErrorRuleIsNamedAsOne(rule: String, message: String) {
        let found = diagnostics(workflow(onError: rule)).filter { $0.severity == .error }
        #expect(found.contains { $0.message.hasPrefix(message) }, "\(found)")
        #expect(!found.contains { $0.message.contains("catch rule") }, "\(found)")
    }

    @Test(arguments: [
        ("{ fallback: {}, end: {} }", "a catch rule has one action; found 'fallback' and 'end'"),
        ("{ run: notify }", "the catch rule runs step 'notify', which is not on-demand"),
    ])
    func aCatchRuleIsStillNamedAsOne(rule: String, message: String) {
        let found = diagnostics(workflow(onError: "{ goto: notify }", catchRule: rule)).filter { $0.severity == .error }
        #expect(found.contains { $0.message.hasPrefix(message) }, "\(found)")
    }
}
