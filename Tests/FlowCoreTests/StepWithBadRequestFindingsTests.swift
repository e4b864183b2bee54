import Testing

@testable import FlowCore

/// `flowrun lint` reports every problem in one pass: a step whose request has errors still has its other
/// keys checked, so fixing the request does not reveal a second round of findings.
struct StepWithBadRequestFindingsTests {
    @Test func theOtherKeysOfAStepWhoseRequestHasErrorsAreStillChecked() {
        let found = diagnostics("""
            flowrun: 1
            steps:
              - id: s
                on-demand: yes
                idempotent: no
                request: { methd: GET, path: "https://api.test/a" }
                on-error:
                  - { fallback: {}, end: {} }
            """).filter { $0.severity == .error }
        #expect(found.compactMap { $0.location?.line }.sorted() == [4, 5, 6, 6, 8], "\(found)")
        #expect(found.contains { $0.message.hasPrefix("expected 'on-demand' to be true or false") }, "\(found)")
        #expect(found.contains { $0.message.hasPrefix("expected 'idempotent' to be true or false") }, "\(found)")
        #expect(found.contains { $0.code == .missingKey && $0.message.contains("'method'") }, "\(found)")
        #expect(found.contains { $0.code == .unknownKey && $0.message.contains("'methd'") }, "\(found)")
        #expect(found.contains { $0.message.hasPrefix("an on-error rule has one action") }, "\(found)")
    }
}
