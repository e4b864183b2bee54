import Foundation
import Testing

/// docs/testing-workflows.md's "Reading a failure" shows what `flowrun test` prints for its first test file with
/// three expectations changed; the output must be what the command prints, but for the times it measures.
struct FailureDiffExampleTests {
    /// The text of docs/testing-workflows.md.
    private let page: String

    init() throws {
        page = try String(
            contentsOf: FlowRunProcess.packageRoot.appendingPathComponent("docs/testing-workflows.md"), encoding: .utf8)
    }

    /// The fenced block of `fence` that follows `marker` on the page.
    private func block(after marker: String, fence: String) throws -> String {
        let start = try #require(page.range(of: marker)).upperBound
        let open = try #require(page.range(of: fence + "\n", range: start..<page.endIndex)).upperBound
        let close = try #require(page.range(of: "\n```\n", range: open..<page.endIndex)).lowerBound
        return String(page[open..<close])
    }

    /// `text` with its measured times (`0.9 ms`, `(12 ms)`) as `T`: they change from run to run.
    private func timeless(_ text: String) -> String {
        text.replacing(/[0-9.]+ ms/, with: "T")
    }

    @Test func theFailureShownIsTheFailurePrinted() async throws {
        let tests = try block(after: "## A first test file", fence: "```yaml")
        let changed = tests
            .replacingOccurrences(of: "outputs: { username: ada }", with: "outputs: { username: bob }")
            .replacingOccurrences(of: "Bearer tok-fresh-2 }", with: "Bearer tok-fresher-3 }")
            .replacingOccurrences(of: "elapsed: 1.4s", with: "elapsed: 1s")
        #expect(changed.components(separatedBy: "\n").count == tests.components(separatedBy: "\n").count)
        #expect(changed != tests)
        let folder = try TemporaryFolder()
        let workflow = FlowRunProcess.packageRoot.appendingPathComponent("workflows/banking.yaml")
        try folder.write("workflows/banking.yaml", String(contentsOf: workflow, encoding: .utf8))
        try folder.write("workflows/banking.test.yaml", changed + "\n")
        let outcome = try await FlowRunProcess.run(["test", "workflows/banking.test.yaml"], in: folder.url)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let shown = try block(after: "## Reading a failure", fence: "```")
        #expect(timeless(outcome.stdout) == timeless(shown) + "\n")
    }
}
