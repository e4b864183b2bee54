import Foundation
import Testing

/// `--server NAME=URL` and `--source NAME=PATH` name a source of the Arazzo document: a name it does not have is a
/// mistake reported before anything runs, never silently ignored (which would send the operations to the document's
/// own server, or leave the copy unread).
struct ArazzoSourceNameTests {
    static let document = "workflows/adopt-pet.arazzo.yaml"
    static let running = ["--mock", "workflows/adopt-pet.mock.yaml", "--input", "species=cat", "--input", "adopter=ada"]

    @Test func runRefusesAServerForASourceTheDocumentDoesNotHave() async throws {
        let outcome = try await FlowRunProcess.run(
            ["run", Self.document, "--server", "shp=http://127.0.0.1:9/v1"] + Self.running)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(
            "\(Self.document):9:11: error: a server URL is given for source 'shp', which the document does not have; "
                + "did you mean 'shop'? (its sources: shop) [unknown-reference]"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("✓"), "no step may run: \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func runAndGraphRefuseACopyOfASourceTheDocumentDoesNotHave() async throws {
        let copy = ["--source", "shops=workflows/adopt-pet.openapi.yaml"]
        for arguments in [["run", Self.document] + copy + Self.running, ["graph", Self.document] + copy] {
            let outcome = try await FlowRunProcess.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains(
                "error: a local copy is given for source 'shops', which the document does not have; did you mean "
                    + "'shop'?"), "\(outcome.stderr)")
        }
    }

    @Test func theSourcesTheDocumentHasStillWork() async throws {
        let outcome = try await FlowRunProcess.run(
            ["run", Self.document, "--source", "shop=workflows/adopt-pet.openapi.yaml"] + Self.running)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test func lintRefusesACopyOfASourceNoDocumentHas() async throws {
        let misspelt = try await FlowRunProcess.run(
            ["lint", Self.document, "--source", "shp=workflows/adopt-pet.openapi.yaml"])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr == "flowrun lint: --source shp=workflows/adopt-pet.openapi.yaml: no Arazzo document "
            + "checked has a source 'shp'; did you mean 'shop'?\n")

        let noArazzo = try await FlowRunProcess.run(
            ["lint", "workflows/banking.yaml", "--source", "shop=workflows/adopt-pet.openapi.yaml"])
        #expect(noArazzo.status == 2)
        #expect(noArazzo.stderr.contains("no Arazzo document was checked"))

        let named = try await FlowRunProcess.run(
            ["lint", Self.document, "--source", "shop=workflows/adopt-pet.openapi.yaml"])
        #expect(named.status == 0, "\(named.stdout)\(named.stderr)")
    }

    @Test func lintRefusesACopyThatIsNotThere() async throws {
        let outcome = try await FlowRunProcess.run(["lint", Self.document, "--source", "shop=missing.openapi.yaml"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--source shop=missing.openapi.yaml: no such file."), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    /// `run` names the copy it could not read, at the source it stands for, rather than asking for a copy.
    @Test func runNamesACopyThatCannotBeRead() async throws {
        let outcome = try await FlowRunProcess.run(
            ["run", Self.document, "--source", "shop=missing.openapi.yaml"] + Self.running)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(
            "adopt-pet.arazzo.yaml:10:10: error: cannot read the local copy of source 'shop' given with --source "
                + "shop=missing.openapi.yaml (cannot read missing.openapi.yaml: no such file)"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("give a local copy"), "\(outcome.stderr)")
    }

    /// A test file's `servers:` names sources as `--server` does: a name the document has no source of is an error
    /// at that name in the test file, with a did-you-mean, and no case runs.
    @Test func testRefusesAServerForASourceTheDocumentDoesNotHave() async throws {
        let folder = try TemporaryFolder()
        for file in ["adopt-pet.arazzo.yaml", "adopt-pet.openapi.yaml"] {
            try folder.write(file, try ArazzoRunCommandTests.repositoryFile("workflows/\(file)"))
        }
        let testFile = """
            flowrun-test: 1
            workflow: adopt-pet.arazzo.yaml
            servers: { shp: "http://shop.test/v1" }
            inputs: { species: cat, adopter: ada }
            cases:
              - name: finds none
                stubs: [{ match: { method: GET, path: /v1/pets }, respond: { status: 500 } }]
                expect: { outcome: failure }
            """
        try folder.write("adopt.test.yaml", testFile)
        let outcome = try await FlowRunProcess.run(["test", "adopt.test.yaml"], in: folder.url)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains(
            "adopt.test.yaml:3:12: error: a server URL is given for source 'shp', which adopt-pet.arazzo.yaml does not "
                + "have; did you mean 'shop'? (its sources: shop) [unknown-reference]"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("adopt-pet.arazzo.yaml:9"), "reported once, in the test file: \(outcome.stdout)")

        try folder.write("adopt.test.yaml", testFile.replacingOccurrences(of: "shp:", with: "shop:"))
        let named = try await FlowRunProcess.run(["test", "adopt.test.yaml"], in: folder.url)
        #expect(named.status == 0, "\(named.stdout)\(named.stderr)")
    }

    /// `servers:` gives URLs to an Arazzo document's sources: for a flowrun workflow it would be ignored.
    @Test func testRefusesServersForAFlowrunWorkflow() async throws {
        let folder = try TemporaryFolder()
        try folder.write("flow.yaml", """
            flowrun: 1
            servers: { api: { url: "http://api.test" } }
            steps:
              - { id: ping, server: api, request: { method: GET, path: /ping } }
            """)
        try folder.write("flow.test.yaml", """
            flowrun-test: 1
            workflow: flow.yaml
            servers: { api: "http://127.0.0.1:9" }
            cases: [{ name: pings, stubs: [{ match: { method: GET, path: /ping }, respond: { body: {} } }] }]
            """)
        let outcome = try await FlowRunProcess.run(["test", "flow.test.yaml"], in: folder.url)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains(
            "flow.test.yaml:3:1: error: 'servers' gives base URLs to the sources of an Arazzo document; flow.yaml is a "
                + "flowrun workflow: give the URLs its own 'servers:' read with 'env' or 'inputs' [invalid-value]"),
            "\(outcome.stdout)")
    }

    /// `--server`, `--source` and `--workflow` are an Arazzo document's: given for a flowrun workflow they would be
    /// ignored, and the requests would go to the servers the workflow names.
    @Test func runAndGraphRefuseArazzoOptionsForAFlowrunWorkflow() async throws {
        let banking = ["workflows/banking.yaml", "--mock", "workflows/banking.mock.yaml",
                       "--inputs", "workflows/banking.inputs.json"]
        let cases: [([String], String)] = [
            (["run"] + banking + ["--server", "bank=http://127.0.0.1:9"], "--server bank=http://127.0.0.1:9"),
            (["run"] + banking + ["--source", "bank=workflows/banking.yaml"], "--source bank=workflows/banking.yaml"),
            (["graph", "workflows/banking.yaml", "--workflow", "banking"], "--workflow banking"),
        ]
        for (arguments, option) in cases {
            let outcome = try await FlowRunProcess.run(arguments, environment: ["BANK_URL": "http://127.0.0.1:9"])
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr == "flowrun \(arguments[0]): \(option): workflows/banking.yaml is a flowrun workflow, "
                + "not an Arazzo document: --server and --source name the sources (sourceDescriptions) of an Arazzo "
                + "document and --workflow one of its workflows; a flowrun workflow's servers are set under its "
                + "'servers:', from $env or inputs\n", "\(outcome.stderr)")
            #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
        }
    }
}
