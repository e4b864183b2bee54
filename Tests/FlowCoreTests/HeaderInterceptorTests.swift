import Testing

@testable import FlowCore

/// docs/workflow-format.md, interceptors: the `headers` kind sets the fields it gives, then removes those listed in
/// `removeHeaders`, so a name in both is not sent; names match whatever their case.
struct HeaderInterceptorTests {
    /// A step sending `X-Debug: step` and `X-Keep: 1`, through interceptor `client` as `declaration` writes it.
    private static func workflow(_ declaration: String) -> String {
        apiServerByDefault + """
            inputs:
              type: object
              properties: { trace: { type: string } }
            interceptors:
              client: \(declaration)
            steps:
              - id: get
                interceptors: [client]
                request: { method: GET, path: /x, headers: { X-Debug: step, X-Keep: "1" } }
            """
    }

    private static func send(_ declaration: String, inputs: [String: JSONValue] = [:]) async throws
        -> (report: RunReport, requests: [StepRequest])
    {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let report = try await run(workflow(declaration), on: dispatcher, inputs: inputs)
        return (report, dispatcher.requests)
    }

    @Test func aNameBothSetAndRemovedIsNotSent() async throws {
        let (report, requests) = try await Self.send(
            "{ headers: { X-Debug: interceptor, X-Trace: $inputs.trace }, removeHeaders: [x-debug] }",
            inputs: ["trace": "t-1"])
        #expect(report.succeeded, "\(String(describing: report.error))")
        let headers = try #require(requests.first).headers
        #expect(headers["X-Debug"] == nil)
        #expect(headers["X-Trace"] == "t-1")
        #expect(headers["X-Keep"] == "1")
    }

    @Test func setReplacesTheStepsValueAndRemoveTakesTheStepsField() async throws {
        let replaced = try await Self.send("{ headers: { x-debug: interceptor } }")
        #expect(replaced.requests.first?.headers["X-Debug"] == "interceptor")
        #expect(replaced.requests.first?.headers.values("X-Debug") == ["interceptor"])

        let removed = try await Self.send("{ removeHeaders: X-KEEP }")
        #expect(removed.requests.first?.headers["X-Keep"] == nil)
        #expect(removed.requests.first?.headers["X-Debug"] == "step")
    }

    @Test func aValueThatWouldSplitTheHeaderFailsTheStepAndSendsNothing() async throws {
        let (report, requests) = try await Self.send(
            "{ headers: { X-Trace: $inputs.trace }, removeHeaders: [X-Debug] }", inputs: ["trace": "a\nb"])
        let error = try #require(report.error)
        #expect(error.code == .binding)
        #expect(error.stepID == "get")
        #expect(error.message.contains("header X-Trace contains a line feed"), "\(error.message)")
        #expect(report.steps.first?.status == .failed)
        #expect(requests.isEmpty)
    }
}
