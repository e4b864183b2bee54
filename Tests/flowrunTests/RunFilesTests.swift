import FlowCore
import FlowTestServer
import Foundation
import Testing

/// Issue 9 items 8e and 8f: the files `flowrun run` reads are size-checked before they are read, and the
/// reports it writes are written whole or not at all.
struct RunFilesTests {
    /// A file of `size` bytes of YAML comment, so it would parse if it were read.
    private func oversized(_ name: String, in folder: TemporaryFolder, size: Int = 9 << 20) throws -> String {
        let path = folder.url.appendingPathComponent(name).path
        var bytes = [UInt8](repeating: UInt8(ascii: " "), count: size)
        bytes[0] = UInt8(ascii: "#")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [
        ("--inputs", "inputs.yaml", "an inputs file"),
        ("--mock", "big.mock.yaml", "a stub file"),
        ("--env-file", "big.env", "an env file"),
    ])
    func aFileOverTheLimitIsRefusedByItsSize(option: String, name: String, kind: String) async throws {
        let folder = try TemporaryFolder()
        let path = try oversized(name, in: folder)
        let outcome = try await FlowRunProcess.run(
            ["run", "workflows/banking.yaml", "--input", "token=t-1", option, path],
            environment: ["BANK_URL": "http://127.0.0.1:9"])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(path):1:1: the file is larger than 8 MiB, the limit for \(kind)")
                    || outcome.stderr.contains("\(path):1:1: error: the file is larger than 8 MiB, the limit for \(kind)"),
                "\(outcome.stderr)")
    }

    /// The reports' folder disappears while the run waits for the server: neither report can be written, the
    /// run says so and why and exits 2, and no partial file is left behind.
    @Test func reportsThatCannotBeWrittenFailTheRunWithExit2() async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        let reports = folder.url.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let junit = reports.appendingPathComponent("junit.xml").path
        let trace = reports.appendingPathComponent("trace.jsonl").path
        try await withTestServer({ _ in
            try? FileManager.default.removeItem(at: reports)
            return .text("{}", headers: [("Content-Type", "application/json")])
        }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "ping.yaml", "--junit-out", junit, "--trace-out", trace], in: folder.url,
                environment: ["API": server.baseURL])
            #expect(outcome.status == 2, "\(outcome.stderr)")
            // The reason is the folder that is gone, not Foundation's "The operation could not be completed".
            let reason = "the folder \(reports.path) does not exist"
            #expect(outcome.stderr.contains("cannot write the JUnit report to \(junit): \(reason)\n"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot write the trace to \(trace): \(reason)\n"), "\(outcome.stderr)")
            #expect(server.requests.count == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: reports.path))
    }

    /// `--junit-out` is created before the first request, as the other reports are: a path that cannot be written
    /// is named with the reason, exit 2, and nothing is sent or left behind.
    @Test func aJUnitOutThatCannotBeWrittenIsNamedWithTheReason() async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        try await withTestServer({ _ in .text("{}", headers: [("Content-Type", "application/json")]) }) { server in
            let missing = try await FlowRunProcess.run(
                ["run", "ping.yaml", "--junit-out", "/nonexistent/dir/x.xml"], in: folder.url,
                environment: ["API": server.baseURL])
            #expect(missing.status == 2)
            #expect(missing.stderr == "flowrun run: cannot write the JUnit report to /nonexistent/dir/x.xml: the folder "
                + "/nonexistent/dir does not exist\n")
            let aFolder = try await FlowRunProcess.run(
                ["run", "ping.yaml", "--junit-out", folder.url.path], in: folder.url,
                environment: ["API": server.baseURL])
            #expect(aFolder.status == 2)
            #expect(aFolder.stderr == "flowrun run: cannot write the JUnit report to \(folder.url.path): it is a folder\n")
            #expect(server.requests.isEmpty)

            let junit = try folder.write("junit.xml", "old report")
            let written = try await FlowRunProcess.run(
                ["run", "ping.yaml", "--junit-out", junit], in: folder.url, environment: ["API": server.baseURL])
            #expect(written.status == 0, "\(written.stderr)")
            #expect(try String(contentsOfFile: junit, encoding: .utf8).hasPrefix("<?xml"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["junit.xml", "ping.yaml"],
                "no partial file is left behind")
    }

    @Test func aWrittenTraceReplacesTheFileWhole() async throws {
        let folder = try TemporaryFolder()
        let trace = try folder.write("trace.jsonl", "old content\n")
        let outcome = try await FlowRunProcess.run(
            ["run", "workflows/banking.yaml", "--mock", "workflows/banking.mock.yaml",
             "--inputs", "workflows/banking.inputs.json", "--trace-out", trace],
            environment: ["BANK_URL": "https://bank.example"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(!lines.contains("old content"))
        #expect(lines.allSatisfy { $0.hasPrefix("{") })
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}

/// Issue 9 item 9: the response body limit is set from the CLI and named when a body passes it, chunked or not;
/// a request that could not be built still shows its path.
struct RunBodyLimitTests {
    private let workflow = """
        flowrun: 1
        env: { API: {} }
        inputs: { type: object, properties: { id: { type: string } } }
        servers: { api: "{$env.API}" }
        steps:
          - { id: big, server: api, request: { method: GET, path: "/big/{$inputs.id}" } }
        """

    @Test(arguments: [true, false])
    func maxBodySizeSetsTheLimitThatTheErrorNames(declaresLength: Bool) async throws {
        let folder = try TemporaryFolder()
        try folder.write("big.yaml", workflow)
        try await withTestServer({ _ in
            TestReply(headers: [("Content-Type", "application/json")],
                      body: Array(("\"" + String(repeating: "x", count: 3000) + "\"").utf8),
                      declaresLength: declaresLength)
        }) { server in
            let small = try await FlowRunProcess.run(
                ["run", "big.yaml", "--input", "id=a", "--max-body-size", "2KiB"], in: folder.url,
                environment: ["API": server.baseURL])
            #expect(small.status == 1)
            #expect(small.stderr.contains("the response body is larger than 2 KiB"), "\(small.stderr)")
            #expect(small.stderr.contains("--max-body-size"), "\(small.stderr)")

            let large = try await FlowRunProcess.run(
                ["run", "big.yaml", "--input", "id=a", "--max-body-size", "1MiB"], in: folder.url,
                environment: ["API": server.baseURL])
            #expect(large.status == 0, "\(large.stderr)")
        }
    }

    @Test func aSizeThatIsNotOneIsAUsageError() async throws {
        let outcome = try await FlowRunProcess.run(
            ["run", "workflows/banking.yaml", "--max-body-size", "lots"], environment: ["BANK_URL": "http://127.0.0.1:9"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--max-body-size: 'lots' is not a size"), "\(outcome.stderr)")
    }

    @Test func aRequestThatCouldNotBeBuiltShowsItsPathAsWritten() async throws {
        let folder = try TemporaryFolder()
        try folder.write("big.yaml", workflow)
        let outcome = try await FlowRunProcess.run(
            ["run", "big.yaml", "--input", "id=..", "--format", "json"], in: folder.url,
            environment: ["API": "http://127.0.0.1:9"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains(#""url": "/big/{$inputs.id}""#), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(#""request": "GET /big/{$inputs.id}""#), "\(outcome.stdout)")
        #expect(!outcome.stderr.contains("GET  "), "\(outcome.stderr)")
    }
}

/// Issue 9 item 9: sizes are read and written as people write them.
struct ByteCountTests {
    @Test(arguments: [
        ("50MiB", 50 << 20), ("512 KiB", 512 << 10), ("2MB", 2_000_000), ("1048576", 1 << 20), ("3k", 3 << 10),
    ])
    func sizesAreParsed(text: String, bytes: Int) {
        #expect(FlowCore.ByteCount(parsing: text)?.bytes == bytes)
    }

    @Test(arguments: ["", "0", "-1", "1.5MiB", "10 parsecs", "99999999999999999999"])
    func nonSizesAreRefused(text: String) {
        #expect(FlowCore.ByteCount(parsing: text) == nil)
    }

    @Test func sizesAreWrittenInTheLargestUnitThatDividesThem() {
        #expect(FlowCore.ByteCount(10 << 20).description == "10 MiB")
        #expect(FlowCore.ByteCount(1536 << 10).description == "1536 KiB")
        #expect(FlowCore.ByteCount(1000).description == "1000 bytes")
    }
}
