import FlowCore
import FlowHTTP
import FlowTestServer
import Foundation
import Logging
import Testing

/// A logger that drops everything, so retries do not flood the test output.
private let quiet = Logger(label: "FailurePoliciesOverHTTPTests") { _ in SwiftLogNoOpLogHandler() }

/// The head of every workflow here: one server whose URL is the test server's, read from `$env.API`.
private let header = """
    flowrun: 1
    env: { API: {} }
    servers: { api: { url: "{$env.API}" } }

    """

/// Runs `body` with an engine whose `http` dispatcher sends over real sockets, on a private client, to a
/// test server that answers from `script`.
private func withEngine<Result>(
    _ script: FaultScript,
    _ body: (Engine<ContinuousClock>, TestHTTPServer) async throws -> Result
) async throws -> Result {
    try await withTestServer(script.handler) { server in
        try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
            let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: quiet)
            return try await body(engine, server)
        }
    }
}

/// Runs `plan` once on ``withEngine(_:_:)``, then hands back its report, the stopped server (its requests are
/// still there to read) and how long the run took, from the engine's start to its report.
private func run(
    _ plan: Plan, answering script: FaultScript
) async throws -> (report: RunReport, server: TestHTTPServer, elapsed: Duration) {
    try await withEngine(script) { engine, server in
        let started = ContinuousClock.now
        let report = await engine.run(plan, against: server)
        return (report, server, started.duration(to: .now))
    }
}

/// Compiles `yaml`; warnings (a POST that will not be retried) are fine here.
private func compile(_ yaml: String) throws -> Plan {
    try WorkflowCompiler().compile(yaml: header + yaml, path: "test.yaml")
}

extension Engine where C == ContinuousClock {
    /// Runs `plan` against `server`.
    fileprivate func run(_ plan: Plan, against server: TestHTTPServer) async -> RunReport {
        await run(plan, inputs: [:], environment: ["API": server.baseURL])
    }
}

extension TestHTTPServer {
    /// The time between each request and the one before it, in the order the server received them.
    fileprivate var gaps: [Duration] {
        let times = requests.map(\.receivedAt)
        return zip(times, times.dropFirst()).map { $0.duration(to: $1) }
    }

    /// `METHOD path` of every request, in the order received.
    fileprivate var calls: [String] {
        requests.map { "\($0.method) \($0.path)" }
    }
}

/// Each failure-handling rule of `docs/failure-handling.md`, end to end: the engine, the AsyncHTTPClient
/// dispatcher and real sockets to a server that injects the fault.
///
/// Timing checks are lower bounds (the engine must wait at least this long) and upper bounds with a
/// large margin (it must not wait for the thing it was told to cut short), so a loaded machine makes
/// them slower, not flaky. Every delay is tens of milliseconds; the whole suite runs in a few seconds.
@Suite(.timeLimit(.minutes(1)))
struct FailurePoliciesOverHTTPTests {
    @Test func failuresThenSuccessAreRetriedWithExponentialBackoff() async throws {
        let plan = try compile("""
            policies:
              backoff:
                retry: [{ when: { status: 503 }, attempts: 4, delay: 20ms, backoff: exponential }]
            defaults: { server: api, policy: backoff }
            steps:
              - id: flaky
                request: { method: GET, path: /flaky }
                outputs: { id: $response.body#/id }
            outputs: { id: $steps.flaky.outputs.id }
            """)
        let script = FaultScript(["/flaky": [.fail(503), .fail(503), .fail(503), .ok(#"{"id":"i-1"}"#)]])
        let (report, server, _) = try await run(plan, answering: script)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs == ["id": "i-1"])
        let attempts = try #require(report.steps.first?.attempts)
        #expect(attempts.map(\.status) == [503, 503, 503, 200])
        #expect(attempts.map(\.retryDelay) == [.milliseconds(20), .milliseconds(40), .milliseconds(80), nil])
        #expect(server.requests.count == 4)
        let gaps = server.gaps
        for (gap, delay) in zip(gaps, [20, 40, 80].map(Duration.milliseconds)) {
            // Only the lower bound: an upper one is a timed assertion that a loaded machine breaks. The delays
            // themselves are asserted exactly above, from the report.
            #expect(gap >= delay, "the server saw a retry \(gap) after the last request; the backoff is \(delay)")
        }
    }

    @Test(arguments: [Fault.Wait.seconds(120), .date(Date(timeIntervalSinceNow: 3600))])
    func retryAfterIsHonouredAndCappedByItsMax(wait: Fault.Wait) async throws {
        let plan = try compile("""
            policies:
              limited:
                retry: [{ when: { status: 429 }, attempts: 2, delay: 10ms, retryAfter: { max: 50ms } }]
            defaults: { server: api, policy: limited }
            steps:
              - id: limited
                request: { method: GET, path: /limited }
            """)
        let script = FaultScript(["/limited": [.retryAfter(wait), .ok()]])
        let (report, server, _) = try await run(plan, answering: script)
        #expect(report.succeeded, "\(String(describing: report.error))")
        // The server asked for 2 min (or an hour): the engine waits the cap, longer than its own 10 ms backoff.
        #expect(report.steps.first?.attempts.first?.retryDelay == .milliseconds(50))
        let gap = try #require(server.gaps.first)
        #expect(gap >= .milliseconds(50))
        // Far below 2 min, with room for a loaded machine's first connection (the whole suite runs at once, and
        // on a busy machine a 50 ms sleep has been seen to take 5 s).
        #expect(gap < .seconds(60), "the engine waited \(gap): the server's value, not the cap")
    }

    /// A server that asks for more seconds than any integer holds, over real sockets: with neither
    /// `retryAfter.max` nor `timeout.total`, this once killed the process ("Not enough bits to represent the
    /// passed value"). The wait saturates, the default cap (5m) bounds it, and the retry goes out. The engine
    /// sleeps on a clock that records the wait and returns at once, so the test does not take five minutes.
    @Test(arguments: [
        ("Retry-After", "9223372036854775807"), ("Retry-After", "18446744073709551616"),
        ("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT"), ("RateLimit-Reset", "18446744073709551616"),
    ])
    func aHugeServerWaitIsCappedAndTheRetryGoesOut(header: String, value: String) async throws {
        let plan = try compile("""
            policies:
              limited: { retry: [{ when: { status: 429 }, attempts: 2 }] }
            defaults: { server: api, policy: limited }
            steps:
              - id: limited
                request: { method: GET, path: /limited }
            """)
        let script = FaultScript(["/limited": [.fail(429, headers: [(header, value)]), .ok()]])
        let clock = ImmediateClock()
        let report = try await withTestServer(script.handler) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), clock: clock, logger: quiet)
                return await engine.run(plan, inputs: [:], environment: ["API": server.baseURL])
            }
        }
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.steps.first?.attempts.map(\.status) == [429, 200])
        #expect(report.steps.first?.attempts.first?.retryDelay == .seconds(300))
        #expect(clock.sleeps == [.seconds(300)])
    }

    /// A late head or a body that stops midway: the engine cancels the attempt at its limit (and the dispatcher
    /// relies on that cancellation for a body still arriving), then retries.
    @Test(arguments: [Fault.slow(.seconds(10), then: .ok(#"{"id":"late"}"#)), .stallMidBody])
    func aResponseThatDoesNotArriveInTimeFailsTheAttemptAndIsRetried(fault: Fault) async throws {
        let plan = try compile("""
            policies:
              quick:
                timeout: { attempt: 1s }
                retry: [{ when: { errors: timeout.attempt }, attempts: 2, delay: 10ms }]
            defaults: { server: api, policy: quick }
            steps:
              - id: slow
                request: { method: GET, path: /slow }
                outputs: { id: $response.body#/id }
            outputs: { id: $steps.slow.outputs.id }
            """)
        // 1 s, not less: on a loaded two-core machine the retry's new connection alone can take 100 ms.
        let script = FaultScript(["/slow": [fault, .ok(#"{"id":"i-2"}"#)]])
        let (report, server, elapsed) = try await run(plan, answering: script)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs == ["id": "i-2"])
        let first = try #require(report.steps.first?.attempts.first)
        #expect(first.error?.code == .attemptTimeout)
        // The dispatcher keeps the engine's deadline, body included, and fails with the engine's own error.
        #expect(first.error?.message == "no response within 1s")
        #expect(first.duration >= .seconds(1))
        #expect(server.requests.count == 2)
        #expect(elapsed < .seconds(5), "the run waited \(elapsed) for a response it should have given up on")
    }

    /// A connection nobody accepts waits for the connect timeout, 10 s by default; the attempt's 300 ms limit,
    /// kept on the event loop, ends it long before. (Shutting the client down waits for the connection attempt,
    /// so the test takes the connect timeout. Under a loaded CI run the limit's error arrived after 5.3 s: the
    /// event loop that holds the deadline is shared with the other tests' clients and servers.)
    @Test func anAttemptTimeoutEndsAConnectionThatIsNeverAccepted() async throws {
        let plan = try WorkflowCompiler().compile(yaml: unansweredWorkflow, path: "unanswered.yaml")
        try await withUnansweredPort { port in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: quiet)
                let started = ContinuousClock.now
                let report = await engine.run(plan, inputs: [:], environment: ["API": "http://127.0.0.1:\(port)"])
                let elapsed = started.duration(to: .now)
                #expect(report.error?.code == .attemptTimeout, "\(String(describing: report.error))")
                #expect(report.error?.message == "no response within 300ms")
                #expect(elapsed < .seconds(8), "the run waited \(elapsed), as for the connect timeout")
            }
        }
    }

    @Test func theTotalTimeoutCutsTheStepShortAcrossRetriesAndCatchRulesSeeIt() async throws {
        let plan = try compile("""
            policies:
              bounded:
                # Generous, so a slow first answer on a loaded machine still leaves room for the retry: the
                # engine starts no retry that could not finish before the total (with 2s, CI once saw the 503
                # arrive too late for one).
                timeout: { total: 5s }
                retry: [{ attempts: 5, delay: 50ms }]
            defaults: { server: api, policy: bounded }
            steps:
              - id: stuck
                request: { method: GET, path: /stuck }
                outputs: { id: $response.body#/id }
            catch:
              - when: { errors: timeout.total }
                fallback: { id: gave-up }
            outputs: { id: $steps.stuck.outputs.id }
            """)
        let script = FaultScript(["/stuck": [.fail(503), .slow(.seconds(30), then: .ok(#"{"id":"late"}"#))]])
        let (report, server, elapsed) = try await run(plan, answering: script)
        #expect(report.outputs == ["id": "gave-up"], "\(String(describing: report.error))")
        let step = try #require(report.steps.first)
        #expect(step.status == .recovered)
        #expect(step.error?.code == .totalTimeout)
        #expect(step.attempts.map { $0.error?.code } == [.httpStatus, .totalTimeout])
        #expect(step.duration >= .seconds(5))
        // The 503, then the request still unanswered when the total ran out; never a third.
        #expect(server.requests.count == 2)
        // Cut at the total, not after the 30-second answer: room for a machine under heavy load.
        #expect(elapsed < .seconds(20))
    }

    @Test(arguments: [Fault.resetMidBody, .closeWithoutAnswer])
    func aBrokenConnectionIsATransportFailureAndIsRetried(fault: Fault) async throws {
        let plan = try compile("""
            policies: { standard: { retry: [{ attempts: 3, delay: 10ms }] } }
            defaults: { server: api, policy: standard }
            steps:
              - id: fetch
                request: { method: GET, path: /fetch }
                outputs: { id: $response.body#/id }
            outputs: { id: $steps.fetch.outputs.id }
            """)
        let script = FaultScript(["/fetch": [fault, .ok(#"{"id":"i-3"}"#)]])
        let (report, server, _) = try await run(plan, answering: script)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs == ["id": "i-3"])
        let attempts = try #require(report.steps.first?.attempts)
        #expect(attempts.map { $0.error?.code } == [.transport, nil])
        #expect(server.requests.count == 2)
    }

    @Test func aTruncatedJSONBodyIsADecodeFailureThatIsNotRetriedByDefault() async throws {
        let plan = try compile("""
            policies: { standard: { retry: [{ attempts: 3, delay: 10ms }] } }
            defaults: { server: api, policy: standard }
            steps:
              - id: fetch
                request: { method: GET, path: /fetch }
                outputs: { id: $response.body#/id }
            outputs: { id: $steps.fetch.outputs.id }
            """)
        let script = FaultScript(["/fetch": [.truncatedJSON, .ok(#"{"id":"i-4"}"#)]])
        let (report, server, _) = try await run(plan, answering: script)
        let error = try #require(report.error)
        #expect(error.code == .decode)
        #expect(error.status == 200)
        #expect(report.outputs.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func aRuleThatNamesDecodeRetriesATruncatedBody() async throws {
        let plan = try compile("""
            policies: { standard: { retry: [{ when: { errors: decode }, attempts: 2, delay: 10ms }] } }
            defaults: { server: api, policy: standard }
            steps:
              - id: fetch
                request: { method: GET, path: /fetch }
                outputs: { id: $response.body#/id }
            outputs: { id: $steps.fetch.outputs.id }
            """)
        let script = FaultScript(["/fetch": [.truncatedJSON, .ok(#"{"id":"i-5"}"#)]])
        let (report, server, _) = try await run(plan, answering: script)
        #expect(report.outputs == ["id": "i-5"], "\(String(describing: report.error))")
        #expect(server.requests.count == 2)
    }

    @Test func aServerErrorBodyIsDecodedAsItsTypeAndACatchFallbackReadsIt() async throws {
        let plan = try compile("""
            types:
              Item: { type: object, required: [id], properties: { id: { type: string } } }
              ApiError: { type: object, required: [code], properties: { code: { type: string }, message: { type: string } } }
            policies: { standard: { retry: [{ attempts: 2, delay: 10ms }] } }
            defaults: { server: api, policy: standard }
            steps:
              - id: item
                request: { method: GET, path: /item }
                response: { 200: Item, 500: ApiError }
                outputs: { id: $response.body#/id }
            catch:
              - when: { step: item, status: 500 }
                fallback: { id: $response.body#/code }
            outputs: { id: $steps.item.outputs.id }
            """)
        let script = FaultScript([
            "/item": [.fail(500, body: #"{"code":"db_down","message":"database unavailable"}"#)],
        ])
        let (report, server, _) = try await run(plan, answering: script)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs == ["id": "db_down"])
        let step = try #require(report.steps.first)
        #expect(step.status == .recovered)
        #expect(step.error?.code == .httpStatus)
        #expect(step.error?.message == "status 500 (ApiError): database unavailable")
        #expect(step.attempts.count == 2)  // 500 is retried by default, then the catch rule takes over.
        #expect(server.requests.count == 2)
    }

    @Test func aPostWithoutIdempotencyIsNotRetried() async throws {
        let plan = try compile("""
            policies: { standard: { retry: [{ attempts: 3, delay: 10ms }] } }
            defaults: { server: api, policy: standard }
            steps:
              - id: pay
                request: { method: POST, path: /payments, body: { amount: 5 } }
            """)
        let script = FaultScript(["/payments": [.fail(503), .ok()]])
        let (report, server, _) = try await run(plan, answering: script)
        #expect(report.error?.code == .httpStatus)
        #expect(report.error?.status == 503)
        #expect(server.requests.count == 1)
    }

    @Test func aPostWithAGeneratedIdempotencyKeyIsRetriedWithTheSameKey() async throws {
        let plan = try compile("""
            policies: { standard: { retry: [{ attempts: 3, delay: 10ms }] } }
            defaults: { server: api, policy: standard }
            steps:
              - id: pay
                idempotencyKey: true
                request: { method: POST, path: /payments, body: { amount: 5 } }
                outputs: { id: $response.body#/id }
            outputs: { id: $steps.pay.outputs.id }
            """)
        let script = FaultScript(["/payments": [.fail(503), .closeWithoutAnswer, .ok(#"{"id":"p-1"}"#)]])
        let (report, server, _) = try await run(plan, answering: script)
        #expect(report.outputs == ["id": "p-1"], "\(String(describing: report.error))")
        let keys = server.requests.map { $0.values("Idempotency-Key") }
        #expect(keys.count == 3)
        #expect(keys.allSatisfy { $0.count == 1 })
        #expect(Set(keys.flatMap { $0 }).count == 1)
        #expect(keys.first?.first?.count == 36)
    }

    @Test func theCircuitBreakerOpensAndTheServerStopsReceivingRequests() async throws {
        let plan = try compile("""
            policies:
              guarded:
                circuitBreaker: { failureRatio: 1, minimumThroughput: 3, window: 10s, breakDuration: 600ms }
            defaults: { server: api, policy: guarded }
            steps:
              - id: call
                request: { method: GET, path: /call }
            """)
        let script = FaultScript(["/call": [.fail(503), .fail(503), .fail(503), .ok()]])
        try await withEngine(script) { engine, server in
            var codes: [FlowError.Code?] = []
            for _ in 0..<5 {
                codes.append(await engine.run(plan, against: server).error?.code)
            }
            #expect(codes == [.httpStatus, .httpStatus, .httpStatus, .circuitOpen, .circuitOpen])
            #expect(server.requests.count == 3)

            // After the break, one probe goes through; its success closes the breaker.
            try await Task.sleep(for: .milliseconds(700))
            #expect(await engine.run(plan, against: server).succeeded)
            #expect(await engine.run(plan, against: server).succeeded)
            #expect(server.requests.count == 5)
        }
    }

    @Test func compensationsReachTheServerInReverseOrder() async throws {
        let plan = try compile("""
            defaults: { server: api }
            steps:
              - id: reserve
                request: { method: POST, path: /reservations }
                outputs: { id: $response.body#/id }
                compensate:
                  request: { method: DELETE, path: "/reservations/{$steps.reserve.outputs.id}" }
              - id: charge
                request: { method: POST, path: /charges, body: { reservation: $steps.reserve.outputs.id } }
                outputs: { id: $response.body#/id }
                compensate: refund
              - id: ship
                request: { method: POST, path: "/shipments/{$steps.charge.outputs.id}" }
              - id: refund
                on-demand: true
                request: { method: POST, path: "/refunds/{$steps.charge.outputs.id}" }
            """)
        let script = FaultScript([
            "/reservations": [.ok(#"{"id":"r1"}"#)],
            "/charges": [.ok(#"{"id":"c1"}"#)],
            "/shipments/c1": [.fail(500, body: #"{"message":"no courier"}"#)],
            "/refunds/c1": [.ok()],
            "/reservations/r1": [.ok()],
        ])
        let (report, server, _) = try await run(plan, answering: script)
        let error = try #require(report.error)
        #expect(error.stepID == "ship")
        #expect(error.status == 500)
        #expect(report.outputs.isEmpty)
        #expect(server.calls == [
            "POST /reservations", "POST /charges", "POST /shipments/c1", "POST /refunds/c1",
            "DELETE /reservations/r1",
        ])
        let times = server.requests.map(\.receivedAt)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(report.steps.map(\.id) == ["reserve", "charge", "ship", "refund", "reserve/compensate"])
        #expect(report.steps.map(\.status) == [.succeeded, .succeeded, .failed, .succeeded, .succeeded])
    }
}
