@testable import FlowCore
import FlowTestServer
import Foundation
import Testing

/// How the engine reads a server's wait (`Retry-After`, `RateLimit-Reset`, `RateLimit`) and what it does with it.
struct RetryAfterTests {
    /// 1994-11-06 08:49:37 UTC, the example of RFC 9110 §5.6.7.
    private static let example: Double = 784_111_777

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // obsolete RFC 850 form
        "Sun Nov  6 08:49:37 1994",  // obsolete asctime form
    ])
    func allThreeHTTPDateFormsAreRead(text: String) {
        let now = Date(timeIntervalSince1970: Self.example - 30)
        #expect(RetryAfter.httpDate(text, now: now) == Self.example)
        #expect(RetryAfter.delay(in: ["Retry-After": text], now: now) == .seconds(30))
    }

    @Test func aTwoDigitYearMoreThanFiftyYearsAheadIsInThePast() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026
        // 94 would be 2094, more than 50 years ahead: it is 1994.
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == Self.example)
        // 30 is 2030.
        let year2030 = RetryAfter.httpDate("Wednesday, 06-Nov-30 08:49:37 GMT", now: now)
        #expect(year2030.map { $0 > 1_900_000_000 } == true)
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun Nov 6 25:00:00 1994",
                      "soon", "-5", "1.5", ""])
    func malformedValuesAreIgnored(text: String) {
        #expect(RetryAfter.delay(in: ["Retry-After": text]) == nil)
    }

    @Test(arguments: [
        ["Retry-After": "9223372036854775807"],
        ["Retry-After": "18446744073709551616"],
        ["Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"],
        ["RateLimit-Reset": "9223372036854775807"],
        ["RateLimit-Reset": "18446744073709551616"],
        ["RateLimit": "limit=10, remaining=0, reset=18446744073709551616"],
    ] as [HeaderFields])
    func hugeWaitsSaturateInsteadOfCrashingOrBeingDropped(headers: HeaderFields) {
        #expect(RetryAfter.delay(in: headers) == .longest)
    }

    @Test func aServersWaitIsCappedByRetryAfterMaxOrItsDefault() {
        var rule = RetryRule(location: FlowCore.SourceLocation(path: "t.yaml", line: 1, column: 1))
        rule.delay = .milliseconds(100)
        let response = StepResponse(status: 429, headers: ["Retry-After": "18446744073709551616"])
        let failure = AttemptFailure(
            FlowError(.httpStatus, "429", status: 429, excerpt: nil), retryAfter: RetryAfter.delay(in: response.headers))
        var tracker = RetryTracker(rules: [rule])
        #expect(tracker.decide(after: failure, idempotent: nil, random: { $0 })
            == .retry(after: RetryRule.defaultRetryAfterMax))
        #expect(RetryRule.defaultRetryAfterMax == .seconds(300))
        rule.retryAfter.max = .seconds(10)
        tracker = RetryTracker(rules: [rule])
        #expect(tracker.decide(after: failure, idempotent: nil, random: { $0 })
            == .retry(after: .seconds(10)))
    }

    /// The crash of the report: a 429 asking for Int64.max seconds, a policy that retries with neither
    /// `timeout.total` nor `retryAfter.max`. The step waits the default cap and retries.
    @Test func aHugeRetryAfterWithoutACapWaitsTheDefaultCapAndRetries() async throws {
        let workflow = apiServerByDefault + """
            policies:
              p: { retry: { when: { status: 429 }, attempts: 2 } }
            steps:
              - { id: a, policy: p, request: { method: GET, path: /a } }
            """
        let dispatcher = ScriptedDispatcher { _, index in
            index == 0 ? json(429, "{}", headers: ["Retry-After": "9223372036854775807"]) : json(200, "{}")
        }
        let clock = ImmediateClock()
        let report = await Engine(http: dispatcher, clock: clock).run(try plan(workflow), inputs: [:], environment: [:])
        #expect(report.succeeded)
        #expect(clock.sleeps == [.seconds(300)])
        #expect(report.steps.first?.attempts.first?.retryDelay == .seconds(300))
    }

    @Test func aLintWarningNamesARuleBoundedByNeitherTotalNorMax() {
        let found = diagnostics(apiServerByDefault + """
            policies:
              p: { retry: { when: { status: 429 }, attempts: 3 } }
            steps:
              - { id: a, policy: p, request: { method: GET, path: /a } }
            """)
        #expect(found.count == 1)
        #expect(found.first?.severity == .warning)
        #expect(found.first?.code == .retryBudget)
        #expect(found.first?.location?.line == 5)
        #expect(found.first?.message == """
            retry rule 1 of policy 'p' waits as long as a server's Retry-After asks, bounded by neither \
            'retryAfter.max' nor 'timeout.total': each retry may wait up to the default cap of 5m; set \
            'retryAfter.max' or 'timeout.total' (or 'retryAfter: { honor: false }')
            """)
        // Either bound, `honor: false`, or a rule that only sees failures without a response silences it.
        for rule in [
            "{ when: { status: 429 }, attempts: 3, retryAfter: { max: 10s } }",
            "{ when: { status: 429 }, attempts: 3, retryAfter: { honor: false } }",
            "{ when: { errors: transport }, attempts: 3 }",
        ] {
            #expect(diagnostics(apiServerByDefault + """
                policies:
                  p: { retry: \(rule) }
                steps:
                  - { id: a, policy: p, request: { method: GET, path: /a } }
                """).isEmpty, "\(rule)")
        }
        #expect(diagnostics(apiServerByDefault + """
            policies:
              p: { timeout: { total: 1m }, retry: { when: { status: 429 }, attempts: 3 } }
            steps:
              - { id: a, policy: p, request: { method: GET, path: /a } }
            """).isEmpty)
    }
}
