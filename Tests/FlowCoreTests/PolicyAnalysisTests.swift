import Foundation
import Testing
@testable import FlowCore

/// The worst case of step `id` in `yaml`, which must compile.
private func worstCase(_ id: String, in yaml: String) throws -> PolicyAnalysis.StepWorstCase {
    try #require(PolicyAnalysis(plan: plan(yaml)).step(id))
}

/// A workflow with one GET step `a` under policy `p`, declared by `policy` (indented two spaces under `policies:`).
private func oneStep(policy: String, method: String = "GET") -> String {
    """
    flowrun: 1
    servers: { api: "https://api.example.com" }
    defaults: { server: api }
    policies:
      p: \(policy)
    steps:
      - id: a
        policy: p
        request: { method: \(method), path: /a }
    """
}

/// The banking example's shape: two retry rules, a refresh interceptor and a POST refresh step.
private let banking = """
    flowrun: 1
    servers: { api: "https://api.example.com" }
    vars: { token: t }
    interceptors:
      auth: { bearer: $vars.token }
      refresh: { when: { status: [401, 403] }, run: renew, then: replay }
    policies:
      standard:
        timeout: { attempt: 5s, total: 30s }
        retry:
          - when: { status: [429, 503] }
            attempts: 4
            delay: 200ms
            backoff: exponential
            jitter: full
            retryAfter: { max: 10s }
          - { when: { errors: [transport, timeout.attempt] }, attempts: 3, delay: 500ms }
    defaults: { server: api, interceptors: [auth, refresh], policy: standard }
    steps:
      - id: user
        request: { method: GET, path: /user }
      - id: renew
        on-demand: true
        interceptors: []
        request: { method: POST, path: /token }
        set: { token: $response.body#/t }
    """

struct PolicyAnalysisTests {
    @Test func aStepWithoutPolicyMakesOneAttemptAndIsUnbounded() throws {
        let step = try worstCase("a", in: """
            flowrun: 1
            steps:
              - id: a
                request: { method: GET, path: "https://x.test/a" }
            """)
        #expect(step == PolicyAnalysis.StepWorstCase(
            id: "a", policy: nil, isOnDemand: false, attempts: 1, attemptLimit: .noRetries, attemptsByRules: 1,
            refresh: nil, requestsPerAttempt: 1, retryDelays: .zero, duration: .unbounded(.noTimeout)))
        #expect(step.requests == 1)
    }

    @Test func attemptsAddUpOverRulesAndARefreshAddsItsReplayAndRequestsToEveryAttempt() throws {
        let user = try worstCase("user", in: banking)
        // 1 + (4 − 1) + (3 − 1): each rule counts its own retries.
        #expect(user.attempts == 6)
        #expect(user.attemptLimit == .retryRules)
        #expect(user.refresh == PolicyAnalysis.Refresh(step: "renew", statuses: [401, 403], requests: 1))
        // Each attempt: the request, the refresh step's one request, the replay.
        #expect(user.requestsPerAttempt == 3)
        #expect(user.requests == 18)
        // Rule 1 honours Retry-After up to 10s for its 3 retries; rule 2's failures carry no response: 500ms × 2.
        #expect(user.retryDelays == .seconds(31))
        // 6 attempts × (5s + 5s for the replay) + 31s = 91s, which the total timeout cuts to 30s.
        #expect(user.duration == .totalTimeout(.seconds(30)))
    }

    @Test func aNonIdempotentRefreshStepRunsOnceAndWithoutRefreshOfItsOwn() throws {
        let renew = try worstCase("renew", in: banking)
        #expect(renew.isOnDemand)
        #expect(renew.attempts == 1)
        #expect(renew.attemptLimit == .notIdempotent)
        #expect(renew.attemptsByRules == 6)
        #expect(renew.refresh == nil)
        #expect(renew.requests == 1)
        #expect(renew.retryDelays == .zero)
        #expect(renew.duration == .atMost(.seconds(5)))
    }

    @Test func aRetriedRefreshStepMultipliesTheRequestsOfEveryAttempt() throws {
        let yaml = banking.replacingOccurrences(
            of: "    interceptors: []\n", with: "    interceptors: []\n    idempotent: true\n")
        let user = try worstCase("user", in: yaml)
        #expect(user.refresh?.requests == 6)
        #expect(user.requestsPerAttempt == 8)
        #expect(user.requests == 48)
    }

    @Test func theTotalTimeoutLimitsAttemptsThatFailAtOnce() throws {
        // Each rule fits 1s alone (300ms + 300ms); together, three 300ms delays fit and the fourth does not.
        let step = try worstCase("a", in: oneStep(policy: """
            { timeout: { total: 1s }, retry: [\
            { when: { status: 503 }, attempts: 3, delay: 300ms }, \
            { when: { errors: transport }, attempts: 3, delay: 300ms }] }
            """))
        #expect(step.attemptsByRules == 5)
        #expect(step.attempts == 4)
        #expect(step.attemptLimit == .totalTimeout)
        #expect(step.duration == .totalTimeout(.seconds(1)))
    }

    @Test(arguments: [("none", 4), ("equal", 5), ("full", 5)])
    func jitterShortensTheDelaysThatCountForTheAttemptBound(jitter: String, attempts: Int) throws {
        // Shortest delays: none 300ms each, equal 150ms each, full zero.
        let step = try worstCase("a", in: oneStep(policy: """
            { timeout: { total: 1s }, retry: [\
            { when: { status: 503 }, attempts: 3, delay: 300ms, jitter: \(jitter) }, \
            { when: { errors: transport }, attempts: 3, delay: 300ms, jitter: \(jitter) }] }
            """))
        #expect(step.attempts == attempts)
    }

    @Test func withoutATotalTimeoutTheDurationIsAttemptsTimesTheAttemptTimeoutPlusDelays() throws {
        let step = try worstCase("a", in: oneStep(policy: """
            { timeout: { attempt: 2s }, retry: { when: { status: 503 }, attempts: 3, delay: 1s, backoff: linear, \
            retryAfter: { honor: false } } }
            """))
        #expect(step.attempts == 3)
        #expect(step.retryDelays == .seconds(3))
        #expect(step.duration == .atMost(.seconds(9)))
    }

    @Test func maxDelayCapsEachDelay() throws {
        let step = try worstCase("a", in: oneStep(policy: """
            { timeout: { attempt: 1s }, retry: { when: { errors: transport }, attempts: 5, delay: 1s, \
            backoff: exponential, maxDelay: 3s } }
            """))
        // 1s + 2s + 3s + 3s instead of 1s + 2s + 4s + 8s.
        #expect(step.retryDelays == .seconds(9))
        #expect(step.duration == .atMost(.seconds(14)))
    }

    @Test func aRetryAfterWithoutMaxCountsAtTheDefaultCap() throws {
        let step = try worstCase("a", in: oneStep(policy: """
            { timeout: { attempt: 2s }, retry: { when: { status: 429 }, attempts: 3 } }
            """))
        // Two waits of up to 5m each, and three attempts of 2s.
        #expect(step.retryDelays == .seconds(600))
        #expect(step.duration == .atMost(.seconds(606)))
        let capped = try worstCase("a", in: oneStep(policy: """
            { timeout: { attempt: 2s, total: 1m }, retry: { when: { status: 429 }, attempts: 3 } }
            """))
        #expect(capped.duration == .totalTimeout(.seconds(60)))
    }

    @Test func aShadowedRuleAddsNoAttempts() throws {
        let step = try worstCase("a", in: oneStep(policy: """
            { retry: [{ attempts: 3 }, { when: { status: 503 }, attempts: 10 }] }
            """))
        #expect(step.attempts == 3)
        #expect(step.duration == .unbounded(.noTimeout))
    }

    @Test func aPostWithAnIdempotencyKeyIsRetried() throws {
        let yaml = oneStep(policy: "{ retry: { attempts: 3 } }", method: "POST")
            .replacingOccurrences(of: "path: /a }", with: "path: /a, headers: { Idempotency-Key: k-1 } }")
        #expect(try worstCase("a", in: yaml).attempts == 3)
        let plain = try worstCase("a", in: oneStep(policy: "{ retry: { attempts: 3 } }", method: "POST"))
        #expect(plain.attempts == 1)
        #expect(plain.attemptLimit == .notIdempotent)
    }

    @Test func stepsAreAnalysedInPlanOrder() throws {
        let analysis = PolicyAnalysis(plan: try plan(banking))
        #expect(analysis.steps.map(\.id) == ["user", "renew"])
    }

    @Test(arguments: [
        (Duration.milliseconds(200), "200ms"), (.milliseconds(1400), "1.4s"), (.seconds(90), "90s"),
        (.seconds(120), "2m"), (.seconds(7200), "2h"), (.microseconds(500), "500us"), (.seconds(31), "31s"),
    ])
    func durationsAreQuotedAsWorkflowFilesWriteThem(duration: Duration, text: String) {
        #expect(duration.workflowText == text)
    }
}
