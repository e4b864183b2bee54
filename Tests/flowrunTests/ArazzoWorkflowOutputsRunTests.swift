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

    /// Runs workflow `hold-a-cat` of `hold.arazzo.yaml` in `folder` against `flowrun mock serve hold.mock.yaml`, with
    /// `--format json`; `check` reads the exit status, the JSON report and the server's base URL.
    static func runHold(
        in folder: TemporaryFolder, _ check: (_ status: Int32, _ report: [String: Any], _ baseURL: String) throws -> Void
    ) async throws {
        try await withMockServer(["hold.mock.yaml", "--port", "0", "--quiet"], in: folder.url) { server in
            let run = try await FlowRunProcess.run([
                "run", "hold.arazzo.yaml", "--workflow", "hold-a-cat", "--server", "shop=\(server.baseURL)/v1",
                "--format", "json",
            ], in: folder.url)
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
            try check(run.status, report, server.baseURL)
        }
    }

    @Test func aRetryThatRunsADependencyAgainReadsItsNewOutputs() async throws {
        let folder = try ArazzoRunCommandTests.withShopDocument()
        try folder.write("hold.arazzo.yaml", Self.document)
        try folder.write("hold.mock.yaml", Self.stubs)
        try await Self.runHold(in: folder) { status, report, baseURL in
            #expect(status == 0, "\(report)")
            #expect(report["outputs"] as? [String: String] == ["holdId": "hold-2", "petId": "p-2"])
            let steps = (report["steps"] as? [[String: Any]])?.map { "\($0["id"]!) \($0["status"]!)" }
            #expect(steps == [
                "dependsOn-pick succeeded", "hold recovered", "dependsOn-pick succeeded", "hold succeeded",
            ], "\(report)")
            let holds = (report["steps"] as? [[String: Any]])?.compactMap { step -> String? in
                guard step["id"] as? String == "hold" else { return nil }
                return (step["attempts"] as? [[String: Any]])?.first?["url"] as? String
            }
            #expect(holds == ["\(baseURL)/v1/pets/p-1/hold", "\(baseURL)/v1/pets/p-2/hold"])
        }
    }

    /// docs/arazzo.md: a `goto` to a workflow in `dependsOn` runs it again as its `dependsOn-<id>` step, as a
    /// `retry` does, so the workflow outputs that read `$workflows.<id>.outputs` when the run ends read what the
    /// run the goto started gave, not the first run's; a failure action's goto here, and a success action's.
    @Test(arguments: ["onFailure", "onSuccess"])
    func aGotoToADependencyLeavesItsNewOutputsForTheWorkflowOutputs(actions: String) async throws {
        let folder = try ArazzoRunCommandTests.withShopDocument()
        let action = actions == "onFailure"
            ? "{ name: pickAgain, type: goto, workflowId: pick, criteria: [{ condition: $statusCode == 409 }] }"
            : "{ name: pickAgain, type: goto, workflowId: pick }"
        let status = actions == "onFailure" ? 409 : 201
        let retry = "{ name: pickAgain, type: retry, workflowId: pick, retryLimit: 2, criteria: [{ condition: $statusCode == 409 }] }"
        #expect(Self.document.contains("onFailure:") && Self.document.contains(retry))
        try folder.write("hold.arazzo.yaml", Self.document
            .replacingOccurrences(of: "onFailure:", with: "\(actions):").replacingOccurrences(of: retry, with: action))
        try folder.write("hold.mock.yaml", Self.stubs.replacingOccurrences(of: "respond: { status: 409 }", with: "respond: { status: \(status) }"))
        try await Self.runHold(in: folder) { status, report, _ in
            #expect(status == 0, "\(report)")
            let outputs = try #require(report["outputs"] as? [String: String])
            #expect(outputs["petId"] == "p-2", "\(report)")
            let steps = (report["steps"] as? [[String: Any]])?.map { "\($0["id"]!) \($0["status"]!)" }
            let hold = actions == "onFailure" ? "hold recovered" : "hold succeeded"
            #expect(steps == ["dependsOn-pick succeeded", hold, "dependsOn-pick succeeded"], "\(report)")
        }

        // The run the goto started fails: so does the run, with its error.
        try folder.write("hold.mock.yaml", Self.stubs
            .replacingOccurrences(of: "respond: { status: 409 }", with: "respond: { status: \(status) }")
            .replacingOccurrences(of: "{ body: [{ id: p-2, name: Kit, price: 2 }] }", with: "{ status: 500 }"))
        try await Self.runHold(in: folder) { status, report, _ in
            #expect(status == 1, "\(report)")
            let error = try #require(report["error"] as? [String: Any], "\(report)")
            #expect(error["step"] as? String == "dependsOn-pick", "\(report)")
            #expect((error["message"] as? String)?.hasPrefix("workflow 'pick' step 'list': ") == true, "\(report)")
            #expect((report["outputs"] as? [String: Any])?.isEmpty ?? true, "\(report)")
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
