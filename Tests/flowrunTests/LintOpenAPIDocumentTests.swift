import Foundation
import Testing

/// `flowrun lint shop.openapi.yaml`: an OpenAPI document named on its own is checked as the document a workflow's
/// `openapi:` reads, not as a workflow.
struct LintOpenAPIDocumentTests {
    @Test func anOpenAPIDocumentIsCheckedAsOne() async throws {
        let folder = try TemporaryFolder()
        let document = try String(
            contentsOf: FlowRunProcess.packageRoot.appendingPathComponent("workflows/user-orders.openapi.yaml"),
            encoding: .utf8)
        try folder.write("shop.openapi.yaml", document)
        let clean = try await FlowRunProcess.run(["lint", "shop.openapi.yaml"], in: folder.url)
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("1 file checked, no problems"), "\(clean.stdout)")
        #expect(!clean.stdout.contains("flowrun"), "\(clean.stdout)")

        let misspelt = document.replacingOccurrences(of: "description: The user.", with: "descripton: The user.")
        #expect(misspelt != document)
        try folder.write("bad.openapi.yaml", misspelt)
        let line = (misspelt.components(separatedBy: "\n").firstIndex { $0.contains("descripton:") } ?? 0) + 1
        let bad = try await FlowRunProcess.run(["lint", "bad.openapi.yaml"], in: folder.url)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains(
            "bad.openapi.yaml:\(line):11: error: unknown key 'descripton' in a response; did you mean 'description'? "
                + "[unknown-key]"), "\(bad.stdout)")
        #expect(bad.stdout.contains("1 file checked: 1 error, 0 warnings"), "\(bad.stdout)")
    }
}
