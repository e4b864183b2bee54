import Foundation

/// Runs the built `flowrun` executable, as a user's shell or CI would.
struct FlowRunProcess {
    /// What a run printed and how it exited.
    struct Outcome {
        /// The exit status.
        var status: Int32
        /// Everything written to standard output.
        var stdout: String
        /// Everything written to standard error.
        var stderr: String
    }

    /// The folder that holds the build products, the test bundle's and the executable's.
    static var productsDirectory: URL {
        let bundle = Bundle.main.bundleURL
        // `swift test` runs from the products folder (`.build/debug`) or a bundle inside it.
        return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    }

    /// Runs `flowrun` with `arguments` in `directory`.
    /// - Parameters:
    ///   - arguments: The command-line arguments.
    ///   - directory: The working directory; the package root by default.
    ///   - environment: Extra environment variables.
    /// - Returns: What the run printed and its exit status.
    static func run(
        _ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:]
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("flowrun")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// The package's root folder, found from this source file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// A temporary folder that a test writes files into; removed when the value is deinitialized.
final class TemporaryFolder {
    /// The folder.
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` to `name` inside the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
        return file.path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
