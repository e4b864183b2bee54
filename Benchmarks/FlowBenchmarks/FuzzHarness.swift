import FlowCore
import FlowOpenAPI
import FlowTesting
import Foundation

/// A seeded mutation fuzzer over the loader, decoders, compiler, policy analysis and graph rendering.
///
///     flowrun-benchmarks fuzz --seconds 600 --seed 1 [--out DIR]
///     flowrun-benchmarks fuzz --seed 1 --replay 4711
///
/// The seeds are the example workflows, mocks and tests (`workflows/`), the
/// test fixtures (`Tests/flowrunTests/Fixtures`, Arazzo documents among them) and
/// the Arazzo specification's examples when `../shared/conformance` is there
/// (the compiler hands a document with an `arazzo` key to the Arazzo front end).
/// Execution `i` of seed `S`
/// mutates one of them with a generator seeded from `S` and `i`, so
/// `--replay i` rebuilds the same input and runs it in this process.
///
/// The executions run in a child process (`fuzz-child`), in-process there,
/// one after another. Before each, the child writes the input to
/// `DIR/current.yaml`; when a crash kills the child, the parent keeps that
/// file as `crash-<i>.yaml`, reads the fatal error from the child's standard
/// error, and starts a new child at the next execution. Crashes are counted
/// as distinct by their fatal-error line.
struct FuzzHarness {
    var seconds = 60
    var seed: UInt64 = 1
    var output: URL

    init(arguments: [String]) {
        seconds = Self.option("seconds", in: arguments).flatMap(Int.init) ?? 60
        seed = Self.option("seed", in: arguments).flatMap(UInt64.init) ?? 1
        output = URL(fileURLWithPath: Self.option("out", in: arguments) ?? "/tmp/flowrun-fuzz-\(seed)")
    }

    /// Runs children until `seconds` have passed, then prints what they did.
    func run(executable: String) throws {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let deadline = Date().addingTimeInterval(Double(seconds))
        var next = 0
        var crashes: [String: [Int]] = [:]
        var children = 0
        var located = 0
        print("fuzzing for \(seconds) s with seed \(seed); inputs and crashes in \(output.path)")
        while Date() < deadline {
            children += 1
            let stderrPath = output.appendingPathComponent("child.stderr")
            _ = FileManager.default.createFile(atPath: stderrPath.path, contents: nil)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = [
                "fuzz-child", "--seed", "\(seed)", "--from", "\(next)",
                "--until", "\(Int(deadline.timeIntervalSince1970.rounded(.up)))", "--out", output.path,
            ]
            // The runtime's backtracer takes seconds per crash; the fatal-error line is all the harness needs.
            child.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
            let pipe = Pipe()
            child.standardOutput = pipe
            child.standardError = try FileHandle(forWritingTo: stderrPath)
            try child.run()
            let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            if child.terminationReason == .exit, child.terminationStatus == 0,
                let last = printed.split(separator: "\n").last, last.hasPrefix("next "),
                let end = Int(last.dropFirst(5))
            {
                next = end
                continue
            }
            // The child crashed (or failed): the input it was running is in current.yaml.
            let current = output.appendingPathComponent("current.yaml")
            let saved = (try? Data(contentsOf: current)) ?? Data()
            let index = Self.executionIndex(in: saved) ?? next
            let stderr = (try? String(contentsOf: stderrPath, encoding: .utf8)) ?? ""
            var signature = Self.signature(stderr: stderr, status: child.terminationStatus)
            // The runtime's line names the conversion, not the caller: a replay with the backtracer finds the
            // first frame in flowrun's sources. It takes a second or two, so only the first 100 are located.
            if located < 100 {
                located += 1
                signature += try locate(executable: executable, index: index).map { " in \($0)" } ?? ""
            }
            // Ten inputs per crash are plenty to reproduce and minimise it.
            if crashes[signature, default: []].count < 10 {
                try saved.write(to: output.appendingPathComponent("crash-\(index).yaml"))
            }
            if crashes[signature] == nil { print("crash at execution \(index): \(signature)") }
            crashes[signature, default: []].append(index)
            next = index + 1
        }
        print("executions: \(next) in \(seconds) s (\(next / max(1, seconds))/s), \(children) child process(es)")
        print("distinct crashes: \(crashes.count)")
        for (signature, indices) in crashes.sorted(by: { $0.key < $1.key }) {
            print("  \(indices.count)× \(signature)  (first: --replay \(indices[0]))")
        }
    }

    /// The first frame in flowrun's sources of execution `index`'s crash: `DurationParser.parse(_:)
    /// (FlowCore/Decoding/DurationParser.swift:35)`.
    private func locate(executable: String, index: Int) throws -> String? {
        let trace = output.appendingPathComponent("replay.stderr")
        _ = FileManager.default.createFile(atPath: trace.path, contents: nil)
        let replay = Process()
        replay.executableURL = URL(fileURLWithPath: executable)
        replay.arguments = ["fuzz", "--seed", "\(seed)", "--replay", "\(index)"]
        replay.environment = ProcessInfo.processInfo.environment.merging(
            ["SWIFT_BACKTRACE": "enable=yes,interactive=no,color=no,symbolicate=full"]) { $1 }
        replay.standardOutput = FileHandle.nullDevice
        replay.standardError = try FileHandle(forWritingTo: trace)
        try replay.run()
        replay.waitUntilExit()
        let lines = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n")
        guard let frame = lines.first(where: { $0.contains("/Sources/") }),
            let at = frame.range(of: "/Sources/"), let plus = frame.range(of: " + ")
        else { return nil }
        let function = frame[..<plus.lowerBound].split(separator: " ", maxSplits: 3).last.map(String.init) ?? ""
        let place = frame[at.upperBound...].split(separator: ":").prefix(2).joined(separator: ":")
        return "\(function) (\(place))"
    }

    /// The child: executions from `--from` until the epoch second `--until`, then `next <index>` on stdout.
    static func runChild(arguments: [String]) throws {
        let seed = option("seed", in: arguments).flatMap(UInt64.init) ?? 1
        var index = option("from", in: arguments).flatMap(Int.init) ?? 0
        let until = Double(option("until", in: arguments).flatMap(Int.init) ?? 0)
        let output = URL(fileURLWithPath: option("out", in: arguments) ?? "/tmp/flowrun-fuzz-\(seed)")
        let corpus = try Corpus.load()
        let current = open(output.appendingPathComponent("current.yaml").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard current >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(current) }
        while index % 64 != 0 || Date().timeIntervalSince1970 < until {
            let (file, input) = corpus.input(seed: seed, execution: index)
            // The input must be on disk before it runs: a crash ends the process without a chance to save it.
            let record = Array("# fuzz execution \(index) of seed \(seed), mutated from \(file.path)\n".utf8) + input
            ftruncate(current, 0)
            _ = record.withUnsafeBytes { pwrite(current, $0.baseAddress, $0.count, 0) }
            exercise(input, as: file)
            index += 1
        }
        print("next \(index)")
    }

    /// Rebuilds and runs execution `--replay` in this process, printing the input first.
    static func replay(arguments: [String]) throws {
        let seed = option("seed", in: arguments).flatMap(UInt64.init) ?? 1
        let index = option("replay", in: arguments).flatMap(Int.init) ?? 0
        let (file, input) = try Corpus.load().input(seed: seed, execution: index)
        print("# execution \(index) of seed \(seed), mutated from \(file.path)")
        print(String(decoding: input, as: UTF8.self))
        exercise(input, as: file)
        print("# no crash")
    }

    /// Runs every stage that reads the input's kind of file: what `lint`, `graph`, `lint --explain` and
    /// `test` do before the first request.
    static func exercise(_ input: [UInt8], as file: Corpus.File) {
        switch file.kind {
        case .workflow:
            // As `run` compiles: with OpenAPI documents read (beside the seed file), and an Arazzo document's
            // workflow lowered into a plan (its first, when it has several).
            var compiler = WorkflowCompiler().withOpenAPI()
            compiler.compilesArazzo = true
            var result = compiler.check(bytes: input, path: file.path)
            if result.kind == .arazzo, result.plan == nil, !result.hasErrors,
                let root = try? YAMLLoader().load(input, path: file.path),
                let first = ArazzoCheck.check(root, path: file.path).document.workflows.first
            {
                compiler.arazzoWorkflowID = first.id.value
                result = compiler.check(bytes: input, path: file.path)
            }
            if let plan = result.plan {
                let analysis = PolicyAnalysis(plan: plan)
                for step in analysis.steps {
                    _ = step.requests
                    if case .atMost(let duration) = step.duration { _ = duration.workflowText }
                }
                _ = PlanGraph(plan).dot()
                _ = PlanGraph(plan).mermaid()
            }
            _ = result.diagnostics.map(\.description)
        case .mock:
            _ = try? MockStubs.load(yaml: String(decoding: input, as: UTF8.self), path: file.path)
        case .test:
            let result = WorkflowTestFile.check(bytes: input, path: file.path)
            _ = result.diagnostics.map(\.description)
        }
    }

    /// The seed files.
    struct Corpus {
        struct File {
            enum Kind { case workflow, mock, test }
            var path: String
            var kind: Kind
            var bytes: [UInt8]
        }

        var files: [File]

        /// The YAML files under `workflows/` and `Tests/flowrunTests/Fixtures`, from the package root (the current
        /// directory, or three levels above the executable).
        static func load() throws -> Corpus {
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            let roots = [
                URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                executable.deletingLastPathComponent().appendingPathComponent("../../..").standardized,
            ]
            guard let root = roots.first(where: {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("workflows").path)
            }) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "run from the package root"])
            }
            var files: [File] = []
            for folder in ["workflows", "Tests/flowrunTests/Fixtures"] {
                let base = root.appendingPathComponent(folder)
                let paths = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
                for relative in paths.sorted() where relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                    let url = base.appendingPathComponent(relative)
                    let kind: File.Kind = relative.contains(".mock.") ? .mock
                        : relative.contains(".test.") ? .test : .workflow
                    files.append(File(
                        path: url.path, kind: kind, bytes: Array((try? Data(contentsOf: url)) ?? Data())))
                }
            }
            // The Arazzo specification's examples, when the conformance suites are beside the repository: read
            // from there, never copied.
            let arazzo = root.appendingPathComponent("../shared/conformance/arazzo/examples").standardized
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: arazzo.path)) ?? []).sorted()
            where name.contains("arazzo") && name.hasSuffix(".yaml") {
                let url = arazzo.appendingPathComponent(name)
                files.append(File(path: url.path, kind: .workflow, bytes: Array((try? Data(contentsOf: url)) ?? Data())))
            }
            return Corpus(files: files)
        }

        /// Execution `index` of `seed`: a seed file and its mutation.
        func input(seed: UInt64, execution index: Int) -> (File, [UInt8]) {
            var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(index))
            _ = random.next()
            let file = files.randomElement(using: &random)!
            let mutator = FuzzMutator(corpus: files.map(\.bytes))
            return (file, mutator.mutate(file.bytes, using: &random))
        }
    }

    // MARK: Private

    private static func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    /// The execution number in the first line of a saved input.
    private static func executionIndex(in saved: Data) -> Int? {
        let line = String(decoding: saved.prefix(200), as: UTF8.self).split(separator: "\n").first ?? ""
        let words = line.split(separator: " ")
        guard words.count > 3, words[1] == "fuzz", words[2] == "execution" else { return nil }
        return Int(words[3])
    }

    /// The crash's fatal-error line, without addresses, or how the child ended.
    private static func signature(stderr: String, status: Int32) -> String {
        let lines = stderr.split(separator: "\n")
        if let fatal = lines.first(where: { $0.contains("Fatal error") || $0.contains("fatal error") }) {
            return String(fatal.prefix(300))
        }
        return "exited with status \(status): " + (lines.last.map { String($0.prefix(200)) } ?? "")
    }
}
