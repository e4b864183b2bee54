import Testing
@testable import FlowCore

/// The first three lines of every workflow here; what a test adds starts at line 4.
private let header = """
    flowrun: 1
    servers: { api: "https://api.example.com" }
    defaults: { server: api }

    """

/// One step that uses policy `p`, to append after a `policies:` section.
private let stepUsingP = """
    steps:
      - id: a
        policy: p
        request: { method: GET, path: /a }
    """

/// The only diagnostic of `yaml`, failing the test when there is not exactly one.
private func only(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Diagnostic? {
    let found = findings(yaml)
    #expect(found.count == 1, "expected one diagnostic, got: \(found)", sourceLocation: sourceLocation)
    return found.first
}

/// The diagnostics of `yaml` without the warning that a rule's Retry-After waits are bounded by neither
/// `retryAfter.max` nor `timeout.total` (RetryAfterTests checks it), which most policies here would get.
private func findings(_ yaml: String) -> [Diagnostic] {
    diagnostics(yaml).filter { !$0.message.contains("bounded by neither 'retryAfter.max' nor 'timeout.total'") }
}

private func at(_ line: Int, _ column: Int) -> FlowCore.SourceLocation {
    FlowCore.SourceLocation(path: "t.yaml", line: line, column: column)
}

struct PolicyChecksTests {
    // MARK: Delays and attempts against the total timeout

    @Test func delaysThatAloneReachTheTotalTimeoutAreAnErrorWithTheFigures() {
        let diagnostic = only(header + """
            policies:
              p:
                timeout: { total: 10s }
                retry:
                  - when: { status: 503 }
                    attempts: 4
                    delay: 2s
                    backoff: exponential
                    jitter: full
            """ + "\n" + stepUsingP)
        #expect(diagnostic?.severity == .error)
        #expect(diagnostic?.code == .invalidValue)
        #expect(diagnostic?.location == at(8, 9))
        #expect(diagnostic?.message == """
            retry rule 1 of policy 'p' cannot make its 4 attempts: its delays alone add up to 14s (2s + 4s + 8s), \
            not less than the total timeout of 10s, so the engine stops retrying before its last attempt; lower \
            'attempts', 'delay' or 'maxDelay', or raise 'timeout.total'
            """)
    }

    @Test(arguments: [("10s", true), ("10001ms", false)])
    func delaysEqualToTheTotalLeaveNoTimeForTheLastAttempt(total: String, isError: Bool) {
        let found = findings(header + """
            policies:
              p:
                timeout: { total: \(total) }
                retry: { attempts: 3, delay: 5s }
            """ + "\n" + stepUsingP)
        #expect(found.contains { $0.severity == .error } == isError, "\(found)")
    }

    @Test func maxDelayCapsTheDelaysAndTheAttemptTimeoutMakesItAWarning() {
        // Uncapped, 1s + 2s + 4s + 8s = 15s would not fit 8s; capped at 2s they add up to 7s.
        let diagnostic = only(header + """
            policies:
              p:
                timeout: { attempt: 1s, total: 8s }
                retry: { attempts: 5, delay: 1s, backoff: exponential, maxDelay: 2s }
            """ + "\n" + stepUsingP)
        #expect(diagnostic?.severity == .warning)
        #expect(diagnostic?.code == .retryBudget)
        #expect(diagnostic?.location == at(7, 12))
        #expect(diagnostic?.message == """
            retry rule 1 of policy 'p' may not make all its 5 attempts: at the attempt timeout of 1s each, with 7s \
            of delays, they take up to 12s, longer than the total timeout of 8s; the engine starts no retry that \
            could end after it, so the step may fail with the last attempt's error before its last attempt
            """)
    }

    @Test func linearBackoffSumsEachRetrysMultiple() {
        // 300ms + 600ms + 900ms = 1.8s; 4 × 2s + 1.8s = 9.8s fits 10s.
        #expect(findings(header + """
            policies:
              p:
                timeout: { attempt: 2s, total: 10s }
                retry: { attempts: 4, delay: 300ms, backoff: linear }
            """ + "\n" + stepUsingP).isEmpty)
    }

    @Test func eachRuleIsCheckedOnItsOwnSchedule() {
        // Each rule fits alone; only an unlikely mix of both failure kinds would not, which is not a mistake.
        #expect(findings(header + """
            policies:
              p:
                timeout: { attempt: 2s, total: 10s }
                retry:
                  - { when: { status: 503 }, attempts: 3, delay: 1s }
                  - { when: { errors: transport }, attempts: 3, delay: 1s }
            """ + "\n" + stepUsingP).isEmpty)
    }

    @Test func anAttemptTimeoutLongerThanTheTotalIsStillAnError() {
        let diagnostic = only(header + """
            policies:
              p:
                timeout: { attempt: 10s, total: 5s }
            """ + "\n" + stepUsingP)
        #expect(diagnostic?.severity == .error)
        #expect(diagnostic?.location == at(6, 25))
        #expect(diagnostic?.message == "the attempt timeout (10s) of policy 'p' is longer than its total timeout (5s)")
    }

    // MARK: Unreachable rules

    @Test func aRuleThatTheDefaultRuleCoversNeverApplies() {
        let diagnostic = only(header + """
            policies:
              p:
                retry:
                  - { attempts: 3 }
                  - { when: { status: [503, '5XX'] }, attempts: 5 }
                  - { when: { errors: decode }, attempts: 2 }
            """ + "\n" + stepUsingP)
        #expect(diagnostic?.severity == .warning)
        #expect(diagnostic?.code == .unreachable)
        #expect(diagnostic?.location == at(8, 9))
        #expect(diagnostic?.message == """
            retry rule 2 of policy 'p' never applies: the rule at line 7 matches every failure it matches first \
            (a rule without 'when' matches transport failures, timeouts and statuses 429 and 5XX), and the first \
            matching rule decides
            """)
    }

    @Test func aRuleThatSeveralEarlierRulesCoverNeverApplies() {
        let diagnostic = only(header + """
            policies:
              p:
                retry:
                  - { when: { status: 4XX }, attempts: 2 }
                  - { when: { errors: timeout }, attempts: 2 }
                  - { when: { status: 5XX }, attempts: 2 }
                  - { when: { status: [404, 503] }, attempts: 4 }
            """ + "\n" + stepUsingP)
        #expect(diagnostic?.code == .unreachable)
        #expect(diagnostic?.location == at(10, 9))
        #expect(diagnostic?.message.hasPrefix(
            "retry rule 4 of policy 'p' never applies: the rules at lines 7 and 9 match every failure") == true)
    }

    @Test(arguments: [
        // (earlier when, later when, later is unreachable)
        ("{ errors: timeout }", "{ errors: timeout.attempt }", true),
        ("{ errors: [timeout.attempt, timeout.total] }", "{ errors: timeout }", true),
        ("{ errors: timeout.attempt }", "{ errors: timeout }", false),
        ("{ errors: http }", "{ status: '5XX' }", true),
        ("{ status: ['4XX', '5XX'] }", "{ errors: http }", false),  // an undeclared 3xx is an http failure too
        ("{ errors: x-quota }", "{ errors: x-quota.daily }", true),
        ("{ errors: x-quota.daily }", "{ errors: x-quota }", false),
        ("{ status: 429 }", "{ errors: transport }", false),
    ])
    func ruleCoverageFollowsTheEnginesMatcher(earlier: String, later: String, isUnreachable: Bool) {
        let found = findings(header + """
            policies:
              p:
                retry:
                  - { when: \(earlier), attempts: 2 }
                  - { when: \(later), attempts: 2 }
            """ + "\n" + stepUsingP)
        #expect(found.contains { $0.code == .unreachable && $0.location?.line == 8 } == isUnreachable, "\(found)")
        #expect(found.count == (isUnreachable ? 1 : 0), "\(found)")
    }

    @Test func aRuleWithOneAttemptStillShadowsLaterRules() {
        // `attempts: 1` says "do not retry 503"; the 5XX rule then never sees a 503, but still sees the others.
        #expect(findings(header + """
            policies:
              p:
                retry:
                  - { when: { status: 503 }, attempts: 1 }
                  - { when: { status: 5XX }, attempts: 3 }
            """ + "\n" + stepUsingP).isEmpty)
    }

    // MARK: Retries the engine refuses

    @Test(arguments: ["POST", "PATCH"])
    func aNonIdempotentStepThatThePolicyWouldRetryIsReported(method: String) {
        let diagnostic = only(header + """
            policies:
              p: { timeout: { total: 1m }, retry: { attempts: 3 } }
            steps:
              - id: create
                policy: p
                request: { method: \(method), path: /items, body: { name: x } }
            """)
        #expect(diagnostic?.severity == .warning)
        #expect(diagnostic?.code == .unretriedMethod)
        #expect(diagnostic?.location == at(9, 24))
        #expect(diagnostic?.message == """
            step 'create' will not be retried (policy 'p' retries failures): \(method) is not idempotent; add \
            'idempotencyKey: true' to send an Idempotency-Key, or 'idempotent: true' (or 'idempotent: false' to keep \
            it unretried)
            """)
    }

    @Test(arguments: [
        "idempotent: true",
        "idempotent: false",
        "request: { method: POST, path: /items, headers: { idempotency-key: $inputs.key } }",
    ])
    func anIdempotencyDeclarationOrKeySilencesTheWarning(line: String) {
        let request = line.hasPrefix("request") ? line : "request: { method: POST, path: /items }\n    " + line
        #expect(findings("""
            flowrun: 1
            servers: { api: "https://api.example.com" }
            inputs: { type: object, properties: { key: { type: string } } }
            policies:
              p: { timeout: { total: 1m }, retry: { attempts: 3 } }
            defaults: { server: api, policy: p }
            steps:
              - id: create
                \(request)
            """).filter { $0.code != .unused }.isEmpty)
    }

    @Test func aPolicyThatDoesNotRetryOrAnIdempotentMethodIsNotReported() {
        #expect(findings(header + """
            policies:
              once: { timeout: { attempt: 5s }, retry: { attempts: 1 } }
              p: { timeout: { total: 1m }, retry: { attempts: 3 } }
            steps:
              - id: post
                policy: once
                request: { method: POST, path: /items }
              - id: put
                policy: p
                request: { method: PUT, path: /items/1 }
            """).isEmpty)
    }

    @Test func theDefaultPolicyCountsToo() {
        let found = findings("""
            flowrun: 1
            servers: { api: "https://api.example.com" }
            policies:
              p: { timeout: { total: 1m }, retry: { attempts: 3 } }
            defaults: { server: api, policy: p }
            steps:
              - id: create
                request: { method: POST, path: /items }
            """)
        #expect(found.map(\.location) == [at(8, 24)])
    }

    // MARK: Retry-After

    @Test func aRetryAfterCapNotShorterThanTheTotalTimeoutIsReported() {
        let diagnostic = only(header + """
            policies:
              p:
                timeout: { total: 30s }
                retry: { when: { status: 429 }, attempts: 3, retryAfter: { max: 30s } }
            """ + "\n" + stepUsingP)
        #expect(diagnostic?.severity == .warning)
        #expect(diagnostic?.code == .retryBudget)
        #expect(diagnostic?.location == at(7, 12))
        #expect(diagnostic?.message == """
            retry rule 1 of policy 'p' accepts a Retry-After wait of up to 30s ('retryAfter.max'), not less than \
            the total timeout of 30s: a wait that long leaves no time for another attempt, so the engine does not \
            retry and the step fails with the server's status; lower 'retryAfter.max'
            """)
    }

    @Test(arguments: [
        // A cap below the total, a rule that only sees failures without a response, Retry-After not honoured,
        // and a cap shorter than the delay (the engine waits the longer of the two, so it is legitimate).
        "{ when: { status: 429 }, attempts: 3, retryAfter: { max: 20s } }",
        "{ when: { errors: transport }, attempts: 3, retryAfter: { max: 1m } }",
        "{ when: { status: 429 }, attempts: 3, retryAfter: { honor: false, max: 1m } }",
        "{ when: { status: 429 }, attempts: 3, delay: 5s, retryAfter: { max: 1s } }",
    ])
    func otherRetryAfterSettingsAreNotReported(rule: String) {
        #expect(findings(header + """
            policies:
              p:
                timeout: { total: 30s }
                retry: \(rule)
            """ + "\n" + stepUsingP).isEmpty)
    }
}
