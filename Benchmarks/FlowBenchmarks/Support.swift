import FlowCore
import Foundation
import Logging

/// Small helpers the in-process benchmarks share.
enum Bench {
    /// A logger that drops everything, so neither side of a comparison pays for output.
    static let quietLogger = Logger(label: "flowrun-benchmarks") { _ in SwiftLogNoOpLogHandler() }

    /// The resident set size of this process in bytes, from `/proc/self/status` (`VmRSS`), or 0 where there is none.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }

    /// Wall-clock and CPU seconds that `body` took.
    struct Timed {
        var wall: Double
        /// CPU time of the whole process, every thread; steadier than `wall` on a busy machine.
        var cpu: Double

        static let infinity = Timed(wall: .infinity, cpu: .infinity)

        /// The fastest of two measurements, by each measure.
        func best(_ other: Timed) -> Timed { Timed(wall: min(wall, other.wall), cpu: min(cpu, other.cpu)) }
    }

    /// How long `body` took.
    static func measure(_ body: () async throws -> Void) async rethrows -> Timed {
        let cpuStart = cpuSeconds()
        let start = ContinuousClock.now
        try await body()
        let elapsed = start.duration(to: .now).components
        return Timed(
            wall: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, cpu: cpuSeconds() - cpuStart)
    }

    /// The CPU time this process has used so far, in seconds.
    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A file of the repository (`workflows/banking.yaml`), looked up from the working directory and
    /// from the binary's place in `.build-release/release/`.
    static func repositoryFile(_ relativePath: String) throws -> String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relativePath),
            binary.appendingPathComponent("../../\(relativePath)").standardized,
            binary.appendingPathComponent("../../../\(relativePath)").standardized,
        ]
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate.path) {
            return try String(contentsOf: candidate, encoding: .utf8)
        }
        throw BenchError("cannot find \(relativePath); run the benchmarks from the repository's root")
    }

    /// Compiles a workflow, failing the benchmark with its first error.
    static func compile(_ yaml: String, path: String) throws -> Plan {
        do {
            return try WorkflowCompiler().compile(yaml: yaml, path: path)
        } catch {
            throw BenchError("\(path) does not compile: \(error)")
        }
    }

    /// Megabytes, for printing.
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
}

/// A benchmark that could not run.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
