import Foundation

/// Times `flowrun lint` on 1,000 generated workflows and on one file, against `check-jsonschema`.
struct LintBenchmark {
    let flowrun: String

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = WorkflowGenerator(seed: 42)
        var lines = 0
        var paths: [String] = []
        for index in 0..<1000 {
            let text = generator.workflow(index: index)
            lines += text.split(separator: "\n").count
            let path = folder.appendingPathComponent("wf-\(index).yaml").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        print("generated 1000 workflows, \(lines / 1000) lines each on average, in \(folder.path)")

        // Warm the file cache and check the files are clean, so the timings measure lint, not errors.
        let check = try Timing.run(flowrun, ["lint", "--quiet", folder.path])
        guard check.status == 0 else {
            print("the generated files do not lint clean:\n\(check.output)")
            exit(1)
        }
        let all = try Timing.best(of: 5) { try Timing.run(flowrun, ["lint", "--quiet", folder.path]) }
        print(String(format: "flowrun lint, 1000 files:        %7.1f ms wall (best of 5, process start included)", all * 1000))
        let one = try Timing.best(of: 20) { try Timing.run(flowrun, ["lint", "--quiet", paths[0]]) }
        print(String(format: "flowrun lint, 1 file:            %7.1f ms wall (best of 20)", one * 1000))

        let schema = URL(fileURLWithPath: flowrun).deletingLastPathComponent()
            .appendingPathComponent("../../schemas/workflow.schema.json").standardized.path
        let schemaPath = FileManager.default.fileExists(atPath: schema) ? schema : "schemas/workflow.schema.json"
        if let checker = Timing.which("check-jsonschema") {
            let peer = try Timing.best(of: 3) { try Timing.run(checker, ["--schemafile", schemaPath] + paths) }
            print(String(format: "check-jsonschema, 1000 files:    %7.1f ms wall (best of 3, schema only)", peer * 1000))
            print(String(format: "ratio: flowrun lint is %.1f× faster than check-jsonschema", peer / all))
        } else {
            print("check-jsonschema is not installed (pip install check-jsonschema); no comparison")
        }
    }
}

/// Wall-clock timing of child processes.
enum Timing {
    struct Outcome {
        var status: Int32
        var output: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// The fastest of `count` runs, in seconds.
    static func best(of count: Int, _ body: () throws -> Outcome) throws -> Double {
        var best = Double.infinity
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
