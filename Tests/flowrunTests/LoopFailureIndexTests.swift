import Foundation
import Testing

/// A failed `repeat` iteration or `paginate` page names itself in the step's error by the index the report's
/// `iteration` and `flowrun run -v`'s line give it (from 0, as `forEach` names its items), so the entry the
/// message names can be found.
struct LoopFailureIndexTests {
    /// A job polled until it is done whose third poll answers 500.
    private static let polling = """
        flowrun: 1
        servers: { api: https://api.example }
        defaults: { server: api }
        steps:
          - id: waitForExport
            request: { method: GET, path: /exports/e-1 }
            response: { 200: { type: object, required: [status], properties: { status: { type: string } } } }
            repeat: { until: "$response.body#/status == 'done'", delay: 1ms }
            outputs: { status: $response.body#/status }
        outputs: { status: $steps.waitForExport.outputs.status }
        """

    private static let polls = """
        flowrun-mock: 1
        stubs:
          - match: { method: GET, path: /exports/e-1 }
            respond:
              - { body: { status: running } }
              - { body: { status: running } }
              - { status: 500, body: { message: boom } }
        """

    /// paginate-all-pages.yaml's issues, whose second page answers 500.
    private static let pages = """
        flowrun-mock: 1
        stubs:
          - match: { method: GET, path: /repos/acme/api/issues, query: { page: "2" } }
            respond: { status: 500, body: { message: boom } }
          - match: { method: GET, path: /repos/acme/api/issues }
            respond:
              headers: { Link: '<https://tracker.example/repos/acme/api/issues?state=open&per_page=50&page=2>; rel="next"' }
              body: [{ number: 1, title: Crash on start }]
        """

    /// Runs `arguments` with `--format json`, then with `-v`, and checks that the step's error, the failed
    /// attempt's `iteration` in the report and the failed iteration's `-v` line all give `index`.
    private func expectFailure(
        _ arguments: [String], step: String, unit: String, index: Int, in folder: URL? = nil
    ) async throws {
        let directory = folder ?? FlowRunProcess.packageRoot
        let json = try await FlowRunProcess.run(arguments + ["--format", "json"], in: directory)
        #expect(json.status == 1, "\(json.stderr)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let error = try #require(report["error"] as? [String: Any])
        #expect(error["message"] as? String == "\(unit) \(index): status 500: boom")
        let steps = try #require(report["steps"] as? [[String: Any]])
        let attempts = try #require(steps.first { $0["id"] as? String == step }?["attempts"] as? [[String: Any]])
        let failed = try #require(attempts.last)
        #expect(failed["status"] as? Int == 500)
        #expect(failed["iteration"] as? Int == index)
        #expect(attempts.count == index + 1)

        let verbose = try await FlowRunProcess.run(arguments + ["-v"], in: directory)
        #expect(verbose.status == 1, "\(verbose.stderr)")
        let lines = verbose.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("    \(unit) \(index)  GET ") && $0.contains("  500  ") }, "\(verbose.stderr)")
        #expect(lines.contains("error: step '\(step)', attempt 1: \(unit) \(index): status 500: boom"), "\(verbose.stderr)")
    }

    @Test func aFailedIterationIsNamedByItsIndexInTheReport() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("poll.yaml", Self.polling)
        _ = try folder.write("poll.mock.yaml", Self.polls)
        try await expectFailure(
            ["run", "poll.yaml", "--mock", "poll.mock.yaml"], step: "waitForExport", unit: "iteration", index: 2,
            in: folder.url)
    }

    @Test func aFailedPageIsNamedByItsIndexInTheReport() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("pages.mock.yaml", Self.pages)
        try await expectFailure(
            ["run", "workflows/paginate-all-pages.yaml", "--mock", stubs, "--input", "owner=acme", "--input", "repo=api",
             "--input", "token=t-1"],
            step: "issues", unit: "page", index: 1)
    }
}
