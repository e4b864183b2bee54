import Foundation
import Testing

/// `lint` and `test` search a symbolic link to a folder, given on the command line, as the folder it points to,
/// and name the files they find by the path as given.
struct SymlinkedFolderTests {
    /// A folder holding `real/` with `files` (name to contents) and `link`, a symbolic link to `real`.
    private func linkedFolder(_ files: [String: String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (name, contents) in files { try folder.write("real/\(name)", contents) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("link").path, withDestinationPath: "real")
        return folder
    }

    @Test(arguments: ["link", "link/"])
    func lintChecksTheFilesOfALinkedFolder(_ argument: String) async throws {
        let bad = WorkflowTexts.clean.replacingOccurrences(of: "/ping", with: "\"/p/{$inputs.id}\"")
        let folder = try linkedFolder(["ok.yaml": WorkflowTexts.clean, "sub/bad.yaml": bad])
        let outcome = try await FlowRunProcess.run(["lint", argument], in: folder.url)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let prefix = argument.hasSuffix("/") ? argument : argument + "/"
        #expect(outcome.stdout.hasPrefix("\(prefix)sub/bad.yaml:6:48: error: '$inputs.id' reads input 'id'"))
        #expect(outcome.stdout.contains("2 files checked: 1 error, 0 warnings"))
    }

    @Test func testRunsTheTestFilesOfALinkedFolder() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("examples").path,
            withDestinationPath: FlowRunProcess.packageRoot.appendingPathComponent("workflows").path)
        let outcome = try await FlowRunProcess.run(["test", "examples/", "--filter", "banking"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("examples/banking.test.yaml\n"))
        #expect(!outcome.stderr.contains("no test files"))
    }

    @Test func aLinkToNothingIsStillNoSuchFolder() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("dangling").path, withDestinationPath: "gone")
        let outcome = try await FlowRunProcess.run(["lint", "dangling"], in: folder.url)
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "flowrun lint: dangling: no such file or folder\n")
    }
}
