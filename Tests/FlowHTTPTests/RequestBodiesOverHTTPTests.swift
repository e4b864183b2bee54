import FlowCore
import FlowHTTP
import FlowTestServer
import Foundation
import Logging
import Testing

/// `text:` and `multipart:` request bodies as a real server receives them, byte for byte.
struct RequestBodiesOverHTTPTests {
    /// A folder holding `workflow` as `upload.yaml` and `data/q3.csv`, removed afterwards.
    private func withWorkflowFolder<T>(_ workflow: String, _ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-bodies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data("quarter,total\nQ3,1250\n".utf8).write(to: folder.appendingPathComponent("data/q3.csv"))
        let path = folder.appendingPathComponent("upload.yaml").path
        try Data(workflow.utf8).write(to: URL(fileURLWithPath: path))
        return try await body(path)
    }

    /// Runs the workflow at `path` against a loopback server that answers `{}`; `$env.API` is its base URL.
    private func run(_ path: String, inputs: [String: JSONValue]) async throws -> (RunReport, [RecordedRequest]) {
        try await withTestServer({ _ in .text("{}", headers: [("Content-Type", "application/json")]) }) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "bodies"))
                let plan = try WorkflowCompiler().compile(
                    yaml: String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self), path: path)
                let report = await engine.run(plan, inputs: inputs, environment: ["API": server.baseURL])
                return (report, server.requests)
            }
        }
    }

    static let workflow = """
        flowrun: 1
        env: { API: {} }
        inputs: { type: object, properties: { note: { type: string }, file: { type: string } } }
        servers: { api: { url: "{$env.API}" } }
        defaults: { server: api }
        steps:
          - id: plain
            request: { method: POST, path: /plain, text: "Dear {$inputs.note}," }
          - id: markdown
            request:
              method: POST
              path: /markdown
              text: { value: "# {$inputs.note}", contentType: text/markdown }
          - id: upload
            request:
              method: POST
              path: /upload
              multipart:
                title: Q3 report
                count: "3"
                meta: { value: { year: 2026 } }
                report: { file: data/q3.csv, contentType: text/csv }
                note: { value: $inputs.note, filename: "note \\"1\\".txt" }
                nothing: { value: null }
        """

    @Test func textAndMultipartBodiesArriveAsWritten() async throws {
        let (report, requests) = try await withWorkflowFolder(Self.workflow) { path in
            try await run(path, inputs: ["note": "Ada"])
        }
        #expect(report.error == nil, "\(String(describing: report.error))")
        let byPath = Dictionary(uniqueKeysWithValues: requests.map { ($0.path, $0) })

        let plain = try #require(byPath["/plain"])
        #expect(plain.values("Content-Type") == ["text/plain; charset=utf-8"])
        #expect(String(decoding: plain.body, as: UTF8.self) == "Dear Ada,")
        let markdown = try #require(byPath["/markdown"])
        #expect(markdown.values("Content-Type") == ["text/markdown"])
        #expect(String(decoding: markdown.body, as: UTF8.self) == "# Ada")

        let upload = try #require(byPath["/upload"])
        let contentType = try #require(upload.values("Content-Type").first)
        #expect(contentType.hasPrefix("multipart/form-data; boundary=flowrun-"))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        #expect(boundary.count == "flowrun-".count + 24)
        let expected = [
            "--\(boundary)",
            #"Content-Disposition: form-data; name="title""#, "", "Q3 report",
            "--\(boundary)",
            #"Content-Disposition: form-data; name="count""#, "", "3",
            "--\(boundary)",
            #"Content-Disposition: form-data; name="meta""#, "Content-Type: application/json", "", #"{"year":2026}"#,
            "--\(boundary)",
            #"Content-Disposition: form-data; name="report"; filename="q3.csv""#, "Content-Type: text/csv", "",
            "quarter,total\nQ3,1250\n",
            "--\(boundary)",
            #"Content-Disposition: form-data; name="note"; filename="note %221%22.txt""#, "", "Ada",
            "--\(boundary)--", "",
        ].joined(separator: "\r\n")
        #expect(String(decoding: upload.body, as: UTF8.self) == expected)
        #expect(upload.values("Content-Length") == [String(upload.body.count)])
    }

    @Test func aFilePathBoundAtRunTimeMayNotLeaveTheWorkflowFolder() async throws {
        let workflow = """
            flowrun: 1
            env: { API: {} }
            inputs: { type: object, properties: { file: { type: string } } }
            servers: { api: { url: "{$env.API}" } }
            defaults: { server: api }
            steps:
              - id: upload
                request: { method: POST, path: /upload, multipart: { doc: { file: $inputs.file } } }
            """
        for (file, problem) in [
            ("../../etc/passwd", "leaves the workflow file's folder"), ("/etc/passwd", "is absolute"),
            ("data/missing.csv", "cannot read 'data/missing.csv': no such file"),
        ] {
            let (report, requests) = try await withWorkflowFolder(workflow) { path in
                try await run(path, inputs: ["file": .string(file)])
            }
            let error = try #require(report.error)
            #expect(error.code == .binding)
            #expect(error.message.hasPrefix("multipart part 'doc' of step 'upload': "), "\(error.message)")
            #expect(error.message.contains(problem), "\(error.message)")
            #expect(error.location?.line == 8)
            #expect(requests.isEmpty)
        }
    }
}
