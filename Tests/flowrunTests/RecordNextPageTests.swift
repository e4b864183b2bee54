import FlowTestServer
import Foundation
import Testing

/// A workflow whose `issues` step follows the `Link` header page by page, on a server read from `TRACKER_URL`.
private let workflow = """
    flowrun: 1
    name: next-pages
    env: { TRACKER_URL: {} }
    inputs:
      type: object
      required: [owner, repo]
      properties: { owner: { type: string }, repo: { type: string } }
    servers:
      tracker: { url: "{$env.TRACKER_URL}" }
    defaults: { server: tracker }
    steps:
      - id: issues
        request: { method: GET, path: "/repos/{$inputs.owner}/{$inputs.repo}/issues" }
        paginate: { next: link }
        outputs: { open: $response.body }
    outputs:
      issues: $steps.issues.outputs.open
    """

/// `flowrun run --record-test` names a path segment `{name}` only when a binding filled it: a next page's URL,
/// which a response gave, is recorded as it was requested, and the recorded test passes at once.
struct RecordNextPageTests {
    @Test func aNextPageKeepsItsLiteralPathAndTheRecordedTestPasses() async throws {
        let folder = try TemporaryFolder()
        let workflowPath = folder.url.appendingPathComponent("next-pages.yaml").path
        let test = folder.url.appendingPathComponent("next-pages.test.yaml").path
        try workflow.write(toFile: workflowPath, atomically: true, encoding: .utf8)
        try await withTestServer({ request in
            let json = [("Content-Type", "application/json")]
            guard request.path == "/repos/octo/hello/issues" else {
                let last = request.path == "/repositories/42/issues"
                return last ? .text("[2]", headers: json) : .text("no", status: 404)
            }
            // The next page is on the same origin, at a path the step's template does not show.
            let host = request.headers.first { $0.name.lowercased() == "host" }?.value ?? ""
            let link = "<http://\(host)/repositories/42/issues?page=2>; rel=\"next\""
            return .text("[1]", headers: json + [("Link", link)])
        }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", workflowPath, "--input", "owner=octo", "--input", "repo=hello", "--record-test", test],
                environment: ["TRACKER_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(server.requests.map(\.path) == ["/repos/octo/hello/issues", "/repositories/42/issues"])
        }
        let testFile = try String(contentsOfFile: test, encoding: .utf8)
        #expect(testFile.contains("path: /repos/{owner}/{repo}/issues"), "\(testFile)")
        #expect(testFile.contains("path: /repositories/42/issues"), "\(testFile)")
        #expect(!testFile.contains("path: /{owner}/{repo}/issues"), "\(testFile)")
        let tested = try await FlowRunProcess.run(["test", test])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stdout.contains("1 passed, 0 failed"), "\(tested.stdout)")
    }
}
