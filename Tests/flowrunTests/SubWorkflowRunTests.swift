import Foundation
import Testing

/// `flowrun run` and `flowrun lint` on a workflow that calls another file: the called file is found next to
/// the caller from any working directory, the `--mock` dispatcher answers its steps, the JSON report nests its
/// steps under `subSteps`, and its password input never shows.
struct SubWorkflowRunTests {
    private static let stubs = """
        flowrun-mock: 1
        stubs:
          - { match: { method: POST, path: /login }, respond: { body: { token: t-1, expiresIn: 60 } } }
          - { match: { method: GET, path: /invoices }, respond: { body: [{ id: inv-1, amount: 3 }] } }
        """

    @Test func theJSONReportNestsTheCalledWorkflowsStepsAndHidesItsPassword() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("stubs.mock.yaml", Self.stubs)
        let run = try await FlowRunProcess.run(
            ["run", "workflows/list-invoices.yaml", "--mock", stubs, "--format", "json",
             "--input", "username=ada", "--input", "password=correct-horse-battery"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("correct-horse-battery"), "\(run.stdout)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let steps = report?["steps"] as? [[String: Any]]
        let login = steps?.first { $0["id"] as? String == "login" }
        #expect(login?["workflow"] as? String == "./shared-login.yaml")
        let subSteps = login?["subSteps"] as? [[String: Any]]
        #expect(subSteps?.map { $0["id"] as? String } == ["token"])
        #expect((login?["outputs"] as? [String: Any])?["token"] as? String == "t-1")
    }

    @Test func lintReportsACycleBetweenFilesAtTheWorkflowValue() async throws {
        let folder = try TemporaryFolder()
        try folder.write("a.yaml", "flowrun: 1\nsteps:\n  - { id: b, workflow: b.yaml }\n")
        try folder.write("b.yaml", "flowrun: 1\nsteps:\n  - { id: a, workflow: ./a.yaml }\n")
        let lint = try await FlowRunProcess.run(["lint", "a.yaml"], in: folder.url)
        #expect(lint.status == 1 || lint.status == 2, "\(lint.stdout)\(lint.stderr)")
        let text = lint.stdout + lint.stderr
        #expect(text.contains("a.yaml:3:24"), "\(text)")
        #expect(text.contains("a.yaml → b.yaml → a.yaml"), "\(text)")
        #expect(text.contains("[sub-workflow]"), "\(text)")
    }
}
