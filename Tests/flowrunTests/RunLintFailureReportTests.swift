import Foundation
import Testing

/// docs/run-reports.md: a workflow that does not compile is a failed run in `--format json` and `junit` too:
/// the report's error is the first error diagnostic, with its lint code and location, and the exit status 2.
@Suite(.timeLimit(.minutes(2)))
struct RunLintFailureReportTests {
    /// Two errors: an unknown key on line 6, then a step that runs after one that does not exist.
    private static let broken = """
        flowrun: 1
        name: broken
        servers: { api: { url: "https://api.example" } }
        defaults: { server: api }
        steps:
          - { id: a, request: { method: GET, path: /a }, bogus: 1 }
          - { id: b, request: { method: GET, path: /b }, after: [nope] }
        """

    /// `flowrun run broken.yaml` with `arguments`, in a folder of its own.
    static func runBroken(_ arguments: [String]) async throws -> FlowRunProcess.Outcome {
        let folder = try TemporaryFolder()
        try folder.write("broken.yaml", broken)
        return try await FlowRunProcess.run(["run", "broken.yaml"] + arguments, in: folder.url)
    }

    @Test func theJSONReportNamesTheFirstErrorWithItsLocation() async throws {
        let outcome = try await Self.runBroken(["--format", "json"])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stdout)")
        #expect(report["status"] as? String == "failed")
        #expect(report["workflow"] as? String == "broken.yaml")
        #expect((report["steps"] as? [Any])?.isEmpty == true)
        let error = try #require(report["error"] as? [String: Any])
        #expect(error["code"] as? String == "unknown-key")
        #expect((error["message"] as? String)?.contains("bogus") == true, "\(error)")
        let location = try #require(error["location"] as? [String: Any])
        #expect(location["path"] as? String == "broken.yaml")
        #expect(location["line"] as? Int == 6)
        // Every diagnostic is still printed on standard error, as without --format.
        #expect(outcome.stderr.contains("broken.yaml:6:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("nope"), "\(outcome.stderr)")
    }

    @Test func theJUnitReportFailsTheWorkflowCase() async throws {
        let outcome = try await Self.runBroken(["--format", "junit"])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("<?xml"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("<failure"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("unknown-key"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("broken.yaml:6:"), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("nope"), "\(outcome.stderr)")
    }

    @Test func theHumanFormatPrintsNothingOnStandardOutput() async throws {
        let outcome = try await Self.runBroken([])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
        #expect(outcome.stderr.contains("broken.yaml:6:"), "\(outcome.stderr)")
    }

    @Test func aFileThatCannotBeReadIsAFailedReportToo() async throws {
        let folder = try TemporaryFolder()
        let outcome = try await FlowRunProcess.run(["run", "missing.yaml", "--format", "json"], in: folder.url)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stdout)")
        #expect(report["status"] as? String == "failed")
        let error = try #require(report["error"] as? [String: Any])
        #expect(error["code"] as? String == "unreadable-file")
        #expect((error["message"] as? String)?.contains("missing.yaml") == true, "\(error)")
        #expect(outcome.stderr.contains("missing.yaml"), "\(outcome.stderr)")
    }
}
