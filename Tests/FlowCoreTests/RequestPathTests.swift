@testable import FlowCore
import Testing

/// Issue 9 items 2, 3 and 4: what a request path and a header may become once values are bound into them.
struct RequestPathTests {
    private func echoDispatcher() -> ScriptedDispatcher {
        ScriptedDispatcher { _, _ in json(200, "{}") }
    }

    /// A workflow with one DELETE step whose path binds `$inputs.id` as `path`.
    private func deleting(_ path: String) -> String {
        apiServerByDefault + """
            inputs: { type: object, properties: { id: { type: string } } }
            steps:
              - { id: remove, request: { method: DELETE, path: "\(path)" } }
            """
    }

    @Test(arguments: ["..", ".", ""])
    func aBoundValueThatMakesADotOrEmptySegmentIsRefusedAndNothingIsSent(value: String) async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(deleting("/items/{$inputs.id}/tail"), on: dispatcher, inputs: ["id": .string(value)])
        guard case .failed(let error) = report.outcome else {
            Issue.record("the run succeeded: \(dispatcher.calls)")
            return
        }
        #expect(error.code == .binding)
        #expect(error.message.contains("{$inputs.id}"), "\(error.message)")
        #expect(error.message.contains("step 'remove'"), "\(error.message)")
        #expect(error.location?.line == 6)
        #expect(dispatcher.calls.isEmpty)
    }

    @Test func theLastSegmentIsCheckedToo() async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(deleting("/items/{$inputs.id}"), on: dispatcher, inputs: ["id": ".."])
        #expect(report.error?.code == .binding)
        #expect(dispatcher.calls.isEmpty)
    }

    @Test(arguments: [
        ("/items/{$inputs.id}.json", "", "/items/.json"),
        ("/items/{$inputs.id}", "...", "/items/..."),
        ("/items/{$inputs.id}", "a/../b", "/items/a%2F..%2Fb"),
        ("/items/{$inputs.id}?all=1", "x", "/items/x?all=1"),
    ])
    func valuesThatAreNotAWholeDotSegmentAreSentEncoded(path: String, value: String, sent: String) async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(deleting(path), on: dispatcher, inputs: ["id": .string(value)])
        #expect(report.error == nil, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.url) == ["https://api.test\(sent)"])
    }

    @Test(arguments: ["/echo/../tail", "/echo/./tail", "https://api.test/a/../b", "/a/{$inputs.id}/../b"])
    func aPathWrittenWithADotSegmentIsALintError(path: String) {
        let found = diagnostics(deleting(path)).filter { $0.message.contains("dot-segment") }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.severity == .error)
        #expect(found.first?.location?.line == 6)
    }

    /// `%2E` is `.` to a server, which decodes it before it resolves dot-segments: written into the file, an
    /// encoded dot-segment sends the request elsewhere just as a plain one does.
    @Test(arguments: ["/echo/%2e%2E/tail", "/echo/%2E/tail", "/echo/.%2e/tail", "https://api.test/a/%2e/b"])
    func aPathWrittenWithAPercentEncodedDotSegmentIsALintError(path: String) {
        let found = diagnostics(deleting(path)).filter { $0.message.contains("dot-segment") }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.severity == .error)
    }

    @Test(arguments: ["/echo/%2e%2e%2e/tail", "/echo/a%2e/tail", "/echo/%2f/tail", "/echo/.../tail"])
    func aSegmentThatOnlyLooksLikeADotSegmentIsAllowed(path: String) {
        #expect(diagnostics(deleting(path)).filter { $0.message.contains("dot-segment") }.isEmpty)
    }

    @Test func aLeadingExpressionWithAPercentEncodedDotSegmentIsRefused() async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(
            based(server: true), on: dispatcher, inputs: ["base": "/api/%2E%2E/admin", "id": "a"])
        #expect(report.error?.code == .binding)
        #expect(report.error?.message.contains("dot-segment '%2E%2E'") == true, "\(String(describing: report.error))")
        #expect(dispatcher.calls.isEmpty)
    }

    // MARK: A path that starts with an expression (item 3)

    /// A workflow whose step's path starts with `$inputs.base`, with or without a default server.
    private func based(server: Bool) -> String {
        (server ? apiServerByDefault : "flowrun: 1\n") + """
            inputs: { type: object, properties: { base: { type: string }, id: { type: string } } }
            steps:
              - { id: get, request: { method: GET, path: "{$inputs.base}/items/{$inputs.id}" } }
            """
    }

    @Test func aLeadingExpressionNeedsNoServerInLint() {
        #expect(diagnostics(based(server: false)).isEmpty, "\(diagnostics(based(server: false)))")
    }

    @Test(arguments: [
        (false, "https://other.test/v2", "https://other.test/v2/items/a%2Fb"),
        (false, "HTTPS://other.test/v2/", "HTTPS://other.test/v2/items/a%2Fb"),
        (true, "https://other.test", "https://other.test/items/a%2Fb"),
        (true, "/api/v2", "https://api.test/api/v2/items/a%2Fb"),
    ])
    func aLeadingExpressionIsTheStartOfTheURL(server: Bool, base: String, url: String) async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(based(server: server), on: dispatcher, inputs: ["base": .string(base), "id": "a/b"])
        #expect(report.error == nil, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.url) == [url])
    }

    @Test(arguments: [
        (true, "api/v2", "neither an absolute http(s) URL nor a path starting with '/'"),
        (true, "/api?x=1", "query or fragment"),
        (true, "/api/../admin", "dot-segment '..'"),
        (true, "/api v2", "a space (U+0020)"),
        (true, "https:///x", "no host"),
        (false, "/api/v2", "relative path ('/api/v2/items/a') and no server"),
    ])
    func aLeadingExpressionThatCannotStartAURLIsRefused(server: Bool, base: String, message: String) async throws {
        let dispatcher = echoDispatcher()
        let report = try await run(based(server: server), on: dispatcher, inputs: ["base": .string(base), "id": "a"])
        #expect(report.error?.code == .binding)
        #expect(report.error?.message.contains(message) == true, "\(String(describing: report.error?.message))")
        #expect(dispatcher.calls.isEmpty)
    }

    @Test func theSchemeOfAnAbsoluteURLIsMatchedInAnyCase() {
        #expect(RequestPath.isAbsoluteURL("HTTP://x"))
        #expect(RequestPath.isAbsoluteURL("https://x"))
        #expect(!RequestPath.isAbsoluteURL("https:/x"))
        #expect(!RequestPath.isAbsoluteURL("ftp://x"))
        #expect(!RequestPath.isAbsoluteURL("/http://x"))
        #expect(RequestPath.isAbsoluteURL("HtTpS://"))
        #expect(RequestPath.isAbsoluteURL("http://x"[...]))
        let notAbsolute = ["", "http", "http:", "http:/", "https", "httpss://x", "hxtp://x", #"http:\\x"#, "HTTP//x"]
        for text in notAbsolute + ["ht\u{E9}p://x"] {
            #expect(!RequestPath.isAbsoluteURL(text), "\(text)")
        }
    }

    // MARK: Header values (item 4)

    @Test(arguments: [
        ("a\u{0}b", "a NUL byte (U+0000), which no header may carry"),
        ("a\nb", "a line feed (U+000A), which would split the header"),
        ("a\rb", "a carriage return (U+000D), which would split the header"),
    ])
    func aHeaderValueSaysWhichCharacterItFound(value: String, found: String) async throws {
        let dispatcher = echoDispatcher()
        let workflow = apiServerByDefault + """
            inputs: { type: object, properties: { v: { type: string } } }
            steps:
              - { id: get, request: { method: GET, path: /x, headers: { X-Value: $inputs.v } } }
            """
        let report = try await run(workflow, on: dispatcher, inputs: ["v": .string(value)])
        #expect(report.error?.code == .binding)
        #expect(report.error?.message.contains("header X-Value contains \(found)") == true,
                "\(String(describing: report.error?.message))")
        #expect(dispatcher.calls.isEmpty)
    }

    /// Written into the file, the same value is a lint error at the header, not a failure of every run.
    @Test(arguments: [#""a\nb""#, #""Bearer {$inputs.v}\r\n""#])
    func aHeaderWrittenWithALineBreakIsALintError(value: String) {
        let workflow = apiServerByDefault + """
            inputs: { type: object, properties: { v: { type: string } } }
            steps:
              - id: get
                request:
                  method: GET
                  path: /x
                  headers: { X-Value: \(value), X-Fine: "a b" }
            """
        let found = diagnostics(workflow).filter { $0.severity == .error }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .invalidValue)
        #expect(found.first?.message.hasPrefix("the value of header X-Value contains a ") == true,
                "\(String(describing: found.first?.message))")
        #expect(found.first?.location?.line == 10)
        #expect(found.first?.location?.column == 18)
    }

    @Test func anInterceptorsHeaderWrittenWithALineBreakIsALintError() {
        let workflow = apiServerByDefault + """
            interceptors:
              client: { headers: { X-Client: "a\\nb" } }
              key: { apiKey: { header: X-Key, value: "k\\r1" } }
            steps:
              - { id: get, interceptors: [client, key], request: { method: GET, path: /x } }
            """
        let found = diagnostics(workflow).filter { $0.severity == .error }
        #expect(found.map(\.code) == [.invalidValue, .invalidValue], "\(found)")
        #expect(found.first?.message == "the value of header X-Client contains a line feed (U+000A), which would split the header")
        #expect(found.first?.location?.line == 5)
        #expect(found.last?.message.hasPrefix("the value of header X-Key contains a carriage return") == true,
                "\(String(describing: found.last?.message))")
        #expect(found.last?.location?.line == 6)
    }
}
