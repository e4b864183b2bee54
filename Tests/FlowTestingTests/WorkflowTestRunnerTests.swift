import FlowCore
import Foundation
import Logging
import Testing

@testable import FlowTesting

private let workflow = """
    flowrun: 1
    servers: { api: https://api.test }
    policies:
      standard:
        retry: { when: { status: 503 }, attempts: 3, delay: 100ms, backoff: exponential, jitter: full }
    defaults: { server: api, policy: standard }
    steps:
      - id: user
        request: { method: GET, path: /user }
        outputs: { name: $response.body#/name, tags: $response.body#/tags }
      - id: account
        request: { method: GET, path: "/accounts/{$steps.user.outputs.name}", headers: { X-Trace: t-1 } }
        outputs: { balance: $response.body#/balance }
    outputs:
      name: $steps.user.outputs.name
      tags: $steps.user.outputs.tags
      balance: $steps.account.outputs.balance
    """

private let happyStubs = """
    stubs:
      - { match: { method: GET, path: /user }, respond: { body: { name: ada, tags: [a, b] } } }
      - { match: { method: GET, path: "/accounts/{name}" }, respond: { body: { balance: 10.5 } } }
    """

private let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// A suite of ``workflow`` and the test file `yaml` (the header and the happy-path stubs are added).
private func suite(_ yaml: String, workflow text: String = workflow) throws -> WorkflowTestSuite {
    let plan = try WorkflowCompiler().compile(yaml: text, path: "wf.yaml")
    let file = try WorkflowTestFile.load(
        yaml: "flowrun-test: 1\nworkflow: wf.yaml\n" + happyStubs + "\n" + yaml, path: "t.test.yaml")
    return WorkflowTestSuite(file: file, plan: plan)
}

/// Runs the only case of `yaml`.
private func runOnly(_ yaml: String, runner: WorkflowTestRunner = WorkflowTestRunner(logger: logger)) async throws
    -> WorkflowTestResult
{
    let results = await runner.run(try suite(yaml))
    try #require(results.count == 1)
    return results[0]
}

struct WorkflowTestRunnerTests {
    // MARK: Passing

    @Test func happyPathPasses() async throws {
        let result = try await runOnly("""
            cases:
              - name: happy
                expect:
                  outputs: { name: ada, balance: 10.5 }
                  calls: [GET /user, { method: GET, path: /accounts/ada, headers: { X-Trace: t-1 } }]
                  attempts: { user: 1, account: 1 }
                  steps: { user: succeeded }
                  elapsed: 0s
            """)
        #expect(result.passed, "\(result.failures)")
        #expect(result.name == "happy")
        #expect(result.location?.line == 7)
        #expect(result.calls.count == 2)
        #expect(result.report?.succeeded == true)
    }

    @Test func retriesTakeTheirExactBackoffWithJitterAtItsMaximum() async throws {
        let result = try await runOnly("""
            cases:
              - name: retry
                stubs:
                  - { match: { path: /user }, respond: [{ status: 503 }, { status: 503 }, { body: { name: ada, tags: [] } }] }
                expect: { attempts: { user: 3 }, elapsed: 300ms }
            """)
        #expect(result.passed, "\(result.failures)")
        #expect(result.elapsed == .milliseconds(300))
    }

    @Test func expectedFailuresPass() async throws {
        let result = try await runOnly("""
            cases:
              - name: fails
                stubs: [{ match: { path: "/accounts/{name}" }, respond: { status: 404 } }]
                expect:
                  outcome: { failure: { kind: http, step: account, status: 404, message: "404" } }
                  steps: { account: failed }
            """)
        #expect(result.passed, "\(result.failures)")
    }

    // MARK: Failing, with a diff

    @Test func outputDifferencesAreListedByJSONPointer() async throws {
        let result = try await runOnly("""
            cases:
              - name: outputs
                expect: { outputs: { name: bob, tags: [a, c], missing: 1 } }
            """)
        #expect(result.failures.map(\.kind) == [.outputs])
        let failure = try #require(result.failures.first)
        #expect(failure.message == "outputs differ")
        #expect(failure.details.contains(#"/name: expected "bob", actual "ada""#))
        #expect(failure.details.contains(#"/tags/1: expected "c", actual "b""#))
        #expect(failure.details.contains("/missing: missing; expected 1"))
    }

    @Test func exactOutputsReportUnexpectedMembers() async throws {
        let result = try await runOnly("""
            cases:
              - name: exact
                expect: { outputs-exact: { name: ada, tags: [a, b] } }
            """)
        #expect(result.failures.first?.details.first == "/balance: not expected; actual 10.5")
    }

    @Test func theFirstDifferingCallIsShownWithExpectedAndActual() async throws {
        let result = try await runOnly("""
            cases:
              - name: calls
                expect:
                  calls: [GET /user, { method: GET, path: /accounts/ada, headers: { X-Trace: t-2 } }]
            """)
        let failure = try #require(result.failures.first)
        #expect(failure.kind == .calls)
        #expect(failure.message == "calls differ at call 2")
        #expect(failure.details[0] == "expected: GET /accounts/ada with header X-Trace: t-2")
        #expect(failure.details[1].hasPrefix("actual:   GET /accounts/ada → 200 (step account, attempt 1): "))
        #expect(failure.details[1].hasSuffix("header X-Trace is 't-1', expected 't-2'"))
    }

    @Test func missingAndExtraCallsAreCounted() async throws {
        let missing = try await runOnly("""
            cases:
              - name: missing
                expect: { calls: [GET /user, GET /accounts/ada, GET /more] }
            """)
        #expect(missing.failures.first?.message == "expected 3 calls, the run made 2")
        #expect(missing.failures.first?.details.first == "missing call 3: GET /more")
        let extra = try await runOnly("""
            cases:
              - name: extra
                expect: { calls: [GET /user] }
            """)
        #expect(extra.failures.first?.details.first == "unexpected call 2: GET /accounts/ada → 200 (step account, attempt 1)")
    }

    @Test func anUnexpectedFailureShowsTheError() async throws {
        let result = try await runOnly("""
            cases:
              - name: boom
                stubs: [{ match: { path: /user }, respond: { status: 503 } }]
                expect: { outputs: { name: ada }, attempts: { user: 2 }, elapsed: 1s }
            """)
        #expect(result.failures.map(\.kind) == [.outcome, .outputs, .attempts, .elapsed])
        #expect(result.failures[0].message.hasPrefix("expected success, but the run failed with error: step 'user', attempt 3"))
        #expect(result.failures[0].details.first == "kind: http, status 503")
        #expect(result.failures[2].details == ["step user: expected 2 attempts, actual 3 (503, 503, 503)"])
        #expect(result.failures[3].message == "expected the run to take 1s of virtual time, it took 300ms")
        #expect(result.failures[3].details == [
            "step user, after attempt 1: waited 100ms", "step user, after attempt 2: waited 200ms",
        ])
    }

    @Test func aDifferentFailureIsExplained() async throws {
        let result = try await runOnly("""
            cases:
              - name: other
                stubs: [{ match: { path: /user }, respond: { status: 400 } }]
                expect: { outcome: { failure: { kind: timeout, step: account, status: 404 } } }
            """)
        let failure = try #require(result.failures.first)
        #expect(failure.kind == .outcome)
        #expect(failure.details.prefix(3) == [
            "kind: expected timeout, actual http", "step: expected account, actual user", "status: expected 404, actual 400",
        ])
    }

    @Test func anUnexpectedSuccessIsReported() async throws {
        let result = try await runOnly("""
            cases:
              - name: succeeded
                expect: { outcome: { failure: { kind: http } } }
            """)
        #expect(result.failures.first?.message.hasPrefix("expected the run to fail with kind http, but it succeeded") == true)
    }

    // MARK: Isolation and limits

    @Test func casesAreIsolatedAndKeepTheirOrder() async throws {
        // Every case walks the same response sequence from its start: no stub counter leaks between cases.
        var cases = "cases:\n"
        for index in 0..<40 {
            cases += """
                  - name: case \(index)
                    stubs: [{ match: { path: /user }, respond: [{ status: 503 }, { body: { name: n\(index), tags: [] } }] }]
                    expect: { outputs: { name: n\(index) }, attempts: { user: 2 }, elapsed: 100ms }

                """
        }
        let results = await WorkflowTestRunner(logger: logger, maxConcurrentCases: 4).run(try suite(cases))
        #expect(results.map(\.name) == (0..<40).map { "case \($0)" })
        #expect(results.allSatisfy { $0.passed }, "\(results.flatMap(\.failures))")
    }

    @Test func runsShareTheEngineSoCircuitBreakersOpen() async throws {
        let breaker = """
            flowrun: 1
            servers: { api: https://api.test }
            policies:
              guarded:
                circuitBreaker: { failureRatio: 0.5, minimumThroughput: 3, window: 1m, breakDuration: 30s }
            defaults: { server: api, policy: guarded }
            steps:
              - id: user
                request: { method: GET, path: /user }
            """
        let suite = try suite("""
            cases:
              - name: open
                runs: 4
                stubs: [{ match: { path: /user }, respond: { status: 500 } }]
                expect: { outcome: { failure: { kind: circuit-open } }, calls: [] }
              - name: closed again in a new case
                stubs: [{ match: { path: /user }, respond: { status: 500 } }]
                expect: { outcome: { failure: { kind: http, status: 500 } }, calls: [GET /user] }
            """, workflow: breaker)
        let results = await WorkflowTestRunner(logger: logger).run(suite)
        #expect(results.allSatisfy { $0.passed }, "\(results.flatMap(\.failures))")
    }

    @Test func aCasePastTheVirtualTimeLimitFails() async throws {
        let runner = WorkflowTestRunner(logger: logger, virtualTimeLimit: .seconds(60))
        let result = try await runOnly("""
            cases:
              - name: slow
                stubs: [{ match: { path: /user }, respond: { delay: 2m } }]
            """, runner: runner)
        #expect(result.failures.map(\.kind) == [.virtualTimeout])
        #expect(result.failures.first?.message == "the case did not finish within 1m of virtual time, so it was cancelled")
        #expect(result.calls.count == 1)
    }

    // Without the wall-time limit the cases would spin forever; the trait turns that into a failure. (How soon
    // after 300 ms they stop depends on the load: on a busy machine, the timer waits for a free thread.)
    @Test(.timeLimit(.minutes(1))) func aHangingCaseIsStoppedByTheWallTimeLimit() async throws {
        // A custom interceptor that keeps its task busy without ever sleeping on the clock, so virtual time
        // never moves; only the real-time limit can stop it.
        var interceptors = InterceptorRegistry()
        interceptors.register("spin") { _ in SpinningInterceptor() }
        let spinning = """
            flowrun: 1
            servers: { api: https://api.test }
            interceptors: { spin: { use: spin } }
            defaults: { server: api, interceptors: [spin] }
            steps:
              - id: user
                request: { method: GET, path: /user }
            """
        let runner = WorkflowTestRunner(logger: logger, interceptors: interceptors, wallTimeLimit: .milliseconds(300))
        let suite = try suite("cases:\n  - name: hangs\n  - name: also hangs\n", workflow: spinning)
        let results = await runner.run(suite)
        #expect(results.map { $0.failures.map(\.kind) } == [[.wallTimeout], [.wallTimeout]])
        #expect(results.first?.failures.first?.message
            == "the case did not finish within 300ms of real time, so it was cancelled")
        #expect(results.allSatisfy { $0.wallTime >= .milliseconds(300) })
    }
}

/// An interceptor that never finishes until its task is cancelled: it blocks its thread a millisecond at a
/// time, as a synchronous call would, so its case is never idle and virtual time never moves.
private struct SpinningInterceptor: Interceptor {
    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        while !Task.isCancelled {
            usleep(1000)
            await Task.yield()
        }
        throw CancellationError()
    }
}

/// Issue 9 item 19: zero-latency stubs must not hide a race; a shuffled ready order shows it, reproducibly.
struct ShuffledReadyOrderTests {
    private let racing = """
        flowrun: 1
        servers: { api: https://api.test }
        defaults: { server: api }
        vars: { token: stale }
        interceptors: { auth: { bearer: $vars.token } }
        steps:
          - { id: login, request: { method: POST, path: /login }, set: { token: $response.body#/token } }
          - { id: user, interceptors: [auth], request: { method: GET, path: /user } }
        """

    private let test = """
        cases:
          - name: the user call carries the fresh token
            stubs:
              - { match: { method: POST, path: /login }, respond: { body: { token: fresh } } }
              - { match: { path: /user, headers: { Authorization: Bearer fresh } }, respond: { body: {} } }
              - { match: { path: /user }, respond: { status: 401 } }
        """

    private func passes(seed: UInt64?) async throws -> Bool {
        var runner = WorkflowTestRunner(logger: logger)
        runner.readyOrderSeed = seed
        let results = await runner.run(try suite(test, workflow: racing))
        return try #require(results.first).passed
    }

    @Test func planOrderHidesTheRaceAndSomeShuffledOrderShowsIt() async throws {
        #expect(try await passes(seed: nil))
        var failing: [UInt64] = []
        for seed in UInt64(1)...16 where try await !passes(seed: seed) { failing.append(seed) }
        #expect(!failing.isEmpty, "no order of 16 seeds started 'user' before 'login'")
        // The same seed gives the same order: a failure reproduces.
        if let seed = failing.first { #expect(try await !passes(seed: seed)) }
    }
}

/// Issue 9 item 21: matchers for values a test cannot know exactly.
struct MatcherTests {
    private let ordering = """
        flowrun: 1
        servers: { api: https://api.test }
        policies: { retried: { retry: { when: { status: 503 }, attempts: 2, delay: 1s } } }
        defaults: { server: api }
        steps:
          - id: order
            policy: retried
            idempotencyKey: true
            request: { method: POST, path: /orders, body: { n: 1 } }
            outputs: { id: $response.body#/id, total: $response.body#/total, at: $response.body#/at }
        outputs:
          order: { id: $steps.order.outputs.id, total: $steps.order.outputs.total, at: $steps.order.outputs.at }
        """

    private func result(_ expect: String) async throws -> WorkflowTestResult {
        let plan = try WorkflowCompiler().compile(yaml: ordering, path: "wf.yaml")
        let file = try WorkflowTestFile.load(yaml: """
            flowrun-test: 1
            workflow: wf.yaml
            stubs:
              - match: { method: POST, path: /orders }
                respond:
                  - { status: 503 }
                  - { body: { id: o-7f3a, total: 12.5, at: "2026-01-01T00:00:01Z" } }
            cases:
              - name: case
                expect:
            \(expect)
            """, path: "t.test.yaml")
        let results = await WorkflowTestRunner(logger: logger).run(WorkflowTestSuite(file: file, plan: plan))
        return try #require(results.first)
    }

    @Test func matchersAcceptWhatTheyDescribe() async throws {
        let passing = try await result("""
                  outputs:
                    order: { id: !anystr, total: !anynumber, at: !re_match '^\\d{4}-\\d{2}-\\d{2}T', missing: !absent }
                  calls:
                    - { method: POST, path: /orders, headers: { Idempotency-Key: !present, X-Debug: !absent } }
                    - { method: POST, path: /orders, headers: { Idempotency-Key: !same } }
            """)
        #expect(passing.passed, "\(passing.failures)")
    }

    @Test func failedMatchersSayWhatTheyExpected() async throws {
        let failing = try await result("""
                  outputs:
                    order: { id: !anynumber, total: !anystr, at: !re_match '^nope', extra: !present }
                  calls:
                    - { method: POST, path: /orders, headers: { Idempotency-Key: !absent } }
                    - POST /orders
            """)
        let text = failing.failures.map(\.description).joined(separator: "\n")
        #expect(text.contains(#"/order/id: expected !anynumber, actual "o-7f3a""#), "\(text)")
        #expect(text.contains("/order/total: expected !anystr, actual 12.5"), "\(text)")
        #expect(text.contains("/order/at: expected !re_match '^nope'"), "\(text)")
        #expect(text.contains("/order/extra: missing; expected !present"), "\(text)")
        #expect(text.contains("header Idempotency-Key is '"), "\(text)")
        #expect(text.contains("expected !absent"), "\(text)")
    }

    @Test func sameComparesWithThePreviousAttemptOfTheStep() async throws {
        let first = try await result("""
                  calls:
                    - { method: POST, path: /orders, headers: { Idempotency-Key: !same } }
                    - POST /orders
            """)
        #expect(first.failures.map(\.description).joined().contains("there is no previous attempt of step order"))
    }

    @Test func badMatchersAreErrorsOfTheTestFile() {
        #expect(throws: FlowError.self) {
            try WorkflowTestFile.load(yaml: """
                flowrun-test: 1
                workflow: wf.yaml
                cases:
                  - { name: a, expect: { outputs: { x: !re_match '(' } } }
                """, path: "t.test.yaml")
        }
        #expect(throws: FlowError.self) {
            try WorkflowTestFile.load(yaml: """
                flowrun-test: 1
                workflow: wf.yaml
                cases:
                  - { name: a, expect: { outputs: { x: !same } } }
                """, path: "t.test.yaml")
        }
    }
}
