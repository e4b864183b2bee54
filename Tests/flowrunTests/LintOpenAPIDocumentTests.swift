import Foundation
import Testing

/// `flowrun lint shop.openapi.yaml`: an OpenAPI document named on its own is checked as the document a workflow's
/// `openapi:` reads, not as a workflow; `run` and `graph` say in one error what it is and how a workflow uses it.
struct LintOpenAPIDocumentTests {
    @Test func anOpenAPIDocumentIsCheckedAsOne() async throws {
        let folder = try TemporaryFolder()
        let document = try String(
            contentsOf: FlowRunProcess.packageRoot.appendingPathComponent("workflows/user-orders.openapi.yaml"),
            encoding: .utf8)
        try folder.write("shop.openapi.yaml", document)
        let clean = try await FlowRunProcess.run(["lint", "shop.openapi.yaml"], in: folder.url)
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("1 file checked, no problems"), "\(clean.stdout)")
        #expect(!clean.stdout.contains("flowrun"), "\(clean.stdout)")

        let misspelt = document.replacingOccurrences(of: "description: The user.", with: "descripton: The user.")
        #expect(misspelt != document)
        try folder.write("bad.openapi.yaml", misspelt)
        let line = (misspelt.components(separatedBy: "\n").firstIndex { $0.contains("descripton:") } ?? 0) + 1
        let bad = try await FlowRunProcess.run(["lint", "bad.openapi.yaml"], in: folder.url)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains(
            "bad.openapi.yaml:\(line):11: error: unknown key 'descripton' in a response; did you mean 'description'? "
                + "[unknown-key]"), "\(bad.stdout)")
        #expect(bad.stdout.contains("1 file checked: 1 error, 0 warnings"), "\(bad.stdout)")
    }

    /// A document in JSON is checked as one, as a YAML one is: its `"openapi"` key starts no line.
    @Test func anOpenAPIDocumentInJSONIsCheckedAsOne() async throws {
        let folder = try TemporaryFolder()
        let document = """
            {
              "openapi": "3.1.0",
              "info": { "title": "Shop", "version": "1" },
              "paths": {
                "/orders": {
                  "get": {
                    "operationId": "listOrders",
                    "responses": { "200": { "description": "The orders." } }
                  }
                }
              }
            }

            """
        try folder.write("shop.openapi.json", document)
        let clean = try await FlowRunProcess.run(["lint", "shop.openapi.json"], in: folder.url)
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("1 file checked, no problems"), "\(clean.stdout)")

        try folder.write("min.json", #"{"info":{"title":"Shop","version":"1"},"openapi":"3.0.3","paths":{}}"#)
        let minified = try await FlowRunProcess.run(["lint", "min.json"], in: folder.url)
        #expect(minified.status == 0, "\(minified.stdout)")
        #expect(!minified.stdout.contains("not a workflow"), "\(minified.stdout)")

        try folder.write("bad.openapi.json", document.replacingOccurrences(of: #""description""#, with: #""descripton""#))
        let bad = try await FlowRunProcess.run(["lint", "bad.openapi.json"], in: folder.url)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains(
            "bad.openapi.json:8:33: error: unknown key 'descripton' in a response; did you mean 'description'? "
                + "[unknown-key]"), "\(bad.stdout)")
        #expect(!bad.stdout.contains("not a workflow"), "\(bad.stdout)")

        let run = try await FlowRunProcess.run(["run", "shop.openapi.json"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(
            "shop.openapi.json:2:3: error: this is an OpenAPI document, not a workflow"), "\(run.stderr)")
    }

    /// docs/openapi.md lists "a Swagger 2.0 document" among what lint reports in a document: named on its own, one
    /// is checked as a document too (one finding at its `swagger` version), not as a workflow of unknown keys.
    @Test func aSwaggerDocumentNamedOnItsOwnIsReportedAsOne() async throws {
        let folder = try TemporaryFolder()
        try folder.write("pets.openapi.yaml", "swagger: \"2.0\"\ninfo: { title: Pets, version: \"1\" }\npaths: {}\n")
        let lint = try await FlowRunProcess.run(["lint", "pets.openapi.yaml"], in: folder.url)
        #expect(lint.status == 1)
        #expect(lint.stdout.hasPrefix(
            "pets.openapi.yaml:1:10: error: Swagger 2.0 documents are not supported; convert the document to "
                + "OpenAPI 3.0 or 3.1 [unsupported-version]"), "\(lint.stdout)")
        #expect(!lint.stdout.contains("unknown key"), "\(lint.stdout)")
        #expect(lint.stdout.contains("1 file checked: 1 error, 0 warnings"), "\(lint.stdout)")

        try folder.write("pets.json", #"{"swagger": "2.0", "info": {"title": "Pets", "version": "1"}, "paths": {}}"#)
        let json = try await FlowRunProcess.run(["lint", "pets.json"], in: folder.url)
        #expect(json.stdout.contains("Swagger 2.0 documents are not supported"), "\(json.stdout)")

        let run = try await FlowRunProcess.run(["run", "pets.openapi.yaml"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("pets.openapi.yaml:1:1: error: this is an OpenAPI document, not a workflow"),
            "\(run.stderr)")
    }

    @Test func runAndGraphSayAnOpenAPIDocumentIsNotAWorkflow() async throws {
        let document = "workflows/user-orders.openapi.yaml"
        for arguments in [["run", document], ["graph", document]] {
            let outcome = try await FlowRunProcess.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr == """
                \(document):2:1: error: this is an OpenAPI document, not a workflow: name it under 'openapi:' in a \
                workflow and call its operations with 'operation:' steps, or list it under 'sourceDescriptions' in \
                an Arazzo document [type-mismatch]
                    openapi: 3.0.3
                    ^

                """, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
    }

    /// A workflow that lacks `flowrun: 1` but has `openapi:` sources is a workflow with a missing key, not an OpenAPI
    /// document: its `openapi` is a mapping of documents, not a version.
    @Test func aWorkflowWithOpenAPISourcesIsNotTakenForADocument() async throws {
        let folder = try TemporaryFolder()
        try folder.write("orders.yaml", """
            openapi:
              shop: shop.openapi.yaml
            steps:
              - { id: orders, operation: shop.listOrders }
            """)
        let outcome = try await FlowRunProcess.run(["lint", "orders.yaml"], in: folder.url)
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("the workflow is missing the required key 'flowrun'"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("OpenAPI document, not a workflow"), "\(outcome.stdout)")
    }
}
