import FlowCore
import FlowHTTP
import FlowTestServer
import Foundation
import Logging

import Testing

/// The key every test sends; its encoded forms differ from it (`/`, `+` and `"`).
private let key = "k3y/with+\"quote\"-0123"

/// Runs `yaml` (after a server `api` read from `$env.API`) over real sockets against a server answering with
/// `handler`, logging at trace level, with `inputs`.
private func run(
    _ yaml: String, inputs: [String: JSONValue] = ["apikey": .string(key)],
    handler: @escaping @Sendable (RecordedRequest) -> TestReply
) async throws -> (report: RunReport, logs: [String], server: TestHTTPServer) {
    let plan = try WorkflowCompiler().compile(
        yaml: "flowrun: 1\nenv: { API: {} }\nservers: { api: { url: \"{$env.API}\" } }\n" + yaml, path: "secrets.yaml")
    let logs = CapturedLogs()
    let logger = Logger(label: "SecretsOverHTTPTests") { _ in logs.handler() }
    return try await withTestServer(handler) { server in
        try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
            let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: logger)
            let report = await engine.run(plan, inputs: inputs, environment: ["API": server.baseURL])
            return (report, logs.entries.map(\.text), server)
        }
    }
}

/// The forms of ``key`` a server may echo back.
private let echoedForms = [
    key,
    "k3y%2Fwith%2B%22quote%22-0123",  // Percent-encoded, as it goes out in a query.
    #"k3y/with+\"quote\"-0123"#,  // JSON-escaped.
    #"k3y\/with+\"quote\"-0123"#,  // JSON-escaped with escaped slashes.
    Data(key.utf8).base64EncodedString(),
]

private let apiKeyInQuery = """
    inputs:
      type: object
      properties: { apikey: { type: string } }
    interceptors:
      key: { apiKey: { query: appid, value: $inputs.apikey } }
    defaults: { server: api, interceptors: [key] }

    """

@Suite(.timeLimit(.minutes(1)))
struct SecretsOverHTTPTests {
    /// Issue 9 item 1: the key an interceptor puts in the query reached FlowHTTP's debug log in clear, and the
    /// report dropped the parameter.
    @Test func anAPIKeyInTheQueryIsRedactedInLogsAndShownRedactedInTheReport() async throws {
        let (report, logs, server) = try await run(
            apiKeyInQuery + """
                steps:
                  - id: get
                    request: { method: GET, path: /items, query: { page: 2 } }
                """
        ) { _ in .text("{}", headers: [("Content-Type", "application/json")]) }
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(server.requests.first?.uri == "/items?page=2&appid=k3y%2Fwith%2B%22quote%22-0123")
        #expect(report.steps.first?.attempts.first?.url == server.baseURL + "/items?page=2&appid=***")
        #expect(logs.contains { $0.contains("sending request") && $0.contains("http.request") })
        for line in logs {
            for form in echoedForms { #expect(!line.contains(form), "\(line)") }
        }
    }

    /// Issue 9 item 4c: a server that echoes the key percent-encoded, JSON-escaped or in base64 put it in the
    /// error's response excerpt.
    @Test func echoedEncodingsOfASecretAreRedactedInErrors() async throws {
        let (report, logs, _) = try await run(
            apiKeyInQuery + """
                steps:
                  - id: get
                    request: { method: GET, path: /items }
                """
        ) { _ in
            let body = #"{"error":"bad key","echo":["# + echoedForms.dropFirst(2).map { "\"\($0)\"" }
                .joined(separator: ",") + #"],"uri":"appid=k3y%2Fwith%2B%22quote%22-0123"}"#
            return .text(body, status: 400, headers: [("Content-Type", "application/json")])
        }
        guard case .failed(let error) = report.outcome else {
            Issue.record("the run should fail")
            return
        }
        let excerpt = try #require(error.responseExcerpt)
        #expect(excerpt.contains("***"))
        for form in echoedForms {
            #expect(!excerpt.contains(form), "\(excerpt)")
            #expect(!error.message.contains(form))
            for line in logs { #expect(!line.contains(form), "\(line)") }
        }
    }

    /// Issue 9 item 4b: a workflow output that reads a secret input, or a response echoing it, printed it in
    /// clear.
    @Test func workflowOutputsAreRedacted() async throws {
        let (report, _, _) = try await run(
            """
            inputs:
              type: object
              properties: { token: { type: string, format: password } }
            interceptors:
              auth: { bearer: $inputs.token }
            defaults: { server: api, interceptors: [auth] }
            steps:
              - id: me
                request: { method: GET, path: /me }
                response: { 200: { type: object } }
                outputs: { echoed: $response.body#/seen }
            outputs:
              direct: $inputs.token
              echoed: $steps.me.outputs.echoed
              plain: $steps.me.outputs.echoed#/note
            """,
            inputs: ["token": .string("t-secret-1234")]
        ) { request in
            let seen = request.values("Authorization").first ?? ""
            let encoded = Data("t-secret-1234".utf8).base64EncodedString()
            return .text(
                #"{"seen":{"header":"\#(seen)","b64":"\#(encoded)","note":"kept"}}"#,
                headers: [("Content-Type", "application/json")])
        }
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["direct"] == "***")
        #expect(report.outputs["echoed"] == ["header": "Bearer ***", "b64": "***", "note": "kept"])
        #expect(report.outputs["plain"] == "kept")
    }

    /// The interceptors of the redirect tests: every kind that adds a credential header.
    private static let credentialInterceptors = """
        inputs:
          type: object
          properties: { token: { type: string, format: password } }
        interceptors:
          auth: { bearer: $inputs.token }
          key: { apiKey: { header: X-Api-Key, value: $env.KEY } }
          custom: { headers: { X-Custom-Auth: "c-{$env.KEY}" } }
          sign: { sign: { key: $env.HMAC } }
        defaults: { server: api, interceptors: [auth, key, custom, sign] }
        steps:
          - id: get
            request: { method: GET, path: /start, headers: { Accept: application/json } }
            outputs: { body: $response.body }

        """

    /// Issue 9 item 4a: on a redirect to another port, the API key, custom auth headers and the signature
    /// were forwarded; and the report showed only the first URL.
    @Test func aRedirectToAnotherOriginCarriesNoInterceptorHeadersAndEveryHopIsReported() async throws {
        let plan = try WorkflowCompiler().compile(
            yaml: "flowrun: 1\nenv: { API: {}, KEY: {}, HMAC: {} }\nservers: { api: { url: \"{$env.API}\" } }\n" + Self.credentialInterceptors,
            path: "redirect.yaml")
        try await withTestServer({ _ in .text("{}", headers: [("Content-Type", "application/json")]) }) { other in
            try await withTestServer({ request in
                request.path == "/start" ? .redirect(to: "/same", status: 302)
                    : .redirect(to: other.baseURL + "/landing?x=1", status: 307)
            }) { first in
                try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                    let engine = Engine(
                        dispatchers: DispatcherRegistry(["http": dispatcher]),
                        logger: Logger(label: "redirects") { _ in SwiftLogNoOpLogHandler() })
                    let report = await engine.run(
                        plan, inputs: ["token": "t-secret-1234"],
                        environment: ["API": first.baseURL, "KEY": "api-key-5678", "HMAC": "hmac-key-9012"])
                    #expect(report.succeeded, "\(String(describing: report.error))")

                    // The same origin still gets every header; the other origin none an interceptor added.
                    let same = try #require(first.requests.last)
                    #expect(same.path == "/same")
                    for name in ["Authorization", "X-Api-Key", "X-Custom-Auth", "X-Signature"] {
                        #expect(!same.values(name).isEmpty, "\(name)")
                    }
                    let landed = try #require(other.requests.first)
                    #expect(landed.uri == "/landing?x=1")
                    #expect(landed.values("Accept") == ["application/json"])
                    for name in ["Authorization", "X-Api-Key", "X-Custom-Auth", "X-Signature", "X-Timestamp"] {
                        #expect(landed.values(name).isEmpty, "\(name) was forwarded")
                    }
                    let attempt = try #require(report.steps.first?.attempts.first)
                    #expect(attempt.url == first.baseURL + "/start")
                    #expect(
                        attempt.redirects == [
                            StepResponse.Redirect(status: 302, url: first.baseURL + "/same"),
                            StepResponse.Redirect(status: 307, url: other.baseURL + "/landing?x=1"),
                        ])
                    #expect(attempt.status == 200)
                }
            }
        }
    }

    /// With `crossOriginRedirects: .refuse`, a redirect to another origin fails the attempt and sends nothing
    /// there.
    @Test func aCrossOriginRedirectCanBeRefused() async throws {
        try await withTestServer { other in
            try await withTestServer({ _ in .redirect(to: other.baseURL + "/landing") }) { first in
                let dispatcher = AsyncHTTPClientDispatcher(configuration: .init(crossOriginRedirects: .refuse))
                let context = StepContext(
                    stepID: "s", attempt: 1, logger: Logger(label: "refuse") { _ in SwiftLogNoOpLogHandler() })
                await #expect(throws: FlowError.self) {
                    _ = try await dispatcher.dispatch(
                        StepRequest(method: "GET", url: first.baseURL + "/a"), context: context)
                }
                #expect(other.requests.isEmpty)
                // A redirect on the same origin is still followed, and reported.
                let same = try await withTestServer({ request in
                    request.path == "/a" ? .redirect(to: "b") : .text("done")
                }) { server in
                    try await dispatcher.dispatch(
                        StepRequest(method: "GET", url: server.baseURL + "/a"), context: context)
                }
                #expect(same.status == 200)
                #expect(same.redirects.map(\.status) == [302])
                #expect(same.redirects.first?.url.hasSuffix("/b") == true)
            }
        }
    }

    /// A hop after a redirect that fails names the redirect it was reached by.
    @Test func aFailingHopNamesTheRedirectThatLedToIt() async throws {
        try await withRefusingPort { port in
            try await withTestServer({ _ in .redirect(to: "http://127.0.0.1:\(port)/gone", status: 301) }) { first in
                let context = StepContext(
                    stepID: "s", attempt: 1, logger: Logger(label: "hop") { _ in SwiftLogNoOpLogHandler() })
                // A private client: it reports the refused connection at once instead of retrying it.
                let error = try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                    await #expect(throws: FlowError.self) {
                        _ = try await dispatcher.dispatch(
                            StepRequest(method: "GET", url: first.baseURL + "/a?token=t-1"), context: context)
                    }
                }
                #expect(error?.code == .transport)
                #expect(error?.request == "GET http://127.0.0.1:\(port)/gone")
                #expect(
                    error?.message.hasSuffix("(reached by redirect 301 from GET \(first.baseURL)/a?token=***)") == true,
                    "\(String(describing: error?.message))")
            }
        }
    }
}
