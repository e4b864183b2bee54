import FlowTestServer
import Foundation
import Testing

/// The key the CLI tests send; its encoded forms all differ from it.
private let key = "k3y/with+\"quote\"-0123"

/// Every form of ``key`` or the token that must not appear anywhere.
private let forbidden = [
    key, "k3y%2Fwith%2B%22quote%22-0123", #"k3y/with+\"quote\"-0123"#, Data(key.utf8).base64EncodedString(),
    "tok-secret-4567", Data("tok-secret-4567".utf8).base64EncodedString(),
]

private let workflow = """
    flowrun: 1
    name: secrets
    inputs:
      type: object
      properties:
        token: { type: string, format: password }
        where: { type: string, default: ok }
    env: { API: {}, KEY: {} }
    servers: { api: { url: "{$env.API}" } }
    interceptors:
      key: { apiKey: { query: appid, value: $env.KEY } }
    defaults: { server: api, interceptors: [key] }
    steps:
      - id: echo
        request: { method: GET, path: "/{$inputs.where}", headers: { X-Token: $inputs.token } }
        response: { 200: { type: object } }
        outputs: { echoed: $response.body }
    outputs:
      direct: $inputs.token
      echoed: $steps.echo.outputs.echoed
    """

/// A server that echoes the key and token back in several encodings: with 200 on `/ok`, with 400 elsewhere.
private func echo(_ request: RecordedRequest) -> TestReply {
    let token = request.values("X-Token").first ?? ""
    let body = """
        {"uri":"\(request.uri)","key":"k3y/with+\\"quote\\"-0123","b64":"\(Data(key.utf8).base64EncodedString())",\
        "token":"\(Data(token.utf8).base64EncodedString())","note":"kept"}
        """
    return .text(body, status: request.path == "/ok" ? 200 : 400, headers: [("Content-Type", "application/json")])
}

/// Issue 9 items 1, 4b and 4c through the binary: no report format and no log line shows a secret.
@Suite(.timeLimit(.minutes(2)))
struct RunSecretsTests {
    @Test func noReportOrLogLineShowsASecretOrItsEncodings() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("secrets.yaml", workflow)
        try await withTestServer(echo) { server in
            let environment = ["API": server.baseURL, "KEY": key]
            let human = try await FlowRunProcess.run(
                ["run", path, "--input", "token=tok-secret-4567", "--log-level", "trace"], environment: environment)
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stderr.contains("sending request"), "\(human.stderr)")
            #expect(human.stderr.contains("appid=***"), "\(human.stderr)")
            #expect(human.stdout.contains("\"direct\" : \"***\"") || human.stdout.contains("\"direct\": \"***\""))
            #expect(human.stdout.contains("kept"))

            let json = try await FlowRunProcess.run(
                ["run", path, "--input", "token=tok-secret-4567", "--format", "json"], environment: environment)
            #expect(json.status == 0, "\(json.stderr)")
            let report = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect((report["outputs"] as? [String: Any])?["direct"] as? String == "***")
            let steps = try #require(report["steps"] as? [[String: Any]])
            let attempt = try #require((steps.first?["attempts"] as? [[String: Any]])?.first)
            #expect(attempt["url"] as? String == server.baseURL + "/ok?appid=***")

            let junitPath = folder.url.appendingPathComponent("junit.xml").path
            let failed = try await FlowRunProcess.run(
                ["run", path, "--input", "token=tok-secret-4567", "--input", "where=nope", "--junit-out", junitPath,
                 "--log-level", "debug"],
                environment: environment)
            #expect(failed.status == 1, "\(failed.stderr)")
            let junit = try String(contentsOfFile: junitPath, encoding: .utf8)
            #expect(junit.contains("appid=***"), "\(junit)")
            #expect(junit.contains("kept"), "\(junit)")

            for (name, text) in [
                ("human stdout", human.stdout), ("human stderr", human.stderr), ("json", json.stdout),
                ("json stderr", json.stderr), ("failed stderr", failed.stderr), ("junit", junit),
            ] {
                for form in forbidden { #expect(!text.contains(form), "\(name) shows \(form)") }
            }
        }
    }

    /// Issue 9 item 4a through the binary: the human, JSON and JUnit reports list every hop of a redirect.
    @Test func everyReportListsTheHopsOfARedirect() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("secrets.yaml", workflow)
        try await withTestServer(echo) { other in
            try await withTestServer({ _ in .redirect(to: other.baseURL + "/ok", status: 307) }) { first in
                let environment = ["API": first.baseURL, "KEY": key]
                let arguments = ["run", path, "--input", "token=tok-secret-4567", "--input", "where=hop"]
                let junitPath = folder.url.appendingPathComponent("junit.xml").path
                let human = try await FlowRunProcess.run(
                    arguments + ["--junit-out", junitPath], environment: environment)
                #expect(human.status == 0, "\(human.stderr)")
                let hops = first.baseURL + "/hop?appid=*** (307 → " + other.baseURL + "/ok)"
                #expect(human.stderr.contains(hops), "\(human.stderr)")
                #expect(try String(contentsOfFile: junitPath, encoding: .utf8).contains(hops))
                // The key went to the first server only.
                #expect(other.requests.first?.uri == "/ok")

                let json = try await FlowRunProcess.run(arguments + ["--format", "json"], environment: environment)
                let report = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
                let steps = try #require(report["steps"] as? [[String: Any]])
                let attempt = try #require((steps.first?["attempts"] as? [[String: Any]])?.first)
                let redirects = try #require(attempt["redirects"] as? [[String: Any]], "\(attempt)")
                #expect(redirects.map { $0["status"] as? Int } == [307])
                #expect(redirects.map { $0["url"] as? String } == [other.baseURL + "/ok"])
            }
        }
    }
}
