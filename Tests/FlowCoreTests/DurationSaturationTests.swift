import Testing
@testable import FlowCore

/// Durations too long for `Int64` nanoseconds: each input here once crashed a command (SIGILL).
struct DurationSaturationTests {
    @Test func theParserRefusesADurationLongerThanTheLongestWithTheLimitInTheMessage() throws {
        let failure = try #require(DurationParser.parse("2562048h").failureMessage)
        #expect(failure == """
            invalid duration '2562048h': longer than 2562047h (about 292 years), the longest duration flowrun accepts
            """)
        #expect(DurationParser.parse("9999999999999999999999s").failureMessage != nil)
        #expect(DurationParser.parse("1e300h").failureMessage != nil)
        #expect(try DurationParser.parse("2562047h").get() == .seconds(2_562_047 * 3600))
    }

    @Test func aTooLongDurationInAWorkflowIsALocatedError() {
        let found = diagnostics(apiServerByDefault + """
            policies:
              p: { timeout: { total: 3000000h } }
            steps:
              - { id: a, request: { method: GET, path: /a } }
            """)
        let errors = found.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.location == FlowCore.SourceLocation(path: "t.yaml", line: 5, column: 26))
        #expect(errors.first?.message.hasPrefix("invalid duration '3000000h': longer than 2562047h") == true)
    }

    @Test func exponentialBackoffSaturatesInsteadOfOverflowing() {
        var rule = RetryRule(location: FlowCore.SourceLocation(path: "t.yaml", line: 1, column: 1))
        rule.attempts = 40
        rule.delay = .milliseconds(200)
        rule.backoff = .exponential
        // 200ms × 2^38 is about 5.5e10 s, more than Int64.max nanoseconds.
        #expect(RetryTracker.backoff(rule, retry: 39) == .longest)
        #expect(RetryTracker.backoff(rule, retry: 1) == .milliseconds(200))
        rule.multiplier = .infinity
        #expect(RetryTracker.backoff(rule, retry: 3) == .longest)
    }

    /// The three policies of the report: lint, graph, run and test all compiled and analysed them, and crashed.
    @Test(arguments: [
        "{ timeout: { total: 30s }, retry: { attempts: 40, delay: 200ms, backoff: exponential } }",
        "{ timeout: { total: 1h }, retry: { attempts: 100, delay: 1ms, backoff: exponential, multiplier: 1.5 } }",
        "{ timeout: { attempt: 1s }, retry: { attempts: 100, delay: 1ms, backoff: exponential, multiplier: 1.5 } }",
    ])
    func policiesWhoseBackoffOverflowsCompileLintAndExplain(policy: String) throws {
        let yaml = apiServerByDefault + """
            policies:
              p: \(policy)
            steps:
              - { id: a, policy: p, request: { method: GET, path: /a } }
            """
        let found = diagnostics(yaml)
        // The first two cannot make all their attempts within the total: an error that quotes the figures.
        if policy.contains("total") {
            #expect(found.contains { $0.severity == .error && $0.message.contains("cannot make its") })
        }
        guard let plan = WorkflowCompiler().check(yaml: yaml, path: "t.yaml").plan else {
            #expect(policy.contains("total"))
            return
        }
        let step = try #require(PolicyAnalysis(plan: plan).step("a"))
        #expect(step.attempts >= 1)
        if !policy.contains("total") {
            // 100 × 1s of attempts plus delays that saturate: a bound, however long, not a crash.
            guard case .atMost(let longest) = step.duration else {
                Issue.record("expected a bound, got \(step.duration)")
                return
            }
            #expect(longest >= .longest)
            #expect(!longest.workflowText.isEmpty)
        }
    }

    @Test func workflowTextHandlesSaturatedSums() {
        #expect(Duration.longest.workflowText == "over 2562047h")
        #expect((Duration.longest * 1000).workflowText == "over 2562047h")
        #expect(Duration.longest.roundedText == "over 2562047h")
        #expect(Duration.seconds(2_562_047 * 3600).workflowText == "2562047h")
        #expect(Duration.longest.saturatingAdd(.seconds(1)) == .longest)
        #expect(Duration.longest.saturatingMultiply(3) == .longest)
        #expect(Duration.seconds(2).saturatingMultiply(3) == .seconds(6))
        #expect(Duration.saturating(seconds: .nan) == .zero)
        #expect(Duration.saturating(seconds: 1e300) == .longest)
    }

    @Test func humanMessagesRoundToTheMillisecond() {
        #expect(Duration.nanoseconds(4_949_823_542).roundedText == "4.95s")
        #expect(Duration.nanoseconds(199_600_000).roundedText == "200ms")
        #expect(Duration.nanoseconds(120_000_000_400).roundedText == "2m")
        #expect(Duration.nanoseconds(150_400).roundedText == "150us")
    }
}

extension Result where Failure == DurationSyntaxError {
    /// The error message, or `nil` on success.
    fileprivate var failureMessage: String? {
        if case .failure(let error) = self { error.message } else { nil }
    }
}
