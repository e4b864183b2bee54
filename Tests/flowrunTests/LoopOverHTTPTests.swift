import FlowTestServer
import Foundation
import Synchronization
import Testing

/// `paginate` and `repeat` through the binary against real HTTP servers on 127.0.0.1: the `Link` header as
/// AsyncHTTPClient delivers it, every page behind the auth interceptor, a next page on another origin (another
/// port) refused before the token reaches it, and a job polled until it is done.
@Suite(.timeLimit(.minutes(2)))
struct LoopOverHTTPTests {
    static let listing = """
        flowrun: 1
        name: list-all
        inputs:
          type: object
          required: [token]
          properties: { token: { type: string, format: password } }
        env: { API: {} }
        servers: { api: { url: "{$env.API}" } }
        interceptors:
          auth: { bearer: $inputs.token }
        defaults: { server: api, interceptors: [auth] }
        steps:
          - id: items
            request: { method: GET, path: /items, query: { size: "2" } }
            response: { 200: { type: array, items: { type: string } } }
            paginate: { next: link, maxPages: 5 }
            outputs: { all: $response.body }
        outputs: { all: $steps.items.outputs.all }
        """

    /// Three pages of two items; the Link header of each but the last points at the next, relative to this
    /// server or at `elsewhere` for page 3.
    static func pages(elsewhere: String? = nil) -> @Sendable (RecordedRequest) -> TestReply {
        { request in
            let page = Int(request.uri.split(separator: "page=").last.map(String.init) ?? "") ?? 1
            var headers = [("Content-Type", "application/json")]
            if page < 3 {
                let base = page == 2 ? (elsewhere ?? "") : ""
                headers.append(("Link", "<\(base)/items?size=2&page=\(page + 1)>; rel=\"next\", </items?page=1>; rel=\"first\""))
            }
            return .text(#"["i\#(page)a", "i\#(page)b"]"#, headers: headers)
        }
    }

    @Test func everyPageIsFetchedThroughTheInterceptorsAndTheItemsCollected() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("list-all.yaml", Self.listing)
        try await withTestServer(Self.pages()) { server in
            let run = try await FlowRunProcess.run(
                ["run", path, "--input", "token=tok-secret-4567", "--format", "json"],
                environment: ["API": server.baseURL])
            #expect(run.status == 0, "\(run.stderr)")
            let report = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect((report["outputs"] as? [String: Any])?["all"] as? [String] == ["i1a", "i1b", "i2a", "i2b", "i3a", "i3b"])
            let step = try #require((report["steps"] as? [[String: Any]])?.first)
            #expect(step["iterationCount"] as? Int == 3)
            #expect(step["loop"] as? String == "paginate")
            #expect(server.requests.map(\.uri) == ["/items?size=2", "/items?size=2&page=2", "/items?size=2&page=3"])
            #expect(server.requests.allSatisfy { $0.values("Authorization") == ["Bearer tok-secret-4567"] })
            #expect(!run.stdout.contains("tok-secret-4567"))
        }
    }

    @Test func aNextPageOnAnotherOriginIsRefusedBeforeTheTokenGoesThere() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("list-all.yaml", Self.listing)
        try await withTestServer(Self.pages()) { other in
            try await withTestServer(Self.pages(elsewhere: other.baseURL)) { server in
                let run = try await FlowRunProcess.run(
                    ["run", path, "--input", "token=tok-secret-4567"], environment: ["API": server.baseURL])
                #expect(run.status == 1)
                #expect(run.stderr.contains("the next page is on another origin (\(other.baseURL)/items?size=2&page=3)"),
                        "\(run.stderr)")
                #expect(server.requests.count == 2)
                #expect(other.requests.isEmpty)
                #expect(!run.stderr.contains("tok-secret-4567"))
            }
        }
    }

    @Test func aJobIsPolledUntilItIsDoneAndOnlyThatResponseIsBound() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("poll.yaml", """
            flowrun: 1
            env: { API: {} }
            servers: { api: { url: "{$env.API}" } }
            defaults: { server: api }
            types:
              Job: { type: object, required: [status], properties: { status: { type: string, enum: [running, done] }, file: { type: string } } }
            steps:
              - id: job
                request: { method: GET, path: /jobs/7 }
                response: { 200: Job }
                repeat: { until: "$response.body#/status == 'done'", delay: 10ms, maxIterations: 5 }
                outputs: { file: $response.body#/file }
            outputs: { file: $steps.job.outputs.file }
            """)
        let polls = Mutex(0)
        try await withTestServer({ _ in
            let count = polls.withLock { count in
                count += 1
                return count
            }
            let body = count < 3 ? #"{"status": "running"}"# : #"{"status": "done", "file": "/f/7"}"#
            return .text(body, headers: [("Content-Type", "application/json")])
        }) { server in
            let run = try await FlowRunProcess.run(["run", path, "-v"], environment: ["API": server.baseURL])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("/f/7"))
            #expect(run.stderr.contains("(3 iterations, 3 attempts)"), "\(run.stderr)")
            #expect(server.requests.count == 3)
        }
    }
}
