import Foundation
import Testing

/// `flowrun lint` on Arazzo documents.
struct ArazzoLintCommandTests {
    static let document = """
        arazzo: 1.0.1
        info: { title: Pets, version: 1.0.0 }
        sourceDescriptions: [{ name: petstore, url: ./petstore.openapi.yaml, type: openapi }]
        workflows:
          - workflowId: find-pet
            inputs: { type: object, properties: { petId: { type: integer } } }
            steps:
              - stepId: get
                operationId: getPetById
                parameters: [{ name: petId, in: path, value: $inputs.petId }]
                successCriteria: [{ condition: $statusCode == 200 }]
                outputs: { name: $response.body#/name }
            outputs: { name: $steps.get.outputs.name }
        """

    /// The OpenAPI document the document's source names.
    static let openAPI = """
        openapi: 3.0.3
        info: { title: Pet store, version: 1.0.0 }
        paths:
          /pets/{petId}:
            get:
              operationId: getPetById
              parameters: [{ name: petId, in: path, required: true, schema: { type: integer } }]
              responses:
                "200":
                  description: The pet.
                  content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } }
        """

    @Test func aValidDocumentLintsClean() async throws {
        let folder = try TemporaryFolder()
        try folder.write("petstore.openapi.yaml", Self.openAPI)
        let path = try folder.write("pets.arazzo.yaml", Self.document)
        let outcome = try await FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("1 file checked, no problems"))
    }

    @Test func mistakesArePrintedWithTheirLineAndColumn() async throws {
        let folder = try TemporaryFolder()
        try folder.write("petstore.openapi.yaml", Self.openAPI)
        let path = try folder.write(
            "pets.arazzo.yaml", Self.document.replacingOccurrences(of: "$steps.get.outputs", with: "$steps.gte.outputs"))
        let outcome = try await FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.hasPrefix(
            "\(path):13:22: error: unknown step 'gte' in workflow 'find-pet'; did you mean 'get'?"))
    }

    /// A criterion that reads what the step never sends could never hold: lint says so, where `run` would.
    @Test func aCriterionFlowrunCannotEvaluateIsALintError() async throws {
        let folder = try TemporaryFolder()
        try folder.write("petstore.openapi.yaml", Self.openAPI)
        let path = try folder.write(
            "pets.arazzo.yaml",
            Self.document.replacingOccurrences(
                of: "successCriteria: [{ condition: $statusCode == 200 }]",
                with: "successCriteria: [{ condition: $statusCode == 200 }, { condition: $request.query.limit == '3' }]"))
        let outcome = try await FlowRunProcess.run(["lint", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.hasPrefix(
            "\(path):11:62: error: flowrun cannot read '$request.query.limit' when it runs a step; a criterion can "
                + "read $statusCode, $url, $method, $request and $response parts the step has"), "\(outcome.stdout)")
    }

    /// `--explain` explains each workflow of a document as `run` would run it, and says why it cannot when a
    /// source is missing.
    @Test func explainGivesEachWorkflowsWorstCase() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "petstore.openapi.yaml",
            Self.openAPI.replacingOccurrences(of: "paths:", with: "servers: [{ url: https://petstore.example }]\npaths:"))
        let path = try folder.write(
            "pets.arazzo.yaml",
            Self.document.replacingOccurrences(
                of: "successCriteria: [{ condition: $statusCode == 200 }]",
                with: "successCriteria: [{ condition: $statusCode == 200 }]\n"
                    + "        onFailure: [{ name: busy, type: retry, retryAfter: 1, retryLimit: 2, criteria: [{ condition: $statusCode == 503 }] }]"))
        let outcome = try await FlowRunProcess.run(["lint", "--explain", path])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stdout.hasPrefix("""
            \(path)#find-pet: worst case per step, in plan order
              step  policy           attempts  requests  longest                 notes
              get   get (onFailure)         3         3  unbounded (no timeout)
            """), "\(outcome.stdout)")
        let json = try await FlowRunProcess.run(["lint", "--explain", "--format", "json", path])
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let file = (report?["files"] as? [[String: Any]])?.first
        let workflows = (file?["explain"] as? [String: Any])?["workflows"] as? [String: Any]
        let steps = (workflows?["find-pet"] as? [String: Any])?["steps"] as? [[String: Any]]
        #expect(steps?.first?["attempts"] as? Int == 3)

        let missing = try folder.write("remote.arazzo.yaml", Self.document.replacingOccurrences(
            of: "./petstore.openapi.yaml", with: "https://petstore.example/openapi.yaml"))
        let remote = try await FlowRunProcess.run(["lint", "--explain", missing])
        #expect(remote.stdout.contains(
            "\(missing)#find-pet: not explained: it cannot be run here: step 'get' calls an operation of a source "
                + "flowrun could not read; give a local copy with --source NAME=PATH"), "\(remote.stdout)")
    }

    /// docs/arazzo.md's walk-through, as a reader follows it: its document gives exactly the output it shows.
    @Test func theDocumentedWalkThroughPrintsWhatItShows() async throws {
        let page = try String(
            contentsOf: FlowRunProcess.packageRoot.appendingPathComponent("docs/arazzo.md"), encoding: .utf8)
        func block(_ fence: String, after marker: String) throws -> String {
            let start = try #require(page.range(of: marker)?.upperBound)
            let open = try #require(page.range(of: "```\(fence)\n", range: start..<page.endIndex)?.upperBound)
            let close = try #require(page.range(of: "\n```\n", range: open..<page.endIndex)?.lowerBound)
            return String(page[open..<close])
        }
        let openAPI = try block("yaml", after: "Save this OpenAPI document as `petstore.openapi.yaml`")
        let document = try block("yaml", after: "beside it as `pets.arazzo.yaml`")
        let console = try block("console", after: "beside it as `pets.arazzo.yaml`")
        let folder = try TemporaryFolder()
        try folder.write("petstore.openapi.yaml", openAPI)
        try folder.write("pets.arazzo.yaml", document)
        let outcome = try await FlowRunProcess.run(["lint", "pets.arazzo.yaml"], in: folder.url)
        #expect(outcome.status == 1)
        #expect("$ flowrun lint pets.arazzo.yaml\n" + outcome.stdout == console + "\n")
        try folder.write("pets.arazzo.yaml", document.replacingOccurrences(of: "$steps.gte", with: "$steps.get"))
        let fixed = try await FlowRunProcess.run(["lint", "pets.arazzo.yaml"], in: folder.url)
        #expect(fixed.status == 0)
        #expect(fixed.stdout == "1 file checked, no problems\n")
        // The operation is resolved in the OpenAPI document: a misspelt one is an error there too.
        try folder.write(
            "pets.arazzo.yaml",
            document.replacingOccurrences(of: "$steps.gte", with: "$steps.get").replacingOccurrences(of: "getPetById", with: "getPetByNo"))
        let misspelt = try await FlowRunProcess.run(["lint", "pets.arazzo.yaml"], in: folder.url)
        #expect(misspelt.status == 1)
        #expect(misspelt.stdout.hasPrefix(
            "pets.arazzo.yaml:9:22: error: source 'petstore' has no operation 'getPetByNo'; did you mean 'getPetById'?"))
    }

    @Test func sourceGivesALocalCopyOfARemoteSource() async throws {
        let folder = try TemporaryFolder()
        try folder.write("copies/petstore.yaml", Self.openAPI)
        let remote = Self.document
            .replacingOccurrences(of: "url: ./petstore.openapi.yaml", with: "url: https://petstore.example/openapi.yaml")
            .replacingOccurrences(of: "operationId: getPetById", with: "operationId: getPetByNo")
        try folder.write("pets.arazzo.yaml", remote)
        let unchecked = try await FlowRunProcess.run(["lint", "pets.arazzo.yaml"], in: folder.url)
        #expect(unchecked.status == 0)
        #expect(unchecked.stdout.contains(
            "warning: source 'petstore' is a remote URL, which flowrun does not fetch: the operations of its steps are "
                + "not checked; point 'url' at a local copy, or give one with --source petstore=<path>, to check them"))
        let checked = try await FlowRunProcess.run(
            ["lint", "--source", "petstore=copies/petstore.yaml", "pets.arazzo.yaml"], in: folder.url)
        #expect(checked.status == 1)
        #expect(checked.stdout.hasPrefix(
            "pets.arazzo.yaml:9:22: error: source 'petstore' has no operation 'getPetByNo'; did you mean 'getPetById'?"))
        let malformed = try await FlowRunProcess.run(["lint", "--source", "petstore", "pets.arazzo.yaml"], in: folder.url)
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("--source takes NAME=PATH"))
    }

    /// Bindings that run through expressions are type-checked as flowrun checks its own: an object bound into a
    /// path parameter, from the inputs or from another step's output (typed by the operation's response).
    @Test func expressionBindingsAreTypeChecked() async throws {
        let folder = try TemporaryFolder()
        try folder.write("petstore.openapi.yaml", Self.openAPI)
        try folder.write("pets.arazzo.yaml", """
            arazzo: 1.0.1
            info: { title: Pets, version: 1.0.0 }
            sourceDescriptions: [{ name: petstore, url: ./petstore.openapi.yaml, type: openapi }]
            workflows:
              - workflowId: find-pet
                inputs: { type: object, properties: { pet: { type: object } } }
                steps:
                  - stepId: get
                    operationId: getPetById
                    parameters: [{ name: petId, in: path, value: $inputs.pet }]
                    outputs: { pet: $response.body }
                  - stepId: again
                    operationId: getPetById
                    parameters: [{ name: petId, in: path, value: $steps.get.outputs.pet }]
            """)
        let outcome = try await FlowRunProcess.run(["lint", "pets.arazzo.yaml"], in: folder.url)
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains(
            "pets.arazzo.yaml:10:54: error: '$inputs.pet' is an object, which cannot be bound into a URL path"),
            "\(outcome.stdout)")
        #expect(outcome.stdout.contains(
            "pets.arazzo.yaml:14:54: error: '$steps.get.outputs.pet' is an object, which cannot be bound into a URL path"),
            "\(outcome.stdout)")
        #expect(outcome.stdout.hasSuffix("1 file checked: 2 errors, 0 warnings\n"), "\(outcome.stdout)")
    }
}
