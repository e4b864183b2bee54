import Testing
@testable import FlowCore

/// Lint decides which retry rules shadow later ones from a dozen representative statuses; these tests hold
/// it to what every status from 100 to 999 decides, the way the check once ran.
@Suite struct RetryShadowingStatusesTests {
    private static let location = FlowCore.SourceLocation(path: "t.yaml", line: 1, column: 1)

    private static func rule(_ statuses: [ResponseCase.Status], kinds: [String] = []) -> RetryRule {
        var rule = RetryRule(location: location)
        rule.when = ErrorMatcher(
            statuses: statuses.map { Located($0, at: location) }, kinds: kinds.map { Located($0, at: location) })
        return rule
    }

    /// The same question over every status from 100 to 999 and each error kind.
    private static func exhaustively(_ rules: [RetryRule]) -> [[Int]?] {
        let kinds: [FlowError.Code] = [
            .transport, .attemptTimeout, .totalTimeout, .decode, .validation, .binding, .circuitOpen, .cancelled,
            .interceptor, .unsupported,
        ]
        let failures = kinds.map { FlowError($0, "") }
            + (100...999).map { FlowError(.httpStatus, "", status: $0, excerpt: nil) }
        func applies(_ rule: RetryRule, _ failure: FlowError) -> Bool {
            RetryTracker.applies(rule, to: failure, holds: { _ in true })
        }
        return rules.indices.map { index in
            let matched = failures.filter { applies(rules[index], $0) }
            let earlier = rules[..<index]
            if matched.isEmpty || matched.contains(where: { failure in !earlier.contains { applies($0, failure) } }) {
                return nil
            }
            return rules.indices.prefix(index).filter { candidate in matched.contains { applies(rules[candidate], $0) } }
        }
    }

    static let ruleSets: [[RetryRule]] = [
        [rule([]), rule([.code(503)])],
        [rule([.code(503)]), rule([.range(5)])],
        [rule([.range(5)]), rule([.code(503)]), rule([.code(429)])],
        [rule([.range(4)]), rule([], kinds: ["timeout"]), rule([.range(5)]), rule([.code(404), .code(503)])],
        [rule([.code(429), .code(500)]), rule([])],
        [rule([.code(429)]), rule([.range(5)]), rule([])],
        [rule([.range(3)]), rule([.code(301), .code(399)]), rule([], kinds: ["http"])],
        [rule([.default]), rule([.code(200)])],
        [rule([.code(100), .code(999)]), rule([.range(1), .range(9)])],
        [rule([], kinds: ["http"]), rule([.range(2), .range(6)])],
    ]

    @Test(arguments: ruleSets.indices)
    func representativeStatusesDecideWhatEveryStatusDecides(set: Int) {
        let rules = Self.ruleSets[set]
        #expect(PolicyAnalysis.shadowingRules(rules) == Self.exhaustively(rules))
    }
}
