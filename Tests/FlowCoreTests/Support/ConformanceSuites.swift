import Foundation
import Testing

/// Where the public conformance suites are: `$FLOWRUN_CONFORMANCE_DIR`, or `../shared/conformance` beside the
/// repository (as in CI). A user's clone has neither, and the conformance tests are then skipped with a notice.
enum ConformanceSuites {
    /// The folder of the suites, or `nil` when it is absent.
    static let folder: URL? = {
        var candidates: [URL] = []
        if let configured = ProcessInfo.processInfo.environment["FLOWRUN_CONFORMANCE_DIR"], !configured.isEmpty {
            candidates.append(URL(fileURLWithPath: configured))
        }
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(repository.appendingPathComponent("../shared/conformance").standardizedFileURL)
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("README.md").path) }
    }()

    /// Why the conformance tests are skipped, shown by the test runner.
    static let absenceNotice: Comment = """
        the conformance suites are absent: set FLOWRUN_CONFORMANCE_DIR or place them at ../shared/conformance
        """

    /// The suite folder named `name`, when the suites are present.
    static func suite(_ name: String) -> URL? {
        folder.map { $0.appendingPathComponent(name) }
    }

    /// The entries of a folder, sorted by name.
    static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Whether `url` is a folder.
    static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
