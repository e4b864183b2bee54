import FlowCore
import Foundation
import Logging
import Synchronization
import Testing

// The code of docs/embedding.md, kept compiling and working: change both together.

/// Answers every request from a dictionary of canned bodies, by step.
private struct CannedDispatcher: Dispatcher {
    let bodies: [String: String]

    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        guard let body = bodies[context.stepID] else {
            throw FlowError(.transport, "no canned answer for step '\(context.stepID)'")
        }
        return StepResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }
}

/// Sends the tenant a workflow names in `with: { tenant: … }` as `X-Tenant`.
struct TenantHeader: Interceptor {
    let tenant: String

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        var request = request
        request.headers.set("X-Tenant", tenant)
        let response = try await next(request, context)
        context.logger.debug("tenant call answered", metadata: ["status": "\(response.status)"])
        return response
    }
}

/// The guide's registration of ``TenantHeader``.
private func guideInterceptors() -> InterceptorRegistry {
    var interceptors = InterceptorRegistry()
    interceptors.register("tenant") { setup in
        guard let tenant = setup["tenant"]?.stringValue else {
            throw FlowError(.invalidValue, "the 'tenant' interceptor needs 'with: { tenant: <a string> }'")
        }
        return TenantHeader(tenant: tenant)
    }
    return interceptors
}

/// Sends the session that a login or refresh step keeps in var `session` as `X-Session`.
private struct SessionHeader: Interceptor {
    let setup: InterceptorSetup

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        guard let session = setup.variable("session")?.stringValue else {
            throw FlowError(.interceptor, "interceptor '\(setup.name)': var 'session' holds no session")
        }
        setup.registerSecret(.string(session))   // redacted from here on
        var request = request
        request.headers.set("X-Session", session)
        return try await next(request, context)
    }
}

/// Test-only: the headers of each request as the interceptors before the recorder left them.
private final class HeaderLog: Sendable {
    let fields = Mutex<[HeaderFields]>([])
}

/// Test-only: records the headers of each request in a ``HeaderLog``.
private struct HeaderRecorder: Interceptor {
    let seen: HeaderLog

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        seen.fields.withLock { $0.append(request.headers) }
        return try await next(request, context)
    }
}

@Suite struct EmbeddingGuideTests {
    static let workflow = """
        flowrun: 1
        inputs: { type: object, required: [tenant], properties: { tenant: { type: string } } }
        servers: { shop: { url: "https://shop.example" } }
        types:
          Order: { type: object, required: [id, total], properties: { id: { type: string }, total: { type: number } } }
        interceptors:
          tenant: { use: tenant, with: { tenant: $inputs.tenant } }
          record: { use: record }
        defaults: { server: shop, interceptors: [tenant, record] }
        steps:
          - id: order
            request: { method: GET, path: /orders/latest }
            response: { 200: Order }
            outputs: { id: $response.body#/id, total: $response.body#/total }
        outputs:
          id: $steps.order.outputs.id
          total: $steps.order.outputs.total
        """

    /// The guide's engine, plus a recorder of the headers the dispatcher receives.
    private func engine(bodies: [String: String], seen: HeaderLog = HeaderLog()) -> Engine<ContinuousClock> {
        var interceptors = guideInterceptors()
        let recorder = HeaderRecorder(seen: seen)
        interceptors.register("record") { _ in recorder }
        var engine = Engine(
            dispatchers: DispatcherRegistry(["canned": CannedDispatcher(bodies: bodies)]),
            interceptors: interceptors, logger: Logger(label: "guide"))
        engine.dispatcherOverride = "canned"
        return engine
    }

    func plan() throws -> Plan {
        let result = WorkflowCompiler().check(yaml: Self.workflow, path: "orders.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return try #require(result.plan)
    }

    /// "Compile a workflow": `print(diagnostic)` prints what `flowrun lint` prints first, its code in brackets.
    @Test func aPrintedDiagnosticEndsWithItsCode() throws {
        let yaml = Self.workflow.replacingOccurrences(of: "response: { 200: Order }", with: "response: { 200: Ordr }")
        let result = WorkflowCompiler().check(yaml: yaml, path: "workflows/orders.yaml")
        #expect(result.plan == nil)
        #expect(result.diagnostics.filter { $0.severity == .error }.map { "\($0)" } == [
            "workflows/orders.yaml:13:22: error: unknown type 'Ordr'; did you mean 'Order'? [unknown-reference]"
        ])
    }

    @Test func theGuidesInterceptorSetsItsHeaderAndTheOutputsPrintAsJSON() async throws {
        let seen = HeaderLog()
        let engine = engine(bodies: ["order": #"{"id": "o-7", "total": 10.5}"#], seen: seen)
        let report = await engine.run(try plan(), inputs: ["tenant": "acme"], environment: [:])

        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(seen.fields.withLock { $0.map { $0["X-Tenant"] } } == ["acme"])
        #expect(JSONValue.object(report.outputs).serialized(pretty: true) == """
            {
              "id": "o-7",
              "total": 10.5
            }
            """)
        #expect("\(report.outputs["total"]!)" == "10.5")
        let step = try #require(report.steps.first)
        #expect(step.status == StepReport.Status.succeeded)
        #expect(step.attempts.map { "\($0.method) \($0.url) → \($0.status.map { "\($0)" } ?? "-")" }
            == ["GET https://shop.example/orders/latest → 200"])
    }

    @Test func aRejectedArgumentFailsTheAttemptAsAnInterceptorError() async throws {
        let yaml = Self.workflow.replacingOccurrences(of: "with: { tenant: $inputs.tenant }", with: "with: { tenant: 7 }")
        let plan = try WorkflowCompiler().compile(yaml: yaml, path: "orders.yaml")
        let report = await engine(bodies: ["order": "{}"]).run(plan, inputs: ["tenant": "acme"], environment: [:])

        let error = try #require(report.error)
        #expect(error.code == .interceptor)
        #expect(error.stepID == "order")
        #expect(error.message.contains("the 'tenant' interceptor needs 'with: { tenant: <a string> }'"))
    }

    /// The factory's `FlowError` is quoted by its message: its description would add a second `error:`.
    @Test func aRejectedArgumentReadsAsOneError() async throws {
        let yaml = Self.workflow.replacingOccurrences(of: "with: { tenant: $inputs.tenant }", with: "with: { tenant: 7 }")
        let plan = try WorkflowCompiler().compile(yaml: yaml, path: "orders.yaml")
        let report = await engine(bodies: ["order": "{}"]).run(plan, inputs: ["tenant": "acme"], environment: [:])

        let error = try #require(report.error)
        #expect(error.message == "interceptor 'tenant' rejected its arguments: the 'tenant' interceptor needs "
            + "'with: { tenant: <a string> }'")
        #expect("\(error)".hasSuffix("error: step 'order', attempt 1: \(error.message)"), "\(error)")
        #expect("\(error)".components(separatedBy: "error:").count == 2, "\(error)")
    }

    @Test func theGuidesParserReadsTheExportForItsStep() async throws {
        let yaml = """
            flowrun: 1
            servers: { shop: { url: "https://shop.example" } }
            defaults: { server: shop }
            steps:
              - id: export
                request: { method: GET, path: /export.csv }
                response:
                  200: { type: array, items: { type: array, items: { type: string } } }
                  parse: { use: csv }
                outputs: { header: $response.body#/0 }
            outputs: { header: $steps.export.outputs.header }
            """
        struct CSVExport: Dispatcher {
            func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
                StepResponse(status: 200, headers: ["Content-Type": "text/csv"], body: Array("id,total\no-7,10.5\n".utf8))
            }
        }
        var engine = Engine(dispatchers: DispatcherRegistry(["http": CSVExport()]), logger: Logger(label: "guide"))
        engine.parsers.register(CSVParser(), as: "csv")
        let report = await engine.run(try WorkflowCompiler().compile(yaml: yaml, path: "export.yaml"), inputs: [:], environment: [:])
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["header"] == .array(["id", "total"]))
    }

    @Test func theGuidesSessionInterceptorSendsTheVarAndRedactsIt() async throws {
        let yaml = """
            flowrun: 1
            servers: { shop: { url: "https://shop.example" } }
            interceptors:
              session: { use: session }
              record: { use: record }
            defaults: { server: shop }
            steps:
              - id: login
                request: { method: POST, path: /login }
                set: { session: $response.body#/session }
              - id: me
                after: [login]
                interceptors: [session, record]
                request: { method: GET, path: /me }
                outputs: { greeting: $response.body#/greeting }
            vars: { session: "" }
            outputs: { greeting: $steps.me.outputs.greeting }
            """
        let seen = HeaderLog()
        var guide = engine(
            bodies: ["login": #"{"session": "s-4821-7730"}"#, "me": #"{"greeting": "hello s-4821-7730"}"#], seen: seen)
        guide.interceptors.register("session") { setup in SessionHeader(setup: setup) }
        let report = await guide.run(
            try WorkflowCompiler().compile(yaml: yaml, path: "session.yaml"), inputs: [:], environment: [:])

        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(seen.fields.withLock { $0.map { $0["X-Session"] } } == ["s-4821-7730"])
        #expect(report.outputs["greeting"] == "hello ***")
    }

    @Test func aDispatcherWithoutAnAnswerFailsTheRunWithItsTransportError() async throws {
        let report = await engine(bodies: [:]).run(try plan(), inputs: ["tenant": "acme"], environment: [:])

        let error = try #require(report.error)
        #expect(error.code == .transport)
        #expect(error.stepID == "order")
        #expect("\(error)".contains("step 'order', attempt 1: no canned answer for step 'order'"))
        #expect(report.outputs.isEmpty)
    }
}
