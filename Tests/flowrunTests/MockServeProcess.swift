import Foundation
import Synchronization

/// A `flowrun mock serve` process that a test started: where it listens, what it has printed, and how to stop it.
///
/// Start one with ``withMockServer(_:in:body:)``, which waits for its `listening on` line and kills it if the
/// test leaves it running. Every wait has a timeout, so a server that never listens or never stops fails the test
/// instead of hanging the suite.
struct MockServeProcess: Sendable {
    /// The base URL it printed: `http://127.0.0.1:PORT`.
    var baseURL: String
    /// The process id, for signals.
    var pid: Int32
    /// What it has printed so far, and its exit status once it exits.
    var output: ProcessOutput

    /// The port it listens on.
    var port: Int { Int(baseURL.split(separator: ":").last ?? "") ?? 0 }

    /// Sends `signal` and waits for the process to exit.
    /// - Returns: What it printed and its exit status.
    func stop(with signal: Int32 = SIGTERM, timeout: Duration = .seconds(20)) async throws -> FlowRunProcess.Outcome {
        kill(pid, signal)
        return try await output.waitForExit(timeout: timeout)
    }

    /// Waits until standard error has a line containing `text`: request log lines are printed once the response
    /// is sent, possibly after the client has it.
    func waitForStandardError(containing text: String, timeout: Duration = .seconds(10)) async throws {
        try await output.wait(timeout: timeout, for: "standard error to contain '\(text)'") { $0.stderr.contains(text) }
    }
}

/// What a process printed on standard output and standard error, and its exit status, filled in by the pipes' and
/// the process's handlers as they run.
final class ProcessOutput: Sendable {
    private let state = Mutex(FlowRunProcess.Outcome(status: -1, stdout: "", stderr: ""))
    private let exited = Mutex(false)
    private let closedPipes = Mutex(0)

    /// A wait that ran out of time.
    struct TimedOut: Error, CustomStringConvertible {
        var waitingFor: String
        var outcome: FlowRunProcess.Outcome
        var description: String {
            "timed out waiting for \(waitingFor);\nstdout: \(outcome.stdout)\nstderr: \(outcome.stderr)"
        }
    }

    /// The output so far, and the exit status once ``hasExited``.
    var outcome: FlowRunProcess.Outcome { state.withLock { $0 } }
    /// Whether the process has exited.
    var hasExited: Bool { exited.withLock { $0 } }

    fileprivate func append(_ data: Data, toStandardError: Bool) {
        let text = String(decoding: data, as: UTF8.self)
        state.withLock { toStandardError ? $0.stderr.append(text) : $0.stdout.append(text) }
    }

    fileprivate func exit(with status: Int32) {
        state.withLock { $0.status = status }
        exited.withLock { $0 = true }
    }

    fileprivate func closePipe() {
        closedPipes.withLock { $0 += 1 }
    }

    /// Polls until `condition` holds of the output so far.
    /// - Throws: ``TimedOut`` when it does not hold within `timeout`.
    func wait(
        timeout: Duration, for description: String, until condition: (FlowRunProcess.Outcome) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(outcome) {
            guard ContinuousClock.now < deadline else { throw TimedOut(waitingFor: description, outcome: outcome) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the process to exit, then for its pipes to be drained.
    ///
    /// The exit is not told by the pipes' end: a process that another test starts meanwhile may inherit their
    /// write ends and keep them open. What the process wrote is in the pipes when it exits, so a short wait
    /// for their end, or for the data, is enough.
    func waitForExit(timeout: Duration) async throws -> FlowRunProcess.Outcome {
        try await wait(timeout: timeout, for: "the process to exit") { _ in hasExited }
        try? await wait(timeout: .seconds(2), for: "the pipes to close") { _ in closedPipes.withLock { $0 == 2 } }
        return outcome
    }
}

/// Starts `flowrun mock serve` with `arguments`, waits for its `listening on` line, runs `body` with it, and
/// kills it afterwards if `body` left it running.
/// - Parameters:
///   - arguments: The arguments after `mock serve`; add `--port 0` for a free port.
///   - directory: The working directory; the package root by default.
///   - body: What the test does with the running server.
/// - Returns: What `body` returns.
/// - Throws: ``ProcessOutput/TimedOut`` when the server does not listen within 30 seconds (after a slow start on
///   a loaded machine), an error with its output when it exits instead, and what `body` throws.
func withMockServer<Result>(
    _ arguments: [String], in directory: URL = FlowRunProcess.packageRoot,
    body: (MockServeProcess) async throws -> Result
) async throws -> Result {
    let process = Process()
    process.executableURL = FlowRunProcess.productsDirectory.appendingPathComponent("flowrun")
    process.arguments = ["mock", "serve"] + arguments
    process.currentDirectoryURL = directory
    let output = ProcessOutput()
    let standardOutput = Pipe(), standardError = Pipe()
    process.standardOutput = standardOutput
    process.standardError = standardError
    for (pipe, isError) in [(standardOutput, false), (standardError, true)] {
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                output.closePipe()
            } else {
                output.append(data, toStandardError: isError)
            }
        }
    }
    process.terminationHandler = { process in output.exit(with: process.terminationStatus) }
    try process.run()
    let pid = process.processIdentifier
    defer {
        if !output.hasExited { kill(pid, SIGKILL) }
    }
    try await output.wait(timeout: .seconds(30), for: "the 'listening on' line") {
        $0.stdout.contains("\n") || output.hasExited
    }
    let line = output.outcome.stdout.split(separator: "\n").first ?? ""
    guard !output.hasExited, line.hasPrefix("listening on http://") else {
        throw ProcessOutput.TimedOut(waitingFor: "the 'listening on' line, not this", outcome: output.outcome)
    }
    let server = MockServeProcess(baseURL: String(line.dropFirst("listening on ".count)), pid: pid, output: output)
    return try await body(server)
}
