import FlowTestServer
import Foundation
import Testing

private let workflow = """
    flowrun: 1
    name: short-secret
    inputs:
      type: object
      properties:
        pw: { type: string, format: password }
        where: { type: string, default: ok }
    env: { API: {} }
    servers: { api: { url: "{$env.API}" } }
    defaults: { server: api }
    steps:
      - id: echo
        request:
          method: GET
          path: "/{$inputs.where}/{$inputs.pw}"
          query: { pw: $inputs.pw, n: "1" }
          headers: { X-Token: $inputs.pw }
        response: { 200: { type: object } }
        outputs: { echoed: $response.body#/pw }
    outputs:
      direct: $inputs.pw
      echoed: $steps.echo.outputs.echoed
    """

/// Echoes the `X-Token` header as `{"pw": …}`: with 200 under `/ok/`, with 400 elsewhere.
private func echo(_ request: RecordedRequest) -> TestReply {
    let token = request.values("X-Token").first ?? ""
    let body = "{\"pw\":\"\(token)\",\"note\":\"kept\"}"
    return .text(
        body, status: request.path.hasPrefix("/ok/") ? 200 : 400, headers: [("Content-Type", "application/json")])
}

/// docs/run-reports.md, Redaction: a password of 1 to 3 characters is `***` wherever a whole value equals it.
@Suite(.timeLimit(.minutes(2)))
struct ShortSecretOutputTests {
    @Test(arguments: ["q", "q7", "q+7"])
    func aShortPasswordIsNeverShown(secret: String) async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("short.yaml", workflow)
        try await withTestServer(echo) { server in
            let environment = ["API": server.baseURL]
            let run = ["run", path, "--input", "pw=\(secret)"]
            let human = try await FlowRunProcess.run(run + ["-vv"], environment: environment)
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stderr.contains("/ok/***?pw=***&n=1"), "\(human.stderr)")
            #expect(human.stderr.contains("X-Token: ***"), "\(human.stderr)")
            #expect(human.stderr.contains(#"{"pw":"***","note":"kept"}"#), "\(human.stderr)")
            let json = try await FlowRunProcess.run(run + ["--format", "json"], environment: environment)
            #expect(json.status == 0, "\(json.stderr)")
            let report = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let outputs = try #require(report["outputs"] as? [String: Any])
            #expect(outputs["direct"] as? String == "***")
            #expect(outputs["echoed"] as? String == "***")
            let failing = run + ["--input", "where=nope"]
            let failed = try await FlowRunProcess.run(failing + ["-vv"], environment: environment)
            #expect(failed.status == 1, "\(failed.stderr)")
            #expect(failed.stderr.contains("/nope/***?pw=***&n=1"), "\(failed.stderr)")
            let failedJSON = try await FlowRunProcess.run(failing + ["--format", "json"], environment: environment)
            #expect(failedJSON.status == 1, "\(failedJSON.stderr)")
            #expect(failedJSON.stdout.contains(#"pw\":\"***\""#), "\(failedJSON.stdout)")

            let query = URLEncoding(secret)
            let shown = [
                "\"\(secret)\"", "\\\"\(secret)\\\"", "=\(query)&", "=\(query) ", "=\(query)\n", "/\(query)?",
                "/\(query)/", "X-Token: \(secret)", ": \(secret)\n",
            ]
            for (name, text) in [
                ("human stdout", human.stdout), ("human stderr", human.stderr), ("json", json.stdout),
                ("json stderr", json.stderr), ("failed stderr", failed.stderr), ("failed json", failedJSON.stdout),
            ] {
                for form in shown { #expect(!text.contains(form), "\(name) shows \(form): \(text)") }
            }
        }
    }
}

/// `text` as a query value carries it: `+` percent-encoded.
private func URLEncoding(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
}
