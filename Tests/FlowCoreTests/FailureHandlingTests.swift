import Foundation
import Synchronization
import Testing
@testable import FlowCore
import FlowTestServer
import FlowTesting

struct FailureHandlingTests {
    @Test func stepOnErrorRulesComeBeforeTheWorkflowsCatch() async throws {
        let workflow = apiServerByDefault + """
            steps:
              - id: list
                request: { method: GET, path: /list }
                outputs: { items: $response.body }
                on-error:
                  - when: { status: 404 }
                    fallback: { items: [local] }
            catch:
              - when: { step: list }
                fallback: { items: [central] }
            outputs: { items: $steps.list.outputs.items }
            """
        let report = try await run(workflow, on: ScriptedDispatcher { _, _ in json(404, "{}") })
        #expect(report.outputs == ["items": ["local"]])
        let central = try await run(workflow, on: ScriptedDispatcher { _, _ in json(500, "{}") })
        #expect(central.outputs == ["items": ["central"]])
    }

    @Test func aFallbackReadsTheFailedResponse() async throws {
        /// A step whose outputs, and the fallback for them, are `reads`.
        func workflow(_ reads: String) -> String {
            apiServerByDefault + """
                types:
                  ApiError: { type: object, properties: { code: { type: string } } }
                steps:
                  - id: item
                    request: { method: GET, path: /item }
                    response: { 200: { type: object }, 500: ApiError }
                    outputs: { \(reads) }
                catch:
                  - when: { step: item }
                    fallback: { \(reads) }
                """
        }
        let failed = try await run(
            workflow("code: $response.body#/code, status: $statusCode"),
            on: ScriptedDispatcher { _, _ in json(500, #"{"code":"db_down"}"#) })
        #expect(failed.steps.first?.outputs == ["code": "db_down", "status": 500])
        // A body that is not JSON is a decode failure with a response: the fallback reads it as text.
        let broken = try await run(
            workflow("raw: $response.body, status: $statusCode"),
            on: ScriptedDispatcher { _, _ in json(200, #"{"code":"#) })
        #expect(broken.steps.first?.error?.code == .decode)
        #expect(broken.steps.first?.outputs == ["raw": #"{"code":"#, "status": 200])
    }

    @Test func urlReadsTheURLOfTheRequestTheStepSent() async throws {
        let workflow = apiServerByDefault + """
            inputs: { type: object, properties: { q: { type: string } } }
            steps:
              - id: search
                request: { method: GET, path: /search, query: { q: $inputs.q, page: 2, api_key: k-1 } }
                outputs: { url: $url, text: "sent to {$url}" }
                on-error:
                  - fallback: { url: $url, text: failed }
            outputs: { url: $steps.search.outputs.url, text: $steps.search.outputs.text }
            """
        let report = try await run(workflow, on: ScriptedDispatcher { _, _ in json(200, "{}") }, inputs: ["q": "a b"])
        // A credential in the query reads as reports show it.
        let sent = "https://api.test/search?q=a%20b&page=2&api_key=***"
        #expect(report.outputs == ["url": .string(sent), "text": .string("sent to " + sent)])
        // A fallback reads the URL of the request that failed.
        let failed = try await run(workflow, on: ScriptedDispatcher { _, _ in json(503, "{}") }, inputs: ["q": "x"])
        #expect(failed.outputs == ["url": "https://api.test/search?q=x&page=2&api_key=***", "text": "failed"])
    }

    @Test func urlIsAnErrorWhereNoRequestWasSent() {
        let errors = diagnostics(apiServerByDefault + """
            steps:
              - id: a
                request: { method: GET, path: /a, headers: { X-From: $url } }
            """).filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.invalidExpression])
        #expect(errors.first?.message.contains("$response, $statusCode and $url belong in") == true)
        #expect(errors.first?.location?.line == 6)
    }

    @Test func gotoRerunsTheTargetAtMostMaxVisitsTimes() async throws {
        let workflow = apiServerByDefault + """
            steps:
              - id: token
                request: { method: POST, path: /token }
                outputs: { value: $response.body#/t }
              - id: use
                request: { method: GET, path: "/use/{$steps.token.outputs.value}" }
            catch:
              - when: { step: use, status: 409 }
                goto: token
                maxVisits: 2
            """
        let dispatcher = ScriptedDispatcher { request, index in
            request.path == "/token" ? json(200, #"{"t":"t\#(index)"}"#) : json(409, "{}")
        }
        let report = try await run(workflow, on: dispatcher)
        #expect(report.error?.code == .httpStatus)
        #expect(report.error?.message.contains("already ran it 2 times") == true)
        #expect(dispatcher.requests.map(\.path) == ["/token", "/use/t0", "/token", "/use/t2"])
    }

    @Test func aWorkflowDeadlineCancelsRunningSteps() async throws {
        let workflow = apiServerByDefault + """
            deadline: 100ms
            steps:
              - id: slow
                request: { method: GET, path: /slow }
              - id: after
                request: { method: GET, path: /after }
                after: [slow]
            """
        let dispatcher = ScriptedDispatcher.hanging()
        let report = try await run(workflow, on: dispatcher)
        #expect(report.error?.code == .totalTimeout)
        #expect(report.error?.message == "the run did not finish within its deadline of 100ms")
        #expect(report.steps.map(\.id).sorted() == ["after", "slow"])
        // The step the deadline cut short says so, rather than "cancelled".
        let slow = try #require(report.steps.first { $0.id == "slow" })
        #expect(slow.status == .failed)
        #expect(slow.error?.code == .totalTimeout)
        #expect(slow.error?.message == "the run did not finish within its deadline of 100ms")
        #expect(slow.error?.stepID == "slow")
        #expect(slow.attempts.last?.error?.code == .totalTimeout)
        #expect(report.steps.first { $0.id == "after" }?.status == .skipped)
        #expect(dispatcher.requests.count == 1)
    }

    @Test func theAttemptATotalTimeoutCutsShortReportsTheTimeout() async throws {
        let workflow = apiServer + """
            policies: { bounded: { timeout: { total: 100ms } } }
            defaults: { server: api, policy: bounded }
            steps:
              - id: slow
                request: { method: GET, path: /slow }
            """
        let report = try await run(workflow, on: ScriptedDispatcher.hanging())
        let attempt = try #require(report.steps.first?.attempts.last)
        #expect(attempt.error?.code == .totalTimeout)
        #expect(attempt.error?.message == "the step did not finish within its total timeout of 100ms")
        #expect(report.error?.request == "GET https://api.test/slow")
    }

    /// An order saga: `reserve` (compensated by an inline request) and `charge` (by the on-demand step `refund`),
    /// then `ship`.
    static let saga = apiServerByDefault + """
        steps:
          - id: reserve
            request: { method: POST, path: /reservations }
            outputs: { id: $response.body#/id }
            compensate:
              request: { method: DELETE, path: "/reservations/{$steps.reserve.outputs.id}" }
          - id: charge
            request: { method: POST, path: "/charges/{$steps.reserve.outputs.id}" }
            outputs: { id: $response.body#/id }
            compensate: refund
          - id: ship
            request: { method: POST, path: "/shipments/{$steps.charge.outputs.id}" }
          - id: refund
            on-demand: true
            request: { method: POST, path: "/refunds/{$steps.charge.outputs.id}" }
        """

    /// The saga's server: the shipment and the refund answer these statuses, by default failures.
    static func sagaServer(shipment: Int = 503, refund: Int = 500) -> ScriptedDispatcher {
        ScriptedDispatcher { request, _ in
            switch request.path {
            case "/reservations": json(201, #"{"id":"r1"}"#)
            case "/charges/r1": json(201, #"{"id":"c1"}"#)
            case "/refunds/c1": json(refund, #"{"message":"refund service down"}"#)
            case "/reservations/r1": json(204, "")
            default: json(shipment, "{}")
            }
        }
    }

    @Test func compensationsUndoSucceededStepsInReverseAndReportTheirOwnFailures() async throws {
        let workflow = Self.saga
        let dispatcher = Self.sagaServer()
        let report = try await run(workflow, on: dispatcher)
        #expect(dispatcher.calls == [
            "POST /reservations", "POST /charges/r1", "POST /shipments/c1", "POST /refunds/c1",
            "DELETE /reservations/r1",
        ])
        let error = try #require(report.error)
        #expect(error.stepID == "ship")
        #expect(error.message.contains("compensation 'refund' of step 'charge' failed too"))
        #expect(report.steps.map(\.id) == ["reserve", "charge", "ship", "refund", "reserve/compensate"])
        #expect(report.steps.map(\.status) == [.succeeded, .succeeded, .failed, .failed, .succeeded])
    }

    @Test func aSiblingThatSucceedsAfterTheRunFailedIsReportedAndCompensated() async throws {
        let workflow = apiServerByDefault + """
            steps:
              - id: book
                request: { method: POST, path: /bookings }
                compensate:
                  request: { method: DELETE, path: /bookings/b1 }
              - id: pay
                request: { method: POST, path: /payments }
            """
        let dispatcher = ScriptedDispatcher { request, _ in
            switch request.path {
            case "/bookings":
                // The booking completes although the run cancels it: its answer was already on its way.
                try? await Task.sleep(for: .seconds(5))
                return json(201, "{}")
            case "/payments": return json(500, "{}")
            default: return json(204, "")
            }
        }
        let report = try await run(workflow, on: dispatcher)
        #expect(report.error?.stepID == "pay")
        #expect(dispatcher.calls.sorted() == [
            "DELETE /bookings/b1", "POST /bookings", "POST /payments",
        ])
        #expect(report.steps.map(\.id) == ["pay", "book", "book/compensate"])
        #expect(report.steps.map(\.status) == [.failed, .succeeded, .succeeded])
    }

    @Test func aRunWhoseWorkflowOutputCannotBeProducedIsCompensatedAfterItsLastStep() async throws {
        let dispatcher = Self.sagaServer(shipment: 201, refund: 201)
        let report = try await run(Self.saga + "\noutputs: { code: $steps.charge.outputs.id#/code }", on: dispatcher)
        let error = try #require(report.error)
        #expect(error.message.hasPrefix("cannot produce workflow output 'code': "), "\(error.message)")
        #expect(error.location?.line != nil)
        #expect(dispatcher.calls == [
            "POST /reservations", "POST /charges/r1", "POST /shipments/c1", "POST /refunds/c1",
            "DELETE /reservations/r1",
        ])
        #expect(report.steps.map(\.id) == ["reserve", "charge", "ship", "refund", "reserve/compensate"])
    }

    @Test func compensationsMayNotReadStepsThatRanLater() {
        let errors = diagnostics(apiServerByDefault + """
            steps:
              - id: reserve
                request: { method: POST, path: /reservations }
                outputs: { id: $response.body#/id }
                compensate:
                  request: { method: DELETE, path: "/reservations/{$steps.charge.outputs.id}" }
              - id: charge
                request: { method: POST, path: "/charges/{$steps.reserve.outputs.id}" }
                outputs: { id: $response.body#/id }
            """).filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("reads step 'charge', which may not have run") == true)
        #expect(errors.first?.location?.line == 9)
    }

    @Test func theCircuitBreakerOpensFailsFastThenLetsOneProbeThrough() async throws {
        let workflow = apiServer + """
            policies:
              guarded:
                circuitBreaker: { failureRatio: 0.5, minimumThroughput: 4, window: 10s, breakDuration: 5s }
            defaults: { server: api, policy: guarded }
            steps:
              - id: call
                request: { method: GET, path: /call }
            """
        let healthy = Mutex(false)
        let dispatcher = ScriptedDispatcher { _, _ in healthy.withLock { $0 } ? json(200, "{}") : json(503, "{}") }
        let clock = ImmediateClock()
        let engine = Engine(http: dispatcher, clock: clock)
        let compiled = try plan(workflow)
        var codes: [FlowError.Code?] = []
        for _ in 0..<6 {
            codes.append(await engine.run(compiled, inputs: [:], environment: [:]).error?.code)
        }
        #expect(codes == [.httpStatus, .httpStatus, .httpStatus, .httpStatus, .circuitOpen, .circuitOpen])
        #expect(dispatcher.requests.count == 4)  // Fail fast: no request while open.

        try await clock.sleep(for: .seconds(5))
        healthy.withLock { $0 = true }
        let probe = await engine.run(compiled, inputs: [:], environment: [:])
        #expect(probe.succeeded)
        #expect(dispatcher.requests.count == 5)
        #expect(await engine.run(compiled, inputs: [:], environment: [:]).succeeded)
    }

    @Test func aFailedProbeOpensTheBreakerAgain() async throws {
        let workflow = apiServer + """
            policies:
              guarded:
                circuitBreaker: { failureRatio: 1, minimumThroughput: 1, window: 10s, breakDuration: 5s }
            defaults: { server: api, policy: guarded }
            steps:
              - id: call
                request: { method: GET, path: /call }
            """
        let dispatcher = ScriptedDispatcher { _, _ in json(503, "{}") }
        let clock = ImmediateClock()
        let engine = Engine(http: dispatcher, clock: clock)
        let compiled = try plan(workflow)
        #expect(await engine.run(compiled, inputs: [:], environment: [:]).error?.code == .httpStatus)
        #expect(await engine.run(compiled, inputs: [:], environment: [:]).error?.code == .circuitOpen)
        try await clock.sleep(for: .seconds(5))
        #expect(await engine.run(compiled, inputs: [:], environment: [:]).error?.code == .httpStatus)
        #expect(await engine.run(compiled, inputs: [:], environment: [:]).error?.code == .circuitOpen)
        #expect(dispatcher.requests.count == 2)
    }

    @Test func aRequestThatCannotBeBuiltIsNoCallForTheBreaker() async throws {
        let head = apiServer + """
            policies:
              guarded:
                circuitBreaker: { failureRatio: 1, minimumThroughput: 2, window: 10s, breakDuration: 5s }
            defaults: { server: api, policy: guarded }

            """
        let call = try plan(head + """
            steps:
              - id: call
                request: { method: GET, path: /call }
            """)
        // A bound value that would make a dot-segment: refused when the request is built.
        let unbuildable = try plan(head + """
            steps:
              - id: broken
                request: { method: GET, path: "/items/{$vars.id}" }
            vars: { id: ".." }
            """)
        let dispatcher = ScriptedDispatcher { _, _ in json(503, "{}") }
        let engine = Engine(http: dispatcher, clock: ImmediateClock())
        #expect(await engine.run(call, inputs: [:], environment: [:]).error?.code == .httpStatus)
        #expect(await engine.run(unbuildable, inputs: [:], environment: [:]).error?.code == .binding)
        #expect(await engine.run(call, inputs: [:], environment: [:]).error?.code == .httpStatus)
        // Both calls that reached the server failed, so the breaker is open; the request that was never
        // sent must not count as a success that keeps it closed (or, half-open, closes it under a probe).
        #expect(await engine.run(call, inputs: [:], environment: [:]).error?.code == .circuitOpen)
        #expect(dispatcher.requests.count == 2)
    }

    @Test func aGeneratedIdempotencyKeyIsTheSameOnEveryAttemptAndAllowsRetryingAPost() async throws {
        let workflow = apiServer + """
            policies: { standard: { retry: [{ attempts: 3, delay: 100ms }] } }
            defaults: { server: api, policy: standard }
            steps:
              - id: pay
                idempotencyKey: true
                request: { method: POST, path: /payments, body: { amount: 5 } }
            """
        let dispatcher = ScriptedDispatcher { _, index in index < 2 ? json(503, "{}") : json(201, "{}") }
        let report = await Engine(http: dispatcher, clock: ImmediateClock())
            .run(try plan(workflow), inputs: [:], environment: [:])
        #expect(report.succeeded)
        let keys = dispatcher.requests.map { $0.headers["Idempotency-Key"] }
        #expect(keys.count == 3)
        #expect(Set(keys).count == 1)
        #expect(keys[0]?.count == 36)
    }

    @Test func noRetryStartsThatWouldEndAfterTheTotalTimeout() async throws {
        let workflow = apiServer + """
            policies:
              standard:
                timeout: { attempt: 1s, total: 2500ms }
                retry: [{ attempts: 3, delay: 1s }]
            defaults: { server: api, policy: standard }
            steps:
              - id: flaky
                request: { method: GET, path: /flaky }
            """
        let clock = VirtualClock()
        let dispatcher = ScriptedDispatcher { _, _ in json(503, "{}") }
        let engine = Engine(http: dispatcher, clock: clock)
        let compiled = try plan(workflow)
        let report = await clock.run { await engine.run(compiled, inputs: [:], environment: [:]) }
        #expect(report.error?.code == .httpStatus)
        // Attempts at 0 s and 1 s; a third would start at 2 s and could end at 3 s, after the 2.5 s total.
        #expect(dispatcher.requests.count == 2)
        #expect(clock.now.offset == .seconds(1))
    }

    @Test func catchRulesCanTestTheFailedResponse() async throws {
        let workflow = apiServerByDefault + """
            types:
              ApiError: { type: object, properties: { code: { type: string } } }
            steps:
              - id: charge
                request: { method: POST, path: /charges }
                response: { default: ApiError }
                outputs: { status: $response.body#/status }
            catch:
              - when: { step: charge, status: 402, if: "$response.body#/code == 'card_declined'" }
                fallback: { status: declined }
            outputs: { status: $steps.charge.outputs.status }
            """
        let declined = try await run(
            workflow, on: ScriptedDispatcher { _, _ in json(402, #"{"code":"card_declined"}"#) })
        #expect(declined.outputs == ["status": "declined"])
        let other = try await run(workflow, on: ScriptedDispatcher { _, _ in json(402, #"{"code":"expired_card"}"#) })
        #expect(other.error?.status == 402)
    }

    @Test(arguments: [
        ("$statusCode = 500", "expected a comparison", 32),
        ("$statusCode == declined", "expected a literal", 35),
        ("statusCode == 500", "starts with a runtime expression", 20),
        ("$response.bdy == 1", "did you mean 'body'", 30),
    ])
    func malformedConditionsAreLocated(condition: String, message: String, column: Int) {
        let error = diagnostics(apiServerByDefault + """
            steps:
              - { id: a, request: { method: GET, path: /a } }
            catch:
              - { when: { if: "\(condition)" }, end: {} }
            """).first { $0.severity == .error }
        #expect(error?.code == .invalidExpression)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.location?.line == 7)
        #expect(error?.location?.column == column)
    }

    @Test func aStepThatGotoRanTwiceIsCompensatedOncePerRunWithThatRunsOutputs() async throws {
        let workflow = apiServerByDefault + """
            steps:
              - id: hold
                request: { method: POST, path: /holds }
                outputs: { id: $response.body#/id }
                compensate:
                  request: { method: DELETE, path: "/holds/{$steps.hold.outputs.id}" }
              - id: use
                request: { method: POST, path: "/use/{$steps.hold.outputs.id}" }
            catch:
              - { when: { step: use, status: 409 }, goto: hold, maxVisits: 2 }
            """
        let dispatcher = ScriptedDispatcher { request, index in
            switch request.method {
            case "POST" where request.path == "/holds": json(201, #"{"id":"h\#(index)"}"#)
            case "DELETE": json(204, "")
            default: json(409, "{}")
            }
        }
        let report = try await run(workflow, on: dispatcher)
        #expect(report.error?.status == 409)
        #expect(report.steps.first { $0.id == "use" && $0.status == .failed } != nil)
        #expect(dispatcher.calls == [
            "POST /holds", "POST /use/h0", "POST /holds", "POST /use/h2", "DELETE /holds/h2", "DELETE /holds/h0",
        ])
    }
}
