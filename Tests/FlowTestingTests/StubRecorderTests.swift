import FlowCore
import Foundation
import Synchronization
import Testing

@testable import FlowTesting

/// The workflow the recorded exchanges belong to: a server with a path of its own, a bound path segment,
/// a forEach over ids, and a redirected download.
private let workflow = """
    flowrun: 1
    servers: { api: https://api.test/v1 }
    defaults: { server: api }
    inputs:
      type: object
      properties: { id: { type: string }, key: { type: string, format: password } }
    steps:
      - id: account
        request: { method: GET, path: "/account/{$inputs.id}/summary" }
        response: { 200: { type: object, properties: { ids: { type: array, items: { type: string } } } } }
        outputs: { ids: $response.body#/ids }
      - id: item
        forEach: $steps.account.outputs.ids
        request: { method: GET, path: "/items/{$item}" }
      - id: download
        after: [item]
        request: { method: GET, path: /download, query: { api_key: $inputs.key, page: "2" } }
    """

/// An exchange of `step` for `GET https://api.test` + `target`, answered with `status` and `body`.
private func exchange(
    _ step: String, _ target: String, status: Int? = 200, body: String = "", contentType: String = "application/json",
    headers: HeaderFields = [:], attempt: Int = 1, item: Int? = nil, redirect: Int = 0,
    redactor: SecretRedactor = SecretRedactor(), sent: Duration? = nil
) -> Exchange {
    sentAt.withLock { $0 += .milliseconds(1) }
    let response = status.map {
        StepResponse(status: $0, headers: ["Content-Type": contentType, "Content-Length": "\(body.utf8.count)"],
                     body: Array(body.utf8))
    }
    return Exchange(
        stepID: step, attempt: attempt, item: item, redirect: redirect,
        request: StepRequest(method: "GET", url: "https://api.test" + target, headers: headers),
        response: response, error: status == nil ? FlowError(.transport, "connection refused") : nil,
        timing: ExchangeTiming(start: sent ?? sentAt.withLock { $0 }, duration: .milliseconds(1)), redactor: redactor)
}

/// When the next exchange was sent: each one a millisecond after the one before, unless it says.
private let sentAt = Mutex(Duration.seconds(1_767_225_600))

/// The stubs `exchanges` record, for the workflow above.
private func stubs(_ exchanges: [Exchange]) throws -> MockStubs {
    let plan = try WorkflowCompiler().compile(yaml: workflow, path: "wf.yaml")
    let recorder = StubRecorder()
    for exchange in exchanges { recorder.exchangeFinished(exchange) }
    return recorder.stubs(for: plan)
}

struct StubRecorderTests {
    @Test func aBoundSegmentBecomesAParameterAndTheServersPathStays() throws {
        let recorded = try stubs([exchange("account", "/v1/account/a-17/summary", body: #"{"ids":[]}"#)])
        #expect(recorded.stubs.map(\.match.path) == ["/v1/account/{id}/summary"])
        #expect(recorded.stubs[0].name == "account")
        #expect(recorded.stubs[0].responses[0].body == .json(.object(["ids": .array([])])))
    }

    @Test func callsOfOnePathAnswerInOrderAndCredentialsAreMatchedByPresence() throws {
        let redactor = SecretRedactor()
        redactor.add(.string("fresh-token-b27d"))
        let recorded = try stubs([
            exchange("account", "/v1/account/a-1/summary", status: 401, headers: ["Authorization": "Bearer stale-token"]),
            exchange("account", "/v1/account/a-1/summary", body: #"{"ids":[],"seen":"fresh-token-b27d"}"#,
                     headers: ["Authorization": "Bearer fresh-token-b27d", "X-Trace": "t-1"], redactor: redactor),
        ])
        #expect(recorded.stubs.count == 1)
        let stub = try #require(recorded.stubs.first)
        #expect(stub.responses.map(\.status) == [401, 200])
        #expect(stub.match.presentHeaders == ["Authorization"])
        #expect(stub.match.headers.isEmpty)
        // Transport header fields are left out; the secret in the body is redacted.
        #expect(stub.responses[1].headers.fields.map(\.name) == ["Content-Type"])
        #expect(stub.responses[1].body == .json(.object(["ids": .array([]), "seen": .string("***")])))
        let yaml = recorded.yaml()
        #expect(yaml.contains("Authorization: !present"), "\(yaml)")
        #expect(!yaml.contains("stale-token") && !yaml.contains("fresh-token"), "\(yaml)")
    }

    @Test func aPatternCalledWithSeveralPathsGetsAStubPerPath() throws {
        let recorded = try stubs([
            exchange("item", "/v1/items/i-2", body: #"{"n":2}"#, item: 1),
            exchange("item", "/v1/items/i-1", body: #"{"n":1}"#, item: 0),
            exchange("item", "/v1/items/i-1", body: #"{"n":1}"#, attempt: 2, item: 0),
        ])
        #expect(recorded.stubs.map(\.match.path) == ["/v1/items/i-2", "/v1/items/i-1"])
        #expect(recorded.stubs.map(\.name) == ["item", "item-2"])
        #expect(recorded.stubs.map(\.responses.count) == [1, 2])
        // One path, however often called, keeps its pattern.
        let once = try stubs([exchange("item", "/v1/items/i-1", item: 0), exchange("item", "/v1/items/i-1", item: 1)])
        #expect(once.stubs.map(\.match.path) == ["/v1/items/{item}"])
    }

    @Test func redirectHopsAnswerTheFirstRequestAndFailedAttemptsAreLeftOut() throws {
        let recorded = try stubs([
            exchange("download", "/v1/download?page=2&api_key=k-secret-1", status: nil),
            exchange("download", "/v1/download?page=2&api_key=k-secret-1", status: 302, attempt: 2),
            exchange("download", "/v1/files/f.txt", body: "file", contentType: "text/plain", attempt: 2, redirect: 1),
        ])
        #expect(recorded.stubs.count == 1)
        let stub = try #require(recorded.stubs.first)
        #expect(stub.match.path == "/v1/download")
        // The credential parameter is not matched (nor written); the other one is.
        #expect(stub.match.query == ["page": ["2"]])
        #expect(stub.responses.map(\.status) == [200])
        #expect(stub.responses[0].body == .text("file"))
        #expect(!recorded.yaml().contains("k-secret-1"))
    }

    @Test func callsAreInTheOrderTheyWereSentNotAnswered() throws {
        let plan = try WorkflowCompiler().compile(yaml: workflow, path: "wf.yaml")
        let recorder = StubRecorder()
        // The second request was answered first.
        recorder.exchangeFinished(exchange("item", "/v1/items/i-2", body: #"{"n":2}"#, item: 1, sent: .seconds(20)))
        recorder.exchangeFinished(exchange("item", "/v1/items/i-1", body: #"{"n":1}"#, item: 0, sent: .seconds(10)))
        #expect(recorder.calls().map(\.request.path) == ["/v1/items/i-1", "/v1/items/i-2"])
        #expect(recorder.stubs(for: plan).stubs.map(\.match.path) == ["/v1/items/i-1", "/v1/items/i-2"])
    }

    @Test func moreSpecificStubsComeFirstSoNoneShadowsAnother() throws {
        let recorded = try stubs([
            exchange("item", "/v1/items/i-1", item: 0),
            exchange("item", "/v1/items/i-1", headers: ["Authorization": "Bearer t-1"], item: 1),
            exchange("download", "/v1/download?page=2"),
        ])
        // The literal path first, then the pattern with a header condition, then the pattern without.
        #expect(recorded.stubs.map(\.match.path) == ["/v1/download", "/v1/items/{item}", "/v1/items/{item}"])
        #expect(recorded.stubs.map(\.match.presentHeaders.count) == [0, 1, 0])
    }

    @Test func theWrittenFileLoadsBackAsTheSameStubs() throws {
        let recorded = try stubs([
            exchange("account", "/v1/account/a%20b/summary", body: #"{"ids":["x"],"n":1.5}"#),
            exchange("item", "/v1/items/%7Bx%7D", body: "\u{1}\u{2}binary\u{FF}", contentType: "application/octet-stream"),
            // A step the plan lacks keeps its path, with the characters a pattern reads escaped.
            exchange("other", "/v1/odd/{x}/**"),
            exchange("download", "/v1/download?page=2", body: "plain text", contentType: "text/plain; charset=utf-8",
                     headers: ["X-Api-Key": "k-1"]),
        ])
        let loaded = try MockStubs.load(yaml: recorded.yaml(comments: ["Recorded."]), path: "r.mock.yaml")
        let withoutLocations = loaded.stubs.map { stub in
            var stub = stub
            stub.location = nil
            return stub
        }
        #expect(withoutLocations == recorded.stubs)
        #expect(recorded.stubs.map(\.match.path).contains("/v1/odd/%7Bx%7D/%2A%2A"))
    }
}
