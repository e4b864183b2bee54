import FlowTestServer
import Foundation
import Testing

/// `lint`, `run`, `test` and `graph` on a workflow whose steps are operations of an OpenAPI document: the document is
/// found relative to the workflow file, whatever the current folder.
struct OpenAPICommandTests {
    static let document = """
        openapi: 3.1.0
        info: { title: Notes, version: "1" }
        servers: [{ url: "https://notes.example/api" }]
        paths:
          /notes/{id}:
            get:
              operationId: getNote
              parameters:
                - { name: id, in: path, required: true, schema: { type: integer } }
                - { name: fields, in: query, explode: false, schema: { type: array, items: { type: string } } }
                - { name: X-Trace, in: header, schema: { type: string } }
              responses:
                "200":
                  description: The note.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [id, text]
                        properties: { id: { type: integer }, text: { type: string } }
        """

    static let workflow = """
        flowrun: 1
        env: { NOTES_URL: {} }
        openapi: { notes: api/notes.openapi.yaml }
        servers: { notes: "{$env.NOTES_URL}/api" }
        steps:
          - id: note
            operation: notes.getNote
            parameters: { id: 7, fields: [id, text], X-Trace: t-1 }
            outputs: { text: $response.body#/text }
        outputs: { text: $steps.note.outputs.text }
        """

    private func folder(workflow: String = workflow, document: String = document) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("flows/notes.yaml", workflow)
        try folder.write("flows/api/notes.openapi.yaml", document)
        return folder
    }

    @Test func lintFindsTheDocumentBesideTheWorkflowAndSkipsItInAFolder() async throws {
        let folder = try folder()
        let outcome = try await FlowRunProcess.run(["lint", "--strict", "flows"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("1 file checked, no problems"), "\(outcome.stdout)")
    }

    @Test func lintReportsAnErrorOfTheDocumentAtItsLineAndColumn() async throws {
        let folder = try folder(document: Self.document.replacingOccurrences(
            of: "description: The note.", with: "descripton: The note."))
        let outcome = try await FlowRunProcess.run(["lint", "flows/notes.yaml"], in: folder.url)
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains(
            "flows/api/notes.openapi.yaml:14:11: error: unknown key 'descripton' in a response; did you mean 'description'?"),
                "\(outcome.stdout)")
        // The line of the document, with a caret under the column.
        #expect(outcome.stdout.contains("\n              descripton: The note.\n              ^\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(
            "flows/notes.yaml:3:19: error: OpenAPI document 'notes' (flows/api/notes.openapi.yaml) has errors"),
                "\(outcome.stdout)")
    }

    @Test func annotationsAndJSONNameTheDocumentForAFindingInIt() async throws {
        let folder = try folder(document: Self.document.replacingOccurrences(
            of: "description: The note.", with: "descripton: The note."))
        let github = try await FlowRunProcess.run(["lint", "--format", "github", "flows/notes.yaml"], in: folder.url)
        #expect(github.stdout.contains("::error file=flows/api/notes.openapi.yaml,line=14,col=11,"), "\(github.stdout)")
        let json = try await FlowRunProcess.run(["lint", "--format", "json", "flows/notes.yaml"], in: folder.url)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let files = document?["files"] as? [[String: Any]]
        let diagnostics = files?.first?["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.first?["file"] as? String == "flows/api/notes.openapi.yaml", "\(json.stdout)")
        #expect(diagnostics?.first?["line"] as? Int == 14)
        #expect(diagnostics?.last?["file"] == nil)   // a finding in the workflow itself names no other file
    }

    @Test func lintReportsAPropertyTheResponseDoesNotHave() async throws {
        let folder = try folder(workflow: Self.workflow.replacingOccurrences(of: "#/text }", with: "#/txt }"))
        let outcome = try await FlowRunProcess.run(["lint", "flows/notes.yaml"], in: folder.url)
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("flows/notes.yaml:9:36: error: '$response.body#/txt' reads nothing"),
                "\(outcome.stdout)")
        #expect(outcome.stdout.contains("did you mean 'text'?"), "\(outcome.stdout)")
    }

    @Test func runSendsTheOperationToTheServerNamedAfterTheSource() async throws {
        let folder = try folder()
        try await withTestServer({ _ in
            .text(#"{"id": 7, "text": "hello"}"#, headers: [("Content-Type", "application/json")])
        }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "flows/notes.yaml"], in: folder.url, environment: ["NOTES_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains(#""text" : "hello""#) || outcome.stdout.contains(#""text": "hello""#),
                    "\(outcome.stdout)")
            let request = try #require(server.requests.first)
            #expect("\(request.method) \(request.uri)" == "GET /api/notes/7?fields=id,text")
            #expect(request.values("X-Trace") == ["t-1"])
        }
    }

    @Test func testAndGraphWorkOnOperationSteps() async throws {
        let folder = try folder()
        try folder.write("flows/notes.test.yaml", """
            flowrun-test: 1
            workflow: notes.yaml
            env: { NOTES_URL: "https://notes.test" }
            stubs:
              - match: { method: GET, path: /api/notes/7 }
                respond: { body: { id: 7, text: hi } }
            cases:
              - name: reads the note
                expect:
                  outputs-exact: { text: hi }
                  calls: ["GET /api/notes/7?fields=id,text"]
            """)
        let tested = try await FlowRunProcess.run(["test", "flows"], in: folder.url)
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        let graph = try await FlowRunProcess.run(["graph", "flows/notes.yaml"], in: folder.url)
        #expect(graph.status == 0, "\(graph.stderr)")
        #expect(graph.stdout.contains("GET /notes/7"), "\(graph.stdout)")
    }
}
