@testable import FlowCore
import Testing

/// Issue 9 items 13 and 15: every finding has a location, the classic unquoted `{$…}` says to quote it, and a
/// problem is reported once, where it is written, without findings that only follow from it.
struct FollowOnFindingsTests {
    @Test func anUnquotedExpressionIsOneLocatedFindingThatSaysQuoteIt() {
        let found = diagnostics("""
            flowrun: 1
            env: { X: {} }
            servers:
              api: {$env.X}
            interceptors:
              auth: { bearer: {$env.X} }
            vars:
              v: {$env.X}
            steps:
              - { id: a, server: api, interceptors: [auth], request: { method: GET, path: /a, headers: { X-V: $vars.v } } }
            """)
        #expect(found.count == 3, "\(found)")
        #expect(found.allSatisfy { $0.location != nil && $0.message.contains("quote it (\"{$env.X}\")") }, "\(found)")
        #expect(found.map { $0.location?.line } == [4, 6, 8])
    }

    @Test func aProblemInDefaultsIsReportedOnceWhereDefaultsNamesIt() {
        let found = diagnostics("""
            flowrun: 1
            servers: { api: https://api.test }
            interceptors: { auth: { bearer: token } }
            defaults: { server: apj, interceptors: [auht], policy: standard }
            steps:
              - { id: a, request: { method: GET, path: /a } }
              - { id: b, request: { method: GET, path: /b } }
              - { id: c, request: { method: GET, path: /c } }
            """).filter { $0.severity == .error }
        #expect(found.count == 3, "\(found)")
        #expect(found.allSatisfy { $0.location?.line == 4 }, "\(found)")
        #expect(found.contains { $0.message == "unknown server 'apj'; did you mean 'api'?" }, "\(found)")
        #expect(found.contains { $0.message == "unknown interceptor 'auht'; did you mean 'auth'?" }, "\(found)")
        #expect(found.contains { $0.message.hasPrefix("unknown policy 'standard'") }, "\(found)")
    }

    @Test func aBrokenDeclarationGetsNoUnknownReferenceFromItsUsers() {
        let found = diagnostics("""
            flowrun: 1
            servers:
              api: { description: no url }
            interceptors:
              both: { bearer: t, headers: { X-A: b } }
            steps:
              - { id: a, server: api, interceptors: [both], request: { method: GET, path: /a } }
            """)
        #expect(found.map(\.code) == [.missingKey, .invalidValue], "\(found)")
        #expect(!found.contains { $0.message.contains("unknown") }, "\(found)")
    }

    @Test func anInputReadOnlyByAMalformedExpressionIsNotAlsoNeverUsed() {
        let found = diagnostics(apiServerByDefault + """
            inputs: { type: object, properties: { id: { type: string } } }
            steps:
              - { id: a, request: { method: GET, path: "/a/{$inputs.id" } }
            """)
        #expect(found.map(\.code) == [.invalidExpression], "\(found)")
    }
}
