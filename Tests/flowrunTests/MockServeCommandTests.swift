import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// `flowrun mock serve` end to end: the built binary on a free port of 127.0.0.1, driven with AsyncHTTPClient.
///
/// Every wait for the server has a timeout (``withMockServer(_:in:body:)``), and so does every request.
@Suite(.timeLimit(.minutes(2)))
struct MockServeCommandTests {
    /// Stubs with a header and a body, a sequence, delays and a query, at known lines.
    static let stubs = """
        flowrun-mock: 1
        stubs:
          - name: user
            match: { method: GET, path: "/user/{id}" }
            respond: { status: 201, headers: { X-Request-Id: r-1 }, body: { userId: u-1 } }
          - name: pay
            match: { method: POST, path: /pay }
            respond: [ { status: 503 }, { status: 200, body: { ok: true } } ]
          - name: slow
            match: { path: /slow }
            respond: { text: done, delay: 400ms }
          - name: quote
            match: { method: GET, path: /quote, query: { city: oslo } }
            respond: { text: Stay hungry. }
          - name: slower
            match: { path: /slower }
            respond: { text: done at last, delay: 1s }
        """

    // MARK: Answers

    @Test func aMatchedStubAnswersWithItsStatusHeadersAndBody() async throws {
        try await withStubServer { server in
            let reply = try await send(.GET, server.baseURL + "/user/42")
            #expect(reply.status == 201)
            #expect(reply.headers.first(name: "X-Request-Id") == "r-1")
            #expect(reply.headers.first(name: "Content-Type") == "application/json")
            #expect(try reply.jsonObject()["userId"] as? String == "u-1")
        }
    }

    @Test func aSequenceAdvancesAcrossCallsAndItsLastResponseRepeats() async throws {
        try await withStubServer { server in
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await send(.POST, server.baseURL + "/pay").status) }
            #expect(statuses == [503, 200, 200])
        }
    }

    @Test func anUnmatchedRequestGetsA404WhoseJSONBodyNamesTheClosestStub() async throws {
        try await withStubServer { server, stubs in
            let reply = try await send(.GET, server.baseURL + "/quote?city=bergen")
            #expect(reply.status == 404)
            #expect(reply.headers.first(name: "Content-Type") == "application/json")
            let body = try reply.jsonObject()
            #expect(body["error"] as? String == "mock-unmatched")
            let closest = try #require(body["closestStub"] as? [String: Any], "\(reply.body)")
            #expect(closest["name"] as? String == "quote")
            #expect(closest["location"] as? String == "\(stubs):12:5")
            #expect(closest["differences"] as? [String] == ["query parameter city is bergen, stub expects oslo"])
            #expect(body["message"] as? String == """
                no mock stub matches GET /quote?city=bergen; the closest is stub 'quote' (\(stubs):12:5): \
                query parameter city is bergen, stub expects oslo
                """)
        }
    }

    @Test func aResponseDelayReallyWaits() async throws {
        try await withStubServer { server in
            let start = ContinuousClock.now
            let reply = try await send(.GET, server.baseURL + "/slow")
            #expect(ContinuousClock.now - start >= .milliseconds(400))
            #expect(reply.status == 200 && reply.body == "done")
        }
    }

    // MARK: Admin endpoints

    @Test func theCallsEndpointListsEachCallWithItsStubStatusAndTime() async throws {
        try await withStubServer { server, stubs in
            _ = try await send(.GET, server.baseURL + "/user/42")
            _ = try await send(.GET, server.baseURL + "/nothing?page=2")
            let reply = try await send(.GET, server.baseURL + "/__flowrun/calls")
            #expect(reply.status == 200)
            let calls = try #require(JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]])
            try #require(calls.count == 2, "\(reply.body)")
            #expect(calls[0]["method"] as? String == "GET")
            #expect(calls[0]["path"] as? String == "/user/42")
            #expect(calls[0]["status"] as? Int == 201)
            #expect(calls[0]["stub"] as? [String: String] == ["name": "user", "location": "\(stubs):3:5"])
            #expect((calls[0]["durationMs"] as? Int).map { $0 >= 0 } == true)
            let time = try #require(calls[0]["time"] as? String)
            let parsed = try #require(ISO8601DateFormatter.withFractionalSeconds.date(from: time), "\(time)")
            #expect(abs(parsed.timeIntervalSinceNow) < 60)
            // An unmatched call is listed too, without a stub; the admin calls are not.
            #expect(calls[1]["path"] as? String == "/nothing" && calls[1]["query"] as? String == "page=2")
            #expect(calls[1]["status"] as? Int == 404)
            #expect(calls[1]["stub"] is NSNull)
        }
    }

    @Test func secretsNeverReachTheCallsThe404OrTheRequestLog() async throws {
        try await withStubServer { server in
            let secrets = ["Bearer t-secret-1", "s-secret-2", "k-secret-3", "a-secret-4"]
            let headers = [("Authorization", "Bearer t-secret-1"), ("Cookie", "session=s-secret-2")]
            _ = try await send(.GET, server.baseURL + "/user/42?api_key=k-secret-3", headers: headers)
            let unmatched = try await send(.GET, server.baseURL + "/usr?access_token=a-secret-4", headers: headers)
            #expect(unmatched.status == 404)
            #expect(unmatched.body.contains("access_token=***"), "\(unmatched.body)")
            let reply = try await send(.GET, server.baseURL + "/__flowrun/calls")
            let calls = try #require(JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]])
            let headersSeen = try #require(calls.first?["headers"] as? [String: String])
            #expect(headersSeen["authorization"] == "Bearer ***")
            #expect(headersSeen["cookie"] == "***")
            #expect(calls.first?["query"] as? String == "api_key=***")
            let outcome = try await server.stop()
            #expect(outcome.stderr.contains("GET /user/42?api_key=*** → 201 stub 'user' ("), "\(outcome.stderr)")
            for secret in secrets {
                for (place, text) in [("calls", reply.body), ("404", unmatched.body), ("log", outcome.stderr)] {
                    #expect(!text.contains(secret), "\(secret) in the \(place): \(text)")
                }
            }
        }
    }

    @Test func resetRestartsTheSequencesAndForgetsTheCalls() async throws {
        try await withStubServer { server in
            #expect(try await send(.POST, server.baseURL + "/pay").status == 503)
            #expect(try await send(.POST, server.baseURL + "/pay").status == 200)
            let reset = try await send(.POST, server.baseURL + "/__flowrun/reset")
            #expect(reset.status == 204)
            #expect(try await send(.GET, server.baseURL + "/__flowrun/calls").body == "[]\n")
            #expect(try await send(.POST, server.baseURL + "/pay").status == 503)
            // The admin endpoints answer only their own method, and no stub can answer under their prefix.
            let wrongMethod = try await send(.GET, server.baseURL + "/__flowrun/reset")
            #expect(wrongMethod.status == 405 && wrongMethod.headers.first(name: "Allow") == "POST")
            #expect(try await send(.GET, server.baseURL + "/__flowrun/other").status == 404)
        }
    }

    // MARK: Request log

    @Test func theRequestLogHasALinePerRequestAndQuietHasNone() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("t.mock.yaml", Self.stubs)
        try await withMockServer([stubs, "--port", "0"]) { server in
            _ = try await send(.GET, server.baseURL + "/user/42")
            _ = try await send(.GET, server.baseURL + "/nope")
            _ = try await send(.GET, server.baseURL + "/__flowrun/calls")
            let outcome = try await server.stop()
            #expect(outcome.status == 0)
            let lines = outcome.stderr.split(separator: "\n").map(String.init)
            try #require(lines.count == 4, "\(outcome.stderr)")
            #expect(lines[0] == "serving 5 stubs from \(stubs)")
            #expect(lines[1].hasPrefix("GET /user/42 → 201 stub 'user' (") && lines[1].hasSuffix(" ms)"))
            #expect(lines[2].hasPrefix("GET /nope → 404 unmatched ("))
            #expect(lines[3].hasPrefix("GET /__flowrun/calls → 200 admin ("))
        }
        try await withMockServer([stubs, "--port", "0", "--quiet"]) { server in
            _ = try await send(.GET, server.baseURL + "/user/42")
            let outcome = try await server.stop()
            #expect(outcome.status == 0)
            #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
            #expect(outcome.stdout == "listening on \(server.baseURL)\n")
        }
    }

    // MARK: Starting and stopping

    @Test func aTakenPortFailsWithExit2AndSaysSo() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("t.mock.yaml", Self.stubs)
        try await withMockServer([stubs, "--port", "0"]) { first in
            #expect(first.baseURL.hasPrefix("http://127.0.0.1:") && first.port > 0)
            let second = try await FlowRunProcess.run(
                ["mock", "serve", stubs, "--port", String(first.port)], timeout: .seconds(30))
            #expect(second.status == 2)
            #expect(second.stderr.contains("""
                flowrun mock serve: cannot listen on 127.0.0.1:\(first.port): the address is already in use; \
                choose another --port, or --port 0 for a free one
                """), "\(second.stderr)")
            #expect(second.stdout.isEmpty)
        }
    }

    @Test func anInvalidStubFileFailsWithExit2AtItsLineAndColumn() async throws {
        let folder = try TemporaryFolder()
        let good = try folder.write("good.mock.yaml", Self.stubs)
        let bad = try folder.write("bad.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - name: user
                mach: { path: /user }
                respond: {}
            """)
        let outcome = try await FlowRunProcess.run(["mock", "serve", good, bad, "--port", "0"], timeout: .seconds(30))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(
            "flowrun mock serve: \(bad):4:5: error: unknown key 'mach' in stub 'user'; did you mean 'match'?"),
            "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalStopsTheServerGracefullyWithExit0(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("t.mock.yaml", Self.stubs)
        // At the debug level, the server says when each request comes in.
        try await withMockServer([stubs, "--port", "0", "--log-level", "debug"]) { server in
            // A request in flight when the signal arrives is still answered.
            async let slow = send(.GET, server.baseURL + "/slower")
            try await server.waitForStandardError(containing: "received GET /slower")
            let outcome = try await server.stop(with: signal)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let answered = try await slow
            #expect(answered.body == "done at last")
        }
    }

    @Test func helpTeachesTheAdminEndpointsAndAnExample() async throws {
        let outcome = try await FlowRunProcess.run(["mock", "serve", "--help"])
        #expect(outcome.status == 0)
        for text in [
            "--port", "--host", "--quiet", "GET  /__flowrun/calls", "POST /__flowrun/reset", "listening on",
            "flowrun mock serve workflows/banking.mock.yaml --port 8080",
        ] {
            #expect(outcome.stdout.contains(text), "\(text)")
        }
        let top = try await FlowRunProcess.run(["--help"])
        #expect(top.stdout.contains("flowrun mock serve wf.mock.yaml"))
    }

    // MARK: Driven by flowrun run

    /// Issue 13: `flowrun run` over real HTTP against the served banking stubs gives the in-process mock's outputs.
    @Test func flowrunRunAgainstTheServedBankingStubsGivesTheInProcessMocksOutputs() async throws {
        let inProcess = try await FlowRunProcess.run([
            "run", "workflows/banking.yaml", "--mock", "workflows/banking.mock.yaml",
            "--inputs", "workflows/banking.inputs.json",
        ], environment: ["BANK_URL": "https://bank.example"])
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        try await withMockServer(["workflows/banking.mock.yaml", "--port", "0"]) { server in
            let overHTTP = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--inputs", "workflows/banking.inputs.json"],
                environment: ["BANK_URL": server.baseURL])
            #expect(overHTTP.status == 0, "\(overHTTP.stderr)")
            #expect(overHTTP.stdout == inProcess.stdout)
            // The 401, the refresh and the replay went over the wire.
            let reply = try await send(.GET, server.baseURL + "/__flowrun/calls")
            let calls = try #require(JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]])
            #expect(calls.map { "\($0["method"] ?? "") \($0["path"] ?? "") \($0["status"] ?? "")" } == [
                "GET /user 401", "POST /oauth/token 200", "GET /user 200", "GET /account/u-1001 200",
                "GET /transactions/acc-42 200",
            ])
        }
    }
}

/// Runs `body` with a server on ``MockServeCommandTests/stubs``, written to a temporary file, on a free port.
private func withStubServer(_ body: (MockServeProcess) async throws -> Void) async throws {
    try await withStubServer { server, _ in try await body(server) }
}

/// Runs `body` with a server on ``MockServeCommandTests/stubs`` and the path of their file.
private func withStubServer(_ body: (MockServeProcess, String) async throws -> Void) async throws {
    let folder = try TemporaryFolder()
    let stubs = try folder.write("t.mock.yaml", MockServeCommandTests.stubs)
    try await withMockServer([stubs, "--port", "0"]) { server in try await body(server, stubs) }
}

/// A response as the tests read it.
private struct Reply {
    var status: Int
    var headers: HTTPHeaders
    var body: String

    /// The body as a JSON object.
    func jsonObject() throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
    }
}

/// Sends a request with AsyncHTTPClient, with a timeout.
private func send(_ method: HTTPMethod, _ url: String, headers: [(String, String)] = []) async throws -> Reply {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 20)
    return Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: body))
}

extension ISO8601DateFormatter {
    /// Reads `2026-05-04T09:15:02.118Z`.
    fileprivate static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
