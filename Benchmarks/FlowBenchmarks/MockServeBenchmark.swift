import FlowTestServer
import Foundation

/// Requests per second of `flowrun mock serve` answering one stub, under `wrk` at 32 connections, beside the
/// same load against the in-process SwiftNIO test server giving the same answer: what matching, recording
/// and Hummingbird cost over a bare server.
///
/// Needs `wrk` (Debian's `wrk` package) and a release `flowrun` beside this executable.
struct MockServeBenchmark {
    let flowrun: String
    /// How long each load lasts.
    var seconds = 10
    /// Open connections.
    var connections = 32
    /// Rounds per side, alternating; the best counts.
    var rounds = 3

    static let body = #"{"userId":"u-1001","username":"ada"}"#

    static let stubs = """
        flowrun-mock: 1
        stubs:
          - name: user
            match: { method: GET, path: /user }
            respond: { body: { userId: u-1001, username: ada } }
        """

    func run() async throws {
        guard let wrk = Timing.which("wrk") else {
            throw BenchError("wrk is not installed: apt-get install wrk")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-mock-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stubFile = folder.appendingPathComponent("user.mock.yaml")
        try Data(Self.stubs.utf8).write(to: stubFile)

        let server = try MockServeProcess.start(flowrun: flowrun, stubFile: stubFile.path)
        defer { server.stop() }
        try await withTestServer({ _ in .text(Self.body, headers: [("Content-Type", "application/json")]) }) { nio in
            var mockBest = 0.0
            var nioBest = 0.0
            for _ in 0..<rounds {
                mockBest = max(mockBest, try load(wrk, url: server.baseURL + "/user"))
                nioBest = max(nioBest, try load(wrk, url: nio.baseURL + "/user"))
            }
            print("mock serve: \(connections) connections, \(seconds) s per load, best of \(rounds), one stub")
            print(String(format: "  flowrun mock serve:        %9.0f requests/s", mockBest))
            print(String(format: "  in-process NIO test server: %8.0f requests/s", nioBest))
            print(String(format: "  ratio: mock serve answers %.2f× the bare server's rate", mockBest / nioBest))
        }
    }

    /// Runs `wrk` against `url` and returns its requests per second; any non-2xx answer fails the benchmark.
    private func load(_ wrk: String, url: String) throws -> Double {
        let output = try Timing.run(wrk, ["-t", "2", "-c", "\(connections)", "-d", "\(seconds)s", url]).output
        if output.contains("Non-2xx or 3xx responses") { throw BenchError("wrk saw failed answers from \(url):\n\(output)") }
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
            let rate = Double(line.split(separator: " ").last ?? "")
        else { throw BenchError("no rate in wrk's output:\n\(output)") }
        return rate
    }
}

/// `flowrun mock serve --port 0 --quiet` as a child process, and the address it printed.
private final class MockServeProcess {
    let process: Process
    let baseURL: String

    private init(process: Process, baseURL: String) {
        self.process = process
        self.baseURL = baseURL
    }

    static func start(flowrun: String, stubFile: String) throws -> MockServeProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: flowrun)
        process.arguments = ["mock", "serve", stubFile, "--port", "0", "--quiet"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError  // A refused stub file says why.
        try process.run()
        // The first line is `listening on http://127.0.0.1:PORT`.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw BenchError("flowrun mock serve ended before it listened") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "listening on ") else {
            process.terminate()
            throw BenchError("flowrun mock serve printed no address: \(text)")
        }
        let url = text[range.upperBound...].prefix { !$0.isNewline }
        return MockServeProcess(process: process, baseURL: String(url))
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
