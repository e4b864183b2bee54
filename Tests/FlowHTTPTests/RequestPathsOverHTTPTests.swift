import FlowCore
import FlowHTTP
import FlowTestServer
import Logging
import Testing

/// Issue 9 items 2 and 3 over real sockets: the path a server actually receives.
struct RequestPathsOverHTTPTests {
    /// Runs `yaml` against a loopback server that answers `{"next": <next>}` to every request; `$env.API` is its
    /// base URL.
    private func run(_ yaml: String, next: String, inputs: [String: JSONValue] = [:]) async throws
        -> (report: RunReport, uris: [String])
    {
        try await withTestServer({ _ in
            .text(#"{"next": "\#(next)"}"#, headers: [("Content-Type", "application/json")])
        }) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let engine = Engine(
                    dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "paths"))
                let plan = try WorkflowCompiler().compile(yaml: yaml, path: "paths.yaml")
                let report = await engine.run(plan, inputs: inputs, environment: ["API": server.baseURL])
                return (report, server.requests.map(\.uri))
            }
        }
    }

    /// A server's answer cannot turn a later DELETE into one on another resource with `..`.
    @Test func aDotSegmentFromAnEarlierStepNeverReachesTheServer() async throws {
        let yaml = """
            flowrun: 1
            env: { API: {} }
            servers: { api: { url: "{$env.API}" } }
            defaults: { server: api }
            steps:
              - { id: first, request: { method: GET, path: /first }, outputs: { next: $response.body#/next } }
              - { id: remove, request: { method: DELETE, path: "/echo/{$steps.first.outputs.next}/tail" } }
            """
        let refused = try await run(yaml, next: "..")
        #expect(refused.report.error?.code == .binding)
        #expect(refused.report.error?.stepID == "remove")
        #expect(refused.uris == ["/first"])

        let encoded = try await run(yaml, next: "../admin")
        #expect(encoded.report.error == nil)
        #expect(encoded.uris == ["/first", "/echo/..%2Fadmin/tail"])
    }

    /// The documented form `"{$inputs.base}/x"` builds the URL it says, with or without a server.
    @Test func aPathThatStartsWithAnExpressionReachesTheURLItGives() async throws {
        let withoutServer = """
            flowrun: 1
            inputs: { type: object, properties: { base: { type: string } } }
            steps:
              - { id: get, request: { method: GET, path: "{$inputs.base}/x/{$inputs.base}" } }
            """
        let absolute = try await withTestServer({ _ in .text("{}") }) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let engine = Engine(
                    dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "paths"))
                let plan = try WorkflowCompiler().compile(yaml: withoutServer, path: "paths.yaml")
                let report = await engine.run(plan, inputs: ["base": .string(server.baseURL + "/api/v2")], environment: [:])
                return (report, server.requests.map(\.uri), server.baseURL)
            }
        }
        #expect(absolute.0.error == nil, "\(String(describing: absolute.0.error))")
        let encodedBase = URLEncoding.percentEncodePathSegment(absolute.2 + "/api/v2")
        #expect(absolute.1 == ["/api/v2/x/" + encodedBase])

        let relative = try await run(
            """
            flowrun: 1
            env: { API: {} }
            servers: { api: { url: "{$env.API}" } }
            inputs: { type: object, properties: { base: { type: string } } }
            steps:
              - { id: get, server: api, request: { method: GET, path: "{$inputs.base}/x" } }
            """, next: "", inputs: ["base": "/api/v2"])
        #expect(relative.report.error == nil, "\(String(describing: relative.report.error))")
        #expect(relative.uris == ["/api/v2/x"])
    }
}
