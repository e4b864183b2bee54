import Foundation
import Synchronization

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

    /// A run that was killed because it did not exit in time.
    struct TimedOut: Error, CustomStringConvertible {
        /// The command-line arguments.
        var arguments: [String]
        /// What it printed before it was killed.
        var outcome: Outcome

        var description: String {
            "flowrun \(arguments.joined(separator: " ")) did not exit in time and was killed;\n"
                + "stdout: \(outcome.stdout)\nstderr: \(outcome.stderr)"
        }
    }

    /// Sends `signal` to the run whose process id `started` puts in `pid`, once it is there.
    ///
    /// A test server's handler calls this when the run's request arrives; on a loaded machine that can be before
    /// this process has noted the child's id, and `kill(0, …)` would signal the whole process group, the test
    /// runner included. So it waits for the id, up to five seconds, on the handler's thread (not a test's task).
    static func signal(_ pid: borrowing Mutex<Int32>, _ signal: Int32) {
        for _ in 0..<1_000 {
            let child = pid.withLock { $0 }
            if child != 0 {
                kill(child, signal)
                return
            }
            usleep(5_000)
        }
    }

    /// Runs `flowrun` with `arguments` in `directory`, blocking this thread until it exits.
    ///
    /// Private: tests call the async overload, which runs this on a thread of its own.
    /// - Parameters:
    ///   - arguments: The command-line arguments.
    ///   - directory: The working directory; the package root by default.
    ///   - environment: Extra environment variables.
    ///   - removing: Variables of this process's environment that the run must not see.
    ///   - timeout: How long the run may take before it is killed and ``TimedOut`` is thrown.
    ///   - started: Told the process id once the process runs, so a test can signal it.
    /// - Returns: What the run printed and its exit status.
    private static func run(
        _ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:],
        removing: Set<String> = [], timeout: Duration = .seconds(60), started: (@Sendable (Int32) -> Void)? = nil
    ) throws -> Outcome {
        var variables = ProcessInfo.processInfo.environment
        for name in removing { variables[name] = nil }
        variables.merge(environment) { $1 }

        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("flowrun")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = variables
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        started?(process.processIdentifier)

        // Standard error is read on its own thread while this one reads standard output, so a child
        // that fills one pipe (trace logging) never blocks while the other is being drained.
        let stderrData = Mutex(Data())
        let stderrRead = DispatchGroup()
        let stderrHandle = err.fileHandleForReading
        DispatchQueue.global().async(group: stderrRead) {
            let data = stderrHandle.readDataToEndOfFile()
            stderrData.withLock { $0 = data }
        }
        // A hung run is killed, so a test fails instead of stalling the whole suite.
        let killed = Atomic(false)
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            killed.store(true, ordering: .relaxed)
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(timeout.milliseconds), execute: watchdog)

        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        stderrRead.wait()
        process.waitUntilExit()
        watchdog.cancel()
        let outcome = Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData.withLock { $0 }, as: UTF8.self))
        if killed.load(ordering: .relaxed) { throw TimedOut(arguments: arguments, outcome: outcome) }
        return outcome
    }

    /// Runs `flowrun` as ``run(_:in:environment:removing:timeout:)`` does, on a thread of its own.
    ///
    /// Waiting for a process blocks a thread; an async test that did so on the cooperative pool,
    /// which has as many threads as the machine has cores, would hold up every other test.
    static func run(
        _ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:],
        removing: Set<String> = [], timeout: Duration = .seconds(60), started: (@Sendable (Int32) -> Void)? = nil
    ) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    try run(
                        arguments, in: directory, environment: environment, removing: removing, timeout: timeout,
                        started: started)
                })
            }
        }
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

extension Duration {
    /// The duration in whole milliseconds.
    fileprivate var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

extension TemporaryFolder {
    /// A folder holding `ping.yaml`: one `GET /ping` to the server at `$env.API`, followed by `keys`, top-level
    /// keys such as a `catch` rule.
    static func withPingWorkflow(_ keys: String = "") throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("ping.yaml", """
            flowrun: 1
            env: { API: {} }
            servers: { api: "{$env.API}" }
            steps:
              - { id: ping, server: api, request: { method: GET, path: /ping } }
            \(keys)
            """)
        return folder
    }

    /// A folder holding `slow.yaml`: one `GET /slow` to the server at `$env.API`, for a test that interrupts it.
    static func withSlowWorkflow() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("slow.yaml", """
            flowrun: 1
            name: slow
            env: { API: {} }
            servers: { api: "{$env.API}" }
            steps:
              - { id: slow, server: api, request: { method: GET, path: /slow } }
            """)
        return folder
    }
}
