import FlowCore
import FlowTestServer
import Logging
import Testing

@testable import FlowHTTP

/// A context for step `s`, attempt 1, that logs nothing.
private func context(timeout: Duration? = .seconds(5), attempt: Int = 1) -> StepContext {
    StepContext(
        stepID: "s",
        attempt: attempt,
        attemptTimeout: timeout,
        logger: Logger(label: "FlowHTTPTests") { _ in SwiftLogNoOpLogHandler() }
    )
}

/// A dispatcher on `HTTPClient.shared`.
private let sharedDispatcher = AsyncHTTPClientDispatcher()

@Suite(.timeLimit(.minutes(1)))
struct AsyncHTTPClientDispatcherTests {
    // MARK: What the server receives

    @Test func jsonRequestReachesTheServerAsBuilt() async throws {
        let json = Array(#"{"name":"café","tags":["a","b"],"n":1.5}"#.utf8)
        try await withTestServer { server in
            let request = StepRequest(
                method: "POST",
                url: server.baseURL + "/items/a%2Fb/caf%C3%A9?q=1%262&tag=x&tag=y",
                headers: [
                    "Content-Type": "application/json",
                    "Accept": "application/json",
                    "X-Request-ID": "r-1",
                    "X-Multi": "one",
                ],
                body: json
            )
            var withRepeat = request
            withRepeat.headers.add("X-Multi", "two")
            _ = try await sharedDispatcher.dispatch(withRepeat, context: context())

            let received = try #require(server.requests.first)
            #expect(server.requests.count == 1)
            #expect(received.method == "POST")
            #expect(received.uri == "/items/a%2Fb/caf%C3%A9?q=1%262&tag=x&tag=y")
            #expect(received.values("content-type") == ["application/json"])
            #expect(received.values("accept") == ["application/json"])
            #expect(received.values("x-request-id") == ["r-1"])
            #expect(received.values("x-multi") == ["one", "two"])
            #expect(received.values("content-length") == ["\(json.count)"])
            #expect(received.body == json)
        }
    }

    @Test func formBodyIsSentByteForByte() async throws {
        let form = Array("grant_type=client_credentials&scope=read+write&redirect=%2Fhome%3Fa%3D1".utf8)
        try await withTestServer { server in
            let request = StepRequest(
                method: "POST",
                url: server.baseURL + "/oauth/token",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: form
            )
            _ = try await sharedDispatcher.dispatch(request, context: context())

            let received = try #require(server.requests.first)
            #expect(received.uri == "/oauth/token")
            #expect(received.values("content-type") == ["application/x-www-form-urlencoded"])
            #expect(received.body == form)
        }
    }

    @Test(arguments: ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"])
    func methodIsSentAsGiven(method: String) async throws {
        try await withTestServer { server in
            let body: [UInt8]? = method == "PUT" || method == "PATCH" ? Array("{}".utf8) : nil
            let request = StepRequest(method: method, url: server.baseURL + "/things/1", body: body)
            _ = try await sharedDispatcher.dispatch(request, context: context())

            let received = try #require(server.requests.first)
            #expect(received.method == method)
            #expect(received.uri == "/things/1")
            #expect(received.body == (body ?? []))
        }
    }

    // MARK: What the dispatcher returns

    @Test func responseIsMappedWithStatusHeadersAndBody() async throws {
        let replyHeaders = [
            ("Content-Type", "application/json"), ("Set-Cookie", "a=1"), ("X-Rate-Limit", "10"), ("Set-Cookie", "b=2"),
        ]
        try await withTestServer({ _ in .text(#"{"id":42}"#, status: 201, headers: replyHeaders) }) { server in
            let response = try await sharedDispatcher.dispatch(
                StepRequest(method: "POST", url: server.baseURL + "/items", body: []),
                context: context()
            )
            #expect(response.status == 201)
            #expect(response.body == Array(#"{"id":42}"#.utf8))
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["X-Rate-Limit"] == "10")
            #expect(response.headers.values("Set-Cookie") == ["a=1", "b=2"])
            #expect(response.headers["Content-Length"] == "9")
        }
    }

    @Test(arguments: [301, 400, 401, 404, 429, 500, 503])
    func errorStatusIsReturnedNotThrown(status: Int) async throws {
        let reply = TestReply.text(#"{"error":"nope"}"#, status: status)
        try await withTestServer({ _ in reply }) { server in
            // A 3xx without Location is an answer like any other.
            let response = try await sharedDispatcher.dispatch(
                StepRequest(method: "GET", url: server.baseURL + "/x"),
                context: context()
            )
            #expect(response.status == status)
            #expect(response.body == Array(#"{"error":"nope"}"#.utf8))
        }
    }

    @Test(arguments: [true, false])
    func bodyAtTheLimitIsAccepted(declaresLength: Bool) async throws {
        let reply = TestReply(body: Array(repeating: UInt8(ascii: "x"), count: 1000), declaresLength: declaresLength)
        try await withTestServer({ _ in reply }) { server in
            let dispatcher = AsyncHTTPClientDispatcher(configuration: .init(maxResponseBodySize: 1000))
            let response = try await dispatcher.dispatch(
                StepRequest(method: "GET", url: server.baseURL + "/big"),
                context: context()
            )
            #expect(response.body.count == 1000)
        }
    }

    // MARK: Failures with no complete answer

    @Test(arguments: [true, false])
    func bodyOverTheLimitIsATransportError(declaresLength: Bool) async throws {
        let reply = TestReply(body: Array(repeating: UInt8(ascii: "x"), count: 5000), declaresLength: declaresLength)
        try await withTestServer({ _ in reply }) { server in
            let dispatcher = AsyncHTTPClientDispatcher(configuration: .init(maxResponseBodySize: 1000))
            let error = await #expect(throws: FlowError.self) {
                try await dispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/big"),
                    context: context(attempt: 2)
                )
            }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("larger than 1000 bytes") == true, "\(String(describing: error))")
            #expect(error?.status == 200)
            #expect(error?.stepID == "s")
            #expect(error?.attempt == 2)
            #expect(error?.request == "GET \(server.baseURL)/big")
        }
    }

    @Test func slowServerTimesOutWithinTheAttemptTimeout() async throws {
        try await withTestServer({ _ in TestReply(delay: .seconds(10)) }) { server in
            let error = await #expect(throws: FlowError.self) {
                try await sharedDispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/slow"),
                    context: context(timeout: .milliseconds(300))
                )
            }
            #expect(error?.code == .attemptTimeout)
            #expect(error?.message == "no response within 300ms")
            #expect(error?.status == nil)
            #expect(server.requests.count == 1)
        }
    }

    @Test func defaultTimeoutAppliesWhenTheStepSetsNone() async throws {
        try await withTestServer({ _ in TestReply(delay: .seconds(10)) }) { server in
            let dispatcher = AsyncHTTPClientDispatcher(configuration: .init(defaultTimeout: .milliseconds(300)))
            let error = await #expect(throws: FlowError.self) {
                try await dispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/slow"),
                    context: context(timeout: nil)
                )
            }
            #expect(error?.code == .attemptTimeout)
            #expect(error?.message == "no response within 300ms")
        }
    }

    @Test func stalledBodyTimesOutWithinTheAttemptTimeout() async throws {
        let reply = TestReply(body: Array(repeating: 0x41, count: 100), ending: .truncateAndStall(afterBytes: 10))
        try await withTestServer({ _ in reply }) { server in
            let error = await #expect(throws: FlowError.self) {
                try await sharedDispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/trickle"),
                    context: context(timeout: .milliseconds(500))
                )
            }
            #expect(error?.code == .attemptTimeout)
            // The head arrived: the message says the body, not the response, was late (issue 9, item 9).
            #expect(error?.message == "the response started, but its body did not finish arriving within 500ms "
                + "(the attempt timeout)")
            #expect(error?.status == 200)
        }
    }

    @Test func connectionClosedWithoutAnswerIsATransportError() async throws {
        try await withTestServer({ _ in .closeWithoutAnswer }) { server in
            let error = await #expect(throws: FlowError.self) {
                try await sharedDispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/hangup"),
                    context: context()
                )
            }
            #expect(error?.code == .transport)
            #expect(error?.message == "127.0.0.1:\(server.port) closed the connection without answering")
            #expect(error?.underlyingError != nil)
        }
    }

    @Test func truncatedBodyIsATransportError() async throws {
        let reply = TestReply(body: Array(repeating: 0x41, count: 100), ending: .truncateAndClose(afterBytes: 10))
        try await withTestServer({ _ in reply }) { server in
            let error = await #expect(throws: FlowError.self) {
                try await sharedDispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/cut"),
                    context: context()
                )
            }
            #expect(error?.code == .transport)
            #expect(error?.status == 200)
            #expect(
                error?.message.contains("before the whole response body arrived") == true,
                "\(String(describing: error))")
        }
    }

    @Test func refusedConnectionNamesTheHostAndPort() async throws {
        try await withRefusingPort { port in
            let request = StepRequest(method: "GET", url: "http://127.0.0.1:\(port)/items?api_key=K&page=2")
            let error = await #expect(throws: FlowError.self) {
                try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                    try await dispatcher.dispatch(request, context: context())
                }
            }
            #expect(error?.code == .transport)
            #expect(error?.message == "connection refused by 127.0.0.1:\(port)")
            #expect(error?.request == "GET http://127.0.0.1:\(port)/items?api_key=***&page=2")
            #expect(error?.underlyingError != nil)
        }
    }

    @Test func refusedConnectionOnTheSharedClientIsReportedAtTheDeadline() async throws {
        // The shared client retries refused connections until the deadline, then reports the
        // refusal rather than a timeout.
        try await withRefusingPort { port in
            let error = await #expect(throws: FlowError.self) {
                try await sharedDispatcher.dispatch(
                    StepRequest(method: "GET", url: "http://127.0.0.1:\(port)/"),
                    context: context(timeout: .milliseconds(500))
                )
            }
            #expect(error?.code == .transport)
            #expect(error?.message == "connection refused by 127.0.0.1:\(port)")
        }
    }

    @Test func tlsToAPlainServerFailsTheHandshake() async throws {
        try await withTestServer { server in
            let error = await #expect(throws: FlowError.self) {
                try await AsyncHTTPClientDispatcher.withDispatcher(insecure: true) { dispatcher in
                    try await dispatcher.dispatch(
                        StepRequest(method: "GET", url: "https://127.0.0.1:\(server.port)/"),
                        context: context()
                    )
                }
            }
            #expect(error?.code == .transport)
            #expect(
                error?.message.hasPrefix("TLS handshake with 127.0.0.1:\(server.port) failed: ") == true,
                "\(String(describing: error))"
            )
        }
    }

    // MARK: Requests refused before sending

    @Test(arguments: ["a\r\nX-Injected: 1", "line\nbreak", "carriage\rreturn", "nul\u{0}byte", "bell\u{7}"])
    func unsafeHeaderValueIsRefusedBeforeSending(value: String) async throws {
        try await withTestServer { server in
            let request = StepRequest(
                method: "GET",
                url: server.baseURL + "/x",
                headers: ["Accept": "*/*", "X-Api-Token": value]
            )
            let error = await #expect(throws: FlowError.self) {
                try await sharedDispatcher.dispatch(request, context: context())
            }
            #expect(error?.code == .binding)
            #expect(error?.message.contains("'X-Api-Token'") == true)
            #expect(error?.message.contains(value) == false)
            #expect(error?.stepID == "s")
            #expect(error?.request == "GET \(server.baseURL)/x")
            #expect(server.connectionCount == 0)
            #expect(server.requests.isEmpty)
        }
    }

    @Test(arguments: ["Bad Name", "X:Y", "", "X\r\nY", "Ünicode"])
    func invalidHeaderNameIsRefusedBeforeSending(name: String) async throws {
        try await withTestServer { server in
            let request = StepRequest(
                method: "GET",
                url: server.baseURL + "/x",
                headers: HeaderFields([.init(name: name, value: "v")])
            )
            let error = await #expect(throws: FlowError.self) {
                try await sharedDispatcher.dispatch(request, context: context())
            }
            #expect(error?.code == .binding)
            #expect(error?.message.contains("header name") == true)
            #expect(error?.message.contains("\r") == false)
            #expect(server.connectionCount == 0)
        }
    }

    @Test func urlOtherThanHTTPIsRefused() async throws {
        let error = await #expect(throws: FlowError.self) {
            try await sharedDispatcher.dispatch(
                StepRequest(method: "GET", url: "ftp://127.0.0.1/file"), context: context())
        }
        #expect(error?.code == .unsupported)

        let relative = await #expect(throws: FlowError.self) {
            try await sharedDispatcher.dispatch(StepRequest(method: "GET", url: "/items"), context: context())
        }
        #expect(relative?.code == .invalidValue)
    }

    // MARK: Redirects, pooling, cancellation

    /// Answers `/hop/N` with a redirect to `/hop/N-1`, and `/hop/0` with `arrived`.
    private static let hops: @Sendable (RecordedRequest) -> TestReply = { request in
        let remaining = Int(request.uri.split(separator: "/").last ?? "") ?? 0
        guard remaining > 0 else { return .text("arrived") }
        return TestReply(status: 302, headers: [("Location", "/hop/\(remaining - 1)")])
    }

    @Test func redirectsAreFollowedUpToTheLimit() async throws {
        try await withTestServer(Self.hops) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false, maxRedirects: 3) { dispatcher in
                let response = try await dispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/hop/3"),
                    context: context()
                )
                #expect(response.status == 200)
                #expect(response.body == Array("arrived".utf8))
                #expect(server.requests.map(\.uri) == ["/hop/3", "/hop/2", "/hop/1", "/hop/0"])

                let error = await #expect(throws: FlowError.self) {
                    try await dispatcher.dispatch(
                        StepRequest(method: "GET", url: server.baseURL + "/hop/4"),
                        context: context()
                    )
                }
                #expect(error?.code == .transport)
                #expect(error?.message.contains("redirect") == true)
            }
        }
    }

    @Test func redirectLimitZeroReturnsTheRedirect() async throws {
        try await withTestServer(Self.hops) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false, maxRedirects: 0) { dispatcher in
                let response = try await dispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/hop/1"),
                    context: context()
                )
                #expect(response.status == 302)
                #expect(response.headers["Location"] == "/hop/0")
                #expect(server.requests.count == 1)
            }
        }
    }

    @Test func sequentialRequestsReuseAPooledConnection() async throws {
        try await withTestServer { server in
            for _ in 0..<3 {
                _ = try await sharedDispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/again"),
                    context: context()
                )
            }
            #expect(server.requests.count == 3)
            #expect(server.connectionCount == 1)
        }
    }

    @Test(arguments: [1, 3])
    func aPrivateClientOpensAtMostMaxConnectionsPerHost(limit: Int) async throws {
        try await withTestServer({ _ in TestReply(delay: .milliseconds(50)) }) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false, maxConnectionsPerHost: limit) {
                dispatcher in
                try await withThrowingTaskGroup(of: StepResponse.self) { group in
                    for index in 0..<6 {
                        group.addTask {
                            try await dispatcher.dispatch(
                                StepRequest(method: "GET", url: server.baseURL + "/concurrent/\(index)"),
                                context: context())
                        }
                    }
                    for try await response in group { #expect(response.status == 200) }
                }
            }
            #expect(server.requests.count == 6)
            // The requests beyond the limit waited for a pooled connection instead of opening their own.
            #expect(server.connectionCount == limit)
        }
    }

    @Test func cancellingTheTaskCancelsTheRequestPromptly() async throws {
        try await withTestServer({ _ in TestReply(delay: .seconds(30)) }) { server in
            // The attempt timeout is long: only a prompt cancellation ends this test with `.cancelled`.
            let request = StepRequest(method: "GET", url: server.baseURL + "/forever")
            let outcome = await withTaskGroup(of: Result<StepResponse, any Error>.self) { group in
                group.addTask {
                    await Result {
                        try await sharedDispatcher.dispatch(request, context: context(timeout: .seconds(20)))
                    }
                }
                try? await server.waitForRequests(1)
                group.cancelAll()
                return await group.next()
            }
            let error = try #require(outcome?.failure as? FlowError)
            #expect(error.code == .cancelled)
            #expect(error.request == "GET \(server.baseURL)/forever")
            #expect(server.requests.count == 1)
        }
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        try await withTestServer { server in
            let request = StepRequest(method: "GET", url: server.baseURL + "/never")
            let result = await withTaskGroup(of: Result<StepResponse, any Error>.self) { group in
                group.cancelAll()
                group.addTask { await Result { try await sharedDispatcher.dispatch(request, context: context()) } }
                return await group.next()
            }
            #expect((result?.failure as? FlowError)?.code == .cancelled)
            #expect(server.connectionCount == 0)
        }
    }
}

extension Result {
    /// Runs `body` and captures what it returns or throws.
    init(catching body: () async throws(Failure) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }

    /// The error, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
