@testable import FlowCore
import Testing

/// The request a step sends is built from its lowered form (``LoweredRequest``): what the file fixes is worked
/// out when the plan is made, what the run binds at every attempt. These are the parts only the lowering decides.
struct LoweredRequestTests {
    private func echoDispatcher() -> ScriptedDispatcher {
        ScriptedDispatcher { _, _ in json(200, "{}") }
    }

    @Test func declaredQueryParametersJoinAQueryWrittenInThePathInTheirOrder() async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(apiServerByDefault + """
            inputs: { type: object, properties: { tag: { type: string } } }
            steps:
              - id: list
                request:
                  method: GET
                  path: "/items?all=1"
                  query: { tags: [a, "b c"], skip: null, tag: $inputs.tag, n: 5 }
            """, on: dispatcher, inputs: ["tag": "x&y"])
        #expect(report.error == nil, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.url) == ["https://api.test/items?all=1&tags=a&tags=b%20c&tag=x%26y&n=5"])
    }

    @Test func aValueBoundAfterTheQueryMarkOfThePathIsNotASegmentAndMayBeEmpty() async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(apiServerByDefault + """
            inputs: { type: object, properties: { q: { type: string } } }
            steps:
              - { id: find, request: { method: GET, path: "/search?q={$inputs.q}" } }
            """, on: dispatcher, inputs: ["q": ""])
        #expect(report.error == nil, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.url) == ["https://api.test/search?q="])
    }

    @Test func aServerURLThatBindsAValueIsEvaluatedForEveryRun() async throws {
        let workflow = """
            flowrun: 1
            env:
              BASE: {}
            servers:
              api: { url: "{$env.BASE}/" }
            defaults: { server: api }
            steps:
              - { id: get, request: { method: GET, path: /items/1 } }
            """
        let compiled = try plan(workflow)
        let dispatcher = echoDispatcher()
        let engine = engine(dispatcher)
        let first = await engine.run(compiled, inputs: [:], environment: ["BASE": "https://one.test/v1"])
        let second = await engine.run(compiled, inputs: [:], environment: ["BASE": "http://two.test"])
        let wrong = await engine.run(compiled, inputs: [:], environment: ["BASE": "two.test"])
        #expect(first.error == nil && second.error == nil)
        #expect(dispatcher.requests.map(\.url) == ["https://one.test/v1/items/1", "http://two.test/items/1"])
        #expect(wrong.error?.code == .binding)
        #expect(wrong.error?.message.contains("server 'api' has URL 'two.test', which is not an absolute") == true,
                "\(String(describing: wrong.error?.message))")
    }

    @Test func literalHeadersAreSentInTheirOrderAndANullOneIsLeftOut() async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(apiServerByDefault + """
            inputs: { type: object, properties: { id: { type: string } } }
            steps:
              - id: get
                request:
                  method: GET
                  path: /items
                  headers: { X-First: one, X-Bound: "{$inputs.id}", X-Gone: null, Accept: text/csv }
            """, on: dispatcher, inputs: ["id": "7"])
        #expect(report.error == nil, "\(String(describing: report.error))")
        let headers = try #require(dispatcher.requests.first?.headers)
        #expect(headers.fields.map(\.name) == ["User-Agent", "X-First", "X-Bound", "Accept"])
        #expect(headers["X-Bound"] == "7")
        #expect(headers["Accept"] == "text/csv")
        #expect(headers["X-Gone"] == nil)
    }

    @Test func theLoweringSplitsThePathAtItsLiteralSlashesAndMarksTheSegmentsValuesArePartOf() throws {
        let compiled = try plan(apiServerByDefault + """
            inputs: { type: object, properties: { id: { type: string } } }
            steps:
              - { id: get, request: { method: GET, path: "/items/v{$inputs.id}/raw?x={$inputs.id}" } }
              - { id: fixed, request: { method: GET, path: "/items/all" } }
            """)
        let lowered = try #require(compiled.step("get")).loweredRequest
        #expect(lowered.segments.map(\.isBound) == [false, false, true, false])
        #expect(lowered.tail.count == 2)
        #expect(lowered.pathHasQuery)
        #expect(lowered.fixedPath == nil)
        guard case .fixed("https://api.test") = lowered.base else {
            Issue.record("the server's URL binds nothing, so it is fixed: \(lowered.base)")
            return
        }
        #expect(try #require(compiled.step("fixed")).loweredRequest.fixedPath == "/items/all")
    }
}
