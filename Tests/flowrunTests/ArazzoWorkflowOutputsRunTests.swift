import Foundation
import Testing

/// `$workflows.<id>.outputs` over loopback HTTP: the outputs of the workflow `dependsOn` runs first, and, once a
/// `retry` action that names that workflow has run it again, its new outputs.
struct ArazzoWorkflowOutputsRunTests {
    /// The "log in again and retry" pattern of docs/arazzo.md: `pick` lists the cats and gives the first one's id;
    /// holding it fails with 409 (taken), so the retry action runs `pick` again, and the retried hold sends the id
    /// that run gave.
    static let document = ArazzoRunCommandTests.shopDocument("Hold a cat") + """
          - workflowId: pick
            steps:
              - stepId: list
                operationId: findPets
                parameters: [{ name: species, in: query, value: cat }]
                outputs: { petId: $response.body#/0/id }
            outputs: { petId: $steps.list.outputs.petId }
          - workflowId: hold-a-cat
            dependsOn: [pick]
            steps:
              - stepId: hold
                operationId: holdPet
                parameters: [{ name: petId, in: path, value: $workflows.pick.outputs.petId }]
                successCriteria: [{ condition: $statusCode == 201 }]
                onFailure:
                  - { name: pickAgain, type: retry, workflowId: pick, retryLimit: 2, criteria: [{ condition: $statusCode == 409 }] }
                outputs: { holdId: $response.body#/id }
            outputs: { holdId: $steps.hold.outputs.holdId, petId: $workflows.pick.outputs.petId }

        """

    static let stubs = """
        flowrun-mock: 1
        stubs:
          - match: { method: GET, path: /v1/pets, query: { species: cat } }
            respond: [{ body: [{ id: p-1, name: Tom, price: 1 }] }, { body: [{ id: p-2, name: Kit, price: 2 }] }]
          - match: { method: POST, path: /v1/pets/p-1/hold }
            respond: { status: 409 }
          - match: { method: POST, path: /v1/pets/p-2/hold }
            respond: { status: 201, body: { id: hold-2 } }
        """

    @Test func aRetryThatRunsADependencyAgainReadsItsNewOutputs() async throws {
        let folder = try ArazzoRunCommandTests.withShopDocument()
        try folder.write("hold.arazzo.yaml", Self.document)
        try folder.write("hold.mock.yaml", Self.stubs)
        try await withMockServer(["hold.mock.yaml", "--port", "0", "--quiet"], in: folder.url) { server in
            let run = try await FlowRunProcess.run([
                "run", "hold.arazzo.yaml", "--workflow", "hold-a-cat", "--server", "shop=\(server.baseURL)/v1",
                "--format", "json",
            ], in: folder.url)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect(report["outputs"] as? [String: String] == ["holdId": "hold-2", "petId": "p-2"])
            let steps = (report["steps"] as? [[String: Any]])?.map { "\($0["id"]!) \($0["status"]!)" }
            #expect(steps == [
                "dependsOn-pick succeeded", "hold recovered", "dependsOn-pick succeeded", "hold succeeded",
            ], "\(run.stdout)")
            let holds = (report["steps"] as? [[String: Any]])?.compactMap { step -> String? in
                guard step["id"] as? String == "hold" else { return nil }
                return (step["attempts"] as? [[String: Any]])?.first?["url"] as? String
            }
            #expect(holds == ["\(server.baseURL)/v1/pets/p-1/hold", "\(server.baseURL)/v1/pets/p-2/hold"])
        }
    }

    /// Without `dependsOn`, there is no run to read: `lint` and `run` say so at the expression, before anything is
    /// sent, instead of failing on a step flowrun made up.
    @Test func readingAWorkflowThatDoesNotRunFirstIsRefusedAtTheExpression() async throws {
        let folder = try ArazzoRunCommandTests.withShopDocument()
        try folder.write("hold.arazzo.yaml", Self.document.replacingOccurrences(of: "    dependsOn: [pick]\n", with: ""))
        let message = "error: workflow 'hold-a-cat' reads the outputs of workflow 'pick', which it does not run first: "
            + "list 'pick' in its dependsOn"
        let lint = try await FlowRunProcess.run(["lint", "hold.arazzo.yaml"], in: folder.url)
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("hold.arazzo.yaml:16:54: \(message)"), "\(lint.stdout)")
        let run = try await FlowRunProcess.run(
            ["run", "hold.arazzo.yaml", "--workflow", "hold-a-cat", "--server", "shop=http://127.0.0.1:9/v1"],
            in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("hold.arazzo.yaml:16:54: \(message)"), "\(run.stderr)")
        #expect(!run.stderr.contains("dependsOn-pick"), "\(run.stderr)")
    }
}
