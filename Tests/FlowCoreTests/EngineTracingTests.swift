import FlowTestServer
import InMemoryTracing
import Logging
import Synchronization
import Testing
import Tracing
@testable import FlowCore

private let secret = "s3cret-token-7f2a"

/// A token input marked secret that reaches a URL path, a bearer header and an error body; a
/// retried step; a 401 that runs an on-demand refresh step; and a fallback.
private let traced = """
    flowrun: 1
    name: traced
    inputs:
      type: object
      required: [token]
      properties:
        token: { type: string, format: password }
    servers:
      api: "https://api.test:8443/v1"
    vars:
      token: $inputs.token
    interceptors:
      auth: { bearer: $vars.token }
      key: { apiKey: { query: api_key, value: $inputs.token } }
      refresh: { when: { status: 401 }, run: renew, then: replay }
    policies:
      retrying:
        retry: { when: { status: 503 }, attempts: 3, delay: 5ms }
    defaults:
      server: api
      interceptors: [auth, key, refresh]
    steps:
      - id: user
        request: { method: GET, path: "/users/{$inputs.token}" }
        outputs: { id: $response.body#/id }
      - id: orders
        policy: retrying
        request: { method: PUT, path: "/orders/{$steps.user.outputs.id}", body: { n: 1 } }
        outputs: { count: $response.body#/count }
      - id: extras
        after: [orders]
        request: { method: GET, path: /extras }
        outputs: { list: $response.body#/list }
      - id: renew
        on-demand: true
        interceptors: []
        request: { method: POST, path: /token }
        set: { token: $response.body#/token }
    catch:
      - when: { step: extras }
        fallback: { list: [] }
    outputs:
      count: $steps.orders.outputs.count
      list: $steps.extras.outputs.list
    """

/// The API behind ``traced``: 401 until the token is renewed, one 503 for orders, a 500 quoting the token for extras.
private func tracedDispatcher() -> ScriptedDispatcher {
    let ordersCalls = Atomic(0)
    return ScriptedDispatcher { request, _ in
        let fresh = request.headers["Authorization"] == "Bearer fresh-token"
        switch request.path {
        case "/v1/token":
            return json(200, #"{"token":"fresh-token"}"#)
        case _ where !fresh:
            return json(401, #"{"message":"expired"}"#)
        case "/v1/users/\(secret)":
            return json(200, #"{"id":"u1"}"#)
        case "/v1/orders/u1":
            let call = ordersCalls.add(1, ordering: .relaxed).newValue
            return call == 1 ? json(503, #"{"message":"busy"}"#) : json(200, #"{"count":3}"#)
        default:
            return json(500, #"{"message":"broken for \#(secret)"}"#)
        }
    }
}

/// Runs ``traced`` with an in-memory tracer and returns the finished spans and the requests.
private func tracedRun(
    logger: Logger = Logger(label: "test")
) async throws -> (report: RunReport, spans: [FinishedInMemorySpan], requests: [StepRequest]) {
    let tracer = InMemoryTracer()
    let dispatcher = tracedDispatcher()
    let engine = Engine(
        dispatchers: DispatcherRegistry(["http": dispatcher]), logger: logger, maxConcurrentSteps: 1, tracer: tracer)
    let report = await engine.run(try plan(traced), inputs: ["token": .string(secret)], environment: [:])
    return (report, tracer.finishedSpans, dispatcher.requests)
}

extension FinishedInMemorySpan {
    fileprivate func string(_ name: String) -> String? {
        if case .string(let value) = attributes.get(name) { return value }
        return nil
    }

    fileprivate func int(_ name: String) -> Int64? {
        switch attributes.get(name) {
        case .int64(let value): value
        case .int32(let value): Int64(value)
        default: nil
        }
    }

    /// Every text the span would export: name, attribute values, status message, events and errors.
    fileprivate var allText: [String] {
        var texts = [operationName]
        attributes.forEach { name, value in texts.append("\(name)=\(value)") }
        if let message = status?.message { texts.append(message) }
        for event in events {
            texts.append(event.name)
            event.attributes.forEach { name, value in texts.append("\(name)=\(value)") }
        }
        texts += errors.map { "\($0.error)" }
        return texts
    }
}

struct EngineTracingTests {
    @Test func aRunIsOneSpanWithAChildPerStepAndAGrandchildPerAttempt() async throws {
        let (report, spans, _) = try await tracedRun()
        #expect(report.succeeded, "\(String(describing: report.error))")

        let runs = spans.filter { $0.operationName == "flowrun.run" }
        let run = try #require(runs.first)
        #expect(runs.count == 1)
        #expect(run.parentSpanID == nil)
        #expect(run.string("flowrun.workflow.name") == "traced")
        #expect(run.string("flowrun.workflow.path") == "test.yaml")
        #expect(run.string("flowrun.run.status") == "succeeded")
        #expect(run.string("flowrun.run.id") == report.runID)
        #expect(Set(spans.map(\.traceID)) == [run.traceID])

        let steps = spans.filter { $0.operationName == "flowrun.step" }
        let topLevel = steps.filter { $0.parentSpanID == run.spanID }
        #expect(topLevel.map { $0.string("flowrun.step.id") } == ["user", "orders", "extras"])
        #expect(topLevel.map { $0.string("flowrun.step.status") } == ["succeeded", "succeeded", "failed"])

        // Every attempt span is the child of its step's span.
        func attempts(of step: FinishedInMemorySpan) -> [FinishedInMemorySpan] {
            spans.filter { $0.parentSpanID == step.spanID && $0.operationName.hasPrefix("HTTP ") }
        }
        let orders = try #require(topLevel.first { $0.string("flowrun.step.id") == "orders" })
        let orderAttempts = attempts(of: orders)
        #expect(orderAttempts.map(\.operationName) == ["HTTP PUT", "HTTP PUT"])
        #expect(orderAttempts.map { $0.int("flowrun.attempt") } == [1, 2])
        #expect(orderAttempts.map { $0.int("http.response.status_code") } == [503, 200])
        #expect(orderAttempts.map { $0.string("error.type") } == ["http", nil])
        #expect(orderAttempts.allSatisfy { $0.kind == .client })
        #expect(orderAttempts[0].status?.code == .error)
        #expect(orders.int("flowrun.step.attempts") == 2)
        let retry = try #require(orders.events.first { $0.name == "flowrun.retry" })
        #expect(retry.attributes.get("flowrun.retry.delay_ms") == .int64(5))
    }

    @Test func attemptSpansCarryTheHTTPSemanticConventionAttributes() async throws {
        let (_, spans, _) = try await tracedRun()
        let attempt = try #require(spans.first { $0.operationName == "HTTP PUT" && $0.int("flowrun.attempt") == 2 })
        #expect(attempt.string("http.request.method") == "PUT")
        // The URL as sent: with the query parameter the api-key interceptor added, its value redacted.
        #expect(attempt.string("url.full") == "https://api.test:8443/v1/orders/u1?api_key=***")
        #expect(attempt.string("server.address") == "api.test")
        #expect(attempt.int("server.port") == 8443)
        #expect(attempt.int("http.response.status_code") == 200)
        #expect(attempt.status?.code != .error)
    }

    @Test func theRefreshStepIsAChildOfTheAttemptThatNeededIt() async throws {
        let (_, spans, _) = try await tracedRun()
        let renew = try #require(spans.first { $0.string("flowrun.step.id") == "renew" })
        let parent = try #require(spans.first { $0.spanID == renew.parentSpanID })
        #expect(parent.operationName == "HTTP GET")
        let user = try #require(spans.first { $0.spanID == parent.parentSpanID })
        #expect(user.string("flowrun.step.id") == "user")
        #expect(renew.attributes.get("flowrun.step.refresh") == .bool(true))
    }

    /// docs/failure-handling.md: the refresh step's span names the step it ran for, as its report does.
    @Test func theRefreshStepsSpanNamesTheStepItRanFor() async throws {
        let (report, spans, _) = try await tracedRun()
        let renew = try #require(spans.first { $0.string("flowrun.step.id") == "renew" })
        #expect(renew.string("flowrun.step.refresh_for") == "user")
        #expect(report.steps.first { $0.id == "renew" }?.refreshFor == "user")
        let user = try #require(spans.first { $0.string("flowrun.step.id") == "user" })
        #expect(user.attributes.get("flowrun.step.refresh_for") == nil)
    }

    @Test func aCatchRuleThatRecoversAStepIsAnEventOfTheRunSpan() async throws {
        let (_, spans, _) = try await tracedRun()
        let run = try #require(spans.first { $0.operationName == "flowrun.run" })
        let event = try #require(run.events.first { $0.name == "flowrun.catch" })
        #expect(event.attributes.get("flowrun.step.id") == .string("extras"))
        #expect(event.attributes.get("flowrun.catch.action") == .string("fallback"))
        #expect(event.attributes.get("error.type") == .string("http"))
        let extras = try #require(spans.first { $0.string("flowrun.step.id") == "extras" })
        #expect(extras.string("error.type") == "http")
        #expect(extras.status?.code == .error)
    }

    @Test func everyRequestCarriesTheContextOfItsAttemptSpan() async throws {
        let (_, spans, requests) = try await tracedRun()
        let attemptSpans = spans.filter { $0.operationName.hasPrefix("HTTP ") }
        #expect(requests.count == attemptSpans.count + 1)  // The replay after the refresh is the same attempt.
        for request in requests {
            let spanID = try #require(request.headers[InMemoryTracer.spanIDKey], "\(request.url)")
            let span = try #require(attemptSpans.first { $0.spanID == spanID })
            #expect(request.headers[InMemoryTracer.traceIDKey] == span.traceID)
            #expect(span.string("http.request.method") == request.method)
        }
    }

    @Test func noSecretReachesASpan() async throws {
        let (report, spans, requests) = try await tracedRun()
        // The secret was sent: in a path, and as the api_key query parameter.
        #expect(requests.contains { $0.url.contains(secret) })
        #expect(report.steps.count >= 4)
        let urls = spans.compactMap { $0.string("url.full") }
        #expect(urls.contains("https://api.test:8443/v1/users/***?api_key=***"))
        for span in spans {
            for text in span.allText {
                #expect(!text.contains(secret), "\(span.operationName): \(text)")
            }
        }
    }

    @Test func withoutATracerNoHeaderIsAdded() async throws {
        let dispatcher = tracedDispatcher()
        let engine = Engine(
            dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "test"),
            tracer: NoOpTracer())
        let report = await engine.run(try plan(traced), inputs: ["token": .string(secret)], environment: [:])
        #expect(report.succeeded)
        let names = Set(dispatcher.requests.flatMap { $0.headers.map { $0.name.lowercased() } })
        #expect(names.contains("authorization"))
        #expect(!names.contains { $0 == "traceparent" || $0.hasPrefix("in-memory") })
    }

    /// Issue 9 item 4a: each redirect the dispatcher followed is an event of the attempt's span, redacted.
    @Test func redirectsAreEventsOfTheAttemptSpan() async throws {
        let tracer = InMemoryTracer()
        let dispatcher = ScriptedDispatcher { _, _ in
            var response = json(200, "{}")
            response.redirects = [StepResponse.Redirect(status: 307, url: "https://other.test/b?token=\(secret)")]
            return response
        }
        let engine = Engine(
            dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "t"), tracer: tracer)
        let workflow = """
            flowrun: 1
            servers: { api: https://api.test }
            steps:
              - id: get
                request: { method: GET, path: /a }
                server: api
            """
        let report = await engine.run(try plan(workflow), inputs: [:], environment: [:])
        #expect(report.succeeded)
        let attempt = try #require(tracer.finishedSpans.first { $0.operationName == "HTTP GET" })
        let event = try #require(attempt.events.first { $0.name == "flowrun.redirect" })
        #expect(event.attributes.get("url.full") == .string("https://other.test/b?token=***"))
        #expect(event.attributes.get("http.response.status_code") == .int64(307))
    }

    @Test func debugAndTraceLogsNameTheStepAndAttemptButNoSecret() async throws {
        let capture = CapturedLogs()
        var logger = Logger(label: "test") { _ in capture.handler() }
        logger.logLevel = .trace
        let (report, _, _) = try await tracedRun(logger: logger)
        #expect(report.succeeded)
        let entries = capture.entries
        let finished = entries.filter { $0.message == "attempt finished" }
        #expect(finished.count >= 5)
        #expect(finished.allSatisfy { $0.metadata["step"] != nil && $0.metadata["attempt"] != nil })
        let sending = try #require(entries.first { $0.message == "sending request" })
        #expect(sending.metadata["step"] != nil && sending.metadata["attempt"] != nil)
        #expect(entries.contains { $0.message == "step finished" && $0.metadata["status"] == "succeeded" })
        for entry in entries {
            #expect(!entry.text.contains(secret), "\(entry.text)")
            #expect(entry.metadata["run"] == report.runID, "\(entry.text)")
        }
    }

    @Test func everyRunHasItsOwnRandomID() async throws {
        let (first, _, _) = try await tracedRun()
        let (second, _, _) = try await tracedRun()
        #expect(first.runID != second.runID)
        for id in [first.runID, second.runID] {
            #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(id)")
        }
    }

    @Test(arguments: [
        ("https://api.test/v1", "api.test", 443),
        ("http://api.test:8080/x?y=1", "api.test", 8080),
        ("https://user:pw@api.test:9/x", "api.test", 9),
        ("http://[::1]:8080/x", "::1", 8080),
        ("http://[::1]/x", "::1", 80),
    ])
    func serverAddressAndPortComeFromTheURL(url: String, host: String, port: Int) {
        let server = RunTracer.server(of: url)
        #expect(server?.host == host)
        #expect(server?.port == port)
    }
}
