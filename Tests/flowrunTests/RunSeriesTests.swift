import FlowTestServer
import Foundation
import Synchronization
import Testing

/// `flowrun run --repeat N` and `--inputs-each FILE`: several runs on one engine, against a real server on 127.0.0.1.
struct RunSeriesTests {
    /// `item.yaml`: one `GET /items/{id}?note=…` with an `X-Token` header from the secret `token` input; its
    /// output `id` is the response's `id`.
    private static func itemWorkflow(policy: String = "") throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("item.yaml", """
            flowrun: 1
            env: { API: {} }
            servers: { api: "{$env.API}" }
            inputs:
              type: object
              required: [id, note, token]
              properties:
                id: { type: integer }
                note: { type: string }
                token: { type: string, format: password }
            \(policy)
            steps:
              - id: item
                server: api
                \(policy.isEmpty ? "" : "policy: guarded")
                request:
                  method: GET
                  path: "/items/{$inputs.id}"
                  query: { note: $inputs.note }
                  headers: { X-Token: $inputs.token }
                outputs: { id: $response.body#/id }
            outputs: { id: $steps.item.outputs.id }
            """)
        return folder
    }

    /// Answers `{"id": N}` for `/items/N`, and 500 with the request's token in the body for `/items/13`.
    private static let items: @Sendable (RecordedRequest) -> TestReply = { request in
        let id = request.path.split(separator: "/").last.map(String.init) ?? ""
        if id == "13" {
            return TestReply(status: 500, body: Array("unlucky \(request.values("X-Token").first ?? "")".utf8))
        }
        return TestReply(headers: [("Content-Type", "application/json")], body: Array(#"{"id": \#(id)}"#.utf8))
    }

    private static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func dashDashRepeatRunsTheWorkflowNTimesAndSummarises() async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        try await withTestServer { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "ping.yaml", "--repeat", "5"], in: folder.url, environment: ["API": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(server.requests.map(\.path) == Array(repeating: "/ping", count: 5))
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.count == 6, "\(outcome.stderr)")
            #expect(lines.first?.hasPrefix("run 1/5 ✓ ") == true, "\(outcome.stderr)")
            #expect(lines.last?.hasPrefix("5 runs: 5 succeeded, 0 failed; duration p50 ") == true, "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("✓ ping"))  // no step lines without -v
            #expect(outcome.stdout.isEmpty)
        }
    }

    @Test func dashDashInputsEachRunsOncePerJSONLinesAndCSVRow() async throws {
        let folder = try Self.itemWorkflow()
        try folder.write("rows.jsonl", """
            {"id": 1, "note": "first"}

            {"id": 2, "note": "second", "token": "row-token"}
            """)
        try folder.write("rows.csv", #"""
            id,note
            3,"third, with a comma"
            4,"say ""hi"""
            """#)
        try await withTestServer(Self.items) { server in
            for file in ["rows.jsonl", "rows.csv"] {
                let outcome = try await FlowRunProcess.run(
                    ["run", "item.yaml", "--inputs-each", file, "--input", "token=t-1", "--format", "json"],
                    in: folder.url, environment: ["API": server.baseURL])
                #expect(outcome.status == 0, "\(outcome.stderr)")
                let document = try Self.json(outcome.stdout)
                let summary = try #require(document["summary"] as? [String: Any])
                #expect(summary["runs"] as? Int == 2)
                #expect(summary["succeeded"] as? Int == 2)
                #expect(summary["failed"] as? Int == 0)
                #expect(summary["p50Ms"] is Int && summary["p95Ms"] is Int && summary["maxMs"] is Int)
                let runs = try #require(document["runs"] as? [[String: Any]])
                #expect(runs.map { $0["run"] as? Int } == [1, 2])
                #expect(runs.map { $0["row"] as? Int } == [1, 2])
                #expect(runs.map { $0["status"] as? String } == ["succeeded", "succeeded"])
                let ids = runs.map { ($0["outputs"] as? [String: Any])?["id"] as? Int }
                #expect(ids == (file == "rows.csv" ? [3, 4] : [1, 2]))
                #expect(runs.allSatisfy { $0["inputs"] == nil && $0["steps"] is [Any] })
            }
            #expect(server.requests.map(\.uri) == [
                "/items/1?note=first", "/items/2?note=second",
                "/items/3?note=third%2C%20with%20a%20comma", "/items/4?note=say%20%22hi%22",
            ])
            // The row wins over --input.
            #expect(server.requests.map { $0.values("X-Token") } == [["t-1"], ["row-token"], ["t-1"], ["t-1"]])
        }
    }

    @Test func aFailingRunIsCountedAndNamedAndTheSecretNeverPrinted() async throws {
        let folder = try Self.itemWorkflow()
        try folder.write("rows.jsonl", """
            {"id": 12, "note": "a", "token": "s3cret-twelve"}
            {"id": 13, "note": "b", "token": "s3cret-thirteen"}
            {"id": 14, "note": "c", "token": "s3cret-fourteen"}
            """)
        try await withTestServer(Self.items) { server in
            let human = try await FlowRunProcess.run(
                ["run", "item.yaml", "--inputs-each", "rows.jsonl", "-vv"], in: folder.url,
                environment: ["API": server.baseURL])
            #expect(human.status == 1, "\(human.stderr)")
            #expect(server.requests.count == 3)
            let failed = try #require(human.stderr.split(separator: "\n").first { $0.hasPrefix("run 2/3 (row 2) ✗ ") })
            #expect(failed.contains("step 'item'") && failed.contains("status 500"), "\(failed)")
            #expect(human.stderr.contains("✓ item"))  // -v adds the step lines
            #expect(human.stderr.contains("3 runs: 2 succeeded, 1 failed; duration p50 "), "\(human.stderr)")

            let json = try await FlowRunProcess.run(
                ["run", "item.yaml", "--inputs-each", "rows.jsonl", "--format", "json"], in: folder.url,
                environment: ["API": server.baseURL])
            #expect(json.status == 1)
            let document = try Self.json(json.stdout)
            #expect((document["summary"] as? [String: Any])?["failed"] as? Int == 1)
            let runs = try #require(document["runs"] as? [[String: Any]])
            #expect(runs.map { $0["status"] as? String } == ["succeeded", "failed", "succeeded"])
            for outcome in [human, json] {
                for secret in ["s3cret-twelve", "s3cret-thirteen", "s3cret-fourteen"] {
                    #expect(!outcome.stdout.contains(secret) && !outcome.stderr.contains(secret), "\(secret)")
                }
            }
        }
    }

    @Test func theCircuitBreakerIsSharedAcrossRuns() async throws {
        let folder = try Self.itemWorkflow(policy: """
            policies:
              guarded:
                circuitBreaker: { failureRatio: 1, minimumThroughput: 2, window: 1m, breakDuration: 1m }
            """)
        try await withTestServer({ _ in .text("down", status: 503) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "item.yaml", "--repeat", "4", "--input", "id=1", "--input", "note=n", "--input", "token=t",
                 "--format", "json"],
                in: folder.url, environment: ["API": server.baseURL])
            #expect(outcome.status == 1, "\(outcome.stderr)")
            #expect(server.requests.count == 2)  // runs 3 and 4 failed fast: the breaker opened in runs 1 and 2
            let runs = try #require(try Self.json(outcome.stdout)["runs"] as? [[String: Any]])
            let codes = runs.map { ($0["error"] as? [String: Any])?["code"] as? String }
            #expect(codes == ["http", "http", "circuit-open", "circuit-open"], "\(outcome.stdout)")
        }
    }

    @Test(arguments: [
        ("rows.jsonl", "{\"id\": 1, \"note\": \"a\"}\n{\"id\": 2,\n", "rows.jsonl:2: column "),
        ("rows.jsonl", "{\"id\": 1, \"note\": \"a\"}\n\n[1, 2]\n", "rows.jsonl:3: a row must be a JSON object"),
        ("rows.csv", "id,note\n1,a\n2,b,c\n", "rows.csv:3: 3 cells, but the header names 2 inputs"),
        ("rows.csv", "id,note\n1,\"a\n", "rows.csv:2: a quoted cell is not closed on its line"),
    ])
    func aMalformedRowExits2NamingTheLineBeforeAnyRequest(file: String, contents: String, message: String) async throws {
        let folder = try Self.itemWorkflow()
        try folder.write(file, contents)
        try await withTestServer(Self.items) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "item.yaml", "--inputs-each", file, "--input", "token=t"], in: folder.url,
                environment: ["API": server.baseURL])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.hasPrefix("flowrun run: \(message)"), "\(outcome.stderr)")
            #expect(server.requests.isEmpty)
        }
    }

    @Test(arguments: [
        ["--repeat", "0"],
        ["--repeat", "2", "--junit-out", "results.xml"],
        ["--repeat", "2", "--har-out", "run.har"],
        ["--repeat", "2", "--trace-out", "trace.jsonl"],
        ["--repeat", "2", "--format", "junit"],
        ["--repeat", "2", "--format", "github"],
    ])
    func optionsThatDescribeOneRunAreRefused(arguments: [String]) async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        try await withTestServer { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "ping.yaml"] + arguments, in: folder.url, environment: ["API": server.baseURL])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("--repeat"), "\(outcome.stderr)")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func ctrlCStopsTheSeriesAndPrintsTheSummaryOfWhatRan() async throws {
        let folder = try TemporaryFolder.withPingWorkflow()
        let pid = Mutex<Int32>(0)
        let received = Atomic(0)
        let (outcome, requests) = try await withTestServer({ _ in
            // The third run's request is in flight: interrupt, then answer too late for it.
            guard received.add(1, ordering: .relaxed).newValue == 3 else { return .text("ok") }
            FlowRunProcess.signal(pid, SIGINT)
            return TestReply(status: 200, body: Array("ok".utf8), delay: .seconds(5))
        }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "ping.yaml", "--repeat", "100", "--format", "json"], in: folder.url,
                environment: ["API": server.baseURL], timeout: .seconds(30)
            ) { started in pid.withLock { $0 = started } }
            return (outcome, server.requests.count)
        }
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(requests == 3)
        let document = try Self.json(outcome.stdout)
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["runs"] as? Int == 3 && summary["succeeded"] as? Int == 2 && summary["failed"] as? Int == 1)
        let runs = try #require(document["runs"] as? [[String: Any]])
        #expect((runs.last?["error"] as? [String: Any])?["code"] as? String == "cancelled")
    }
}
