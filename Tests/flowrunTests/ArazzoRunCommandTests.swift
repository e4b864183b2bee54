import Foundation
import Testing

/// `flowrun run` on Arazzo documents: the repository's example over loopback HTTP, with its goto loops, retry,
/// regex and JSONPath criteria, and the errors of documents it cannot run.
struct ArazzoRunCommandTests {
    /// workflows/adopt-pet.arazzo.yaml against its stubs served on 127.0.0.1, as docs/arazzo.md runs it.
    @Test func theExampleRunsOverHTTPWithItsActions() async throws {
        try await withMockServer(["workflows/adopt-pet.mock.yaml", "--port", "0", "--quiet"]) { server in
            let run = try await FlowRunProcess.run([
                "run", "workflows/adopt-pet.arazzo.yaml", "--server", "shop=\(server.baseURL)/v1",
                "--input", "species=cat", "--input", "adopter=ada", "--format", "json",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect(report["status"] as? String == "succeeded")
            #expect(report["outputs"] as? [String: String] == ["pet": "Tom", "certificate": "ADOPT-0001"])
            let steps = try #require(report["steps"] as? [[String: Any]])
            // find: nothing listed, so its success action goes back to it; then Mittens, whose hold fails with
            // 409 and goes back to find; then Tom, held after one 503 retry; then the adoption.
            #expect(steps.map { $0["id"] as? String } == ["find", "find", "hold", "find", "hold", "adopt"])
            #expect(steps.map { $0["status"] as? String }
                == ["succeeded", "succeeded", "recovered", "succeeded", "succeeded", "succeeded"])
            #expect(steps.map { ($0["attempts"] as? [Any])?.count } == [1, 1, 1, 1, 2, 1])
            let failedHold = try #require(steps[2]["error"] as? [String: Any])
            #expect(failedHold["code"] as? String == "criteria")
            #expect((failedHold["message"] as? String)?.contains(
                "success criterion 1 of 2 does not hold for the response (status 409): $statusCode == 201") == true)
        }
    }

    /// docs/arazzo.md's run of the example, as a reader types it: the step lines and outputs it shows (durations
    /// aside, which vary).
    @Test func theDocumentedRunPrintsWhatItShows() async throws {
        let page = try Self.repositoryFile("docs/arazzo.md")
        let start = try #require(page.range(of: "## Running a document")?.upperBound)
        let open = try #require(page.range(of: "```console\n", range: start..<page.endIndex)?.upperBound)
        let close = try #require(page.range(of: "\n```\n", range: open..<page.endIndex)?.lowerBound)
        let lines = page[open..<close].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let command = try #require(lines.first?.dropFirst(2)).split(separator: " ").map(String.init)
        #expect(command.first == "flowrun")
        let run = try await FlowRunProcess.run(Array(command.dropFirst()))
        #expect(run.status == 0, "\(run.stderr)")
        func durationsAside(_ text: String) -> String {
            text.replacing(/\ [0-9]+ ms/, with: " N ms")
        }
        let shown = lines.dropFirst().joined(separator: "\n")
        #expect(durationsAside(run.stderr + run.stdout) == durationsAside(shown + "\n"))
    }

    @Test func graphDrawsTheActions() async throws {
        let graph = try await FlowRunProcess.run(["graph", "workflows/adopt-pet.arazzo.yaml"])
        #expect(graph.status == 0, "\(graph.stderr)")
        #expect(graph.stdout.contains(#"find -.->|"on success if $response.body#35;/0 == null → goto"| find"#))
        #expect(graph.stdout.contains(#"hold -.->|"on-error if $statusCode == 409 → goto (max 100 visits)"| find"#))
        #expect(graph.stdout.contains(#"find -->|"petId"| hold"#))
    }

    /// The fixture document with two workflows: adopt-a-pet depends on sign-in, whose token a reusable parameter
    /// sends; a workflow failure action retries 429; a form payload is filled by replacements.
    @Test func aWorkflowRunsTheWorkflowsItDependsOnFirst() async throws {
        let folder = FlowRunProcess.packageRoot.appendingPathComponent("Tests/flowrunTests/Fixtures/arazzo")
        let run = try await FlowRunProcess.run([
            "run", "adoption.arazzo.yaml", "--workflow", "adopt-a-pet", "--mock", "adoption.mock.yaml",
            "--input", "species=cat", "--input", "maxPrice=500", "--input", "username=ada",
            "--input", "password=s3cret-pw", "--format", "json",
        ], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.map { $0["id"] as? String } == ["dependsOn-sign-in", "search", "hold", "adopt"])
        #expect(steps.map { ($0["attempts"] as? [Any])?.count } == [0, 2, 1, 1])
        #expect((report["outputs"] as? [String: Any])?["petId"] as? String == "p-5")
        #expect(!run.stdout.contains("s3cret-pw") && !run.stderr.contains("s3cret-pw"))
        // Without the inputs of the workflow it depends on, nothing is sent.
        let missing = try await FlowRunProcess.run([
            "run", "adoption.arazzo.yaml", "--workflow", "adopt-a-pet", "--mock", "adoption.mock.yaml",
            "--input", "species=cat",
        ], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing required input 'username'"), "\(missing.stderr)")
    }

    /// An operation's query parameter with `content: application/json` takes an object, sent as its JSON text;
    /// a step's cookie parameters go out as one Cookie header.
    @Test func jsonContentAndCookieParametersAreSentAsTheOperationSays() async throws {
        let folder = try TemporaryFolder()
        try folder.write("api.openapi.yaml", """
            openapi: 3.1.0
            info: { title: Search, version: "1" }
            servers: [{ url: https://search.example }]
            paths:
              /search:
                get:
                  operationId: search
                  parameters:
                    - name: filter
                      in: query
                      content:
                        application/json:
                          schema: { type: object, properties: { status: { type: string } } }
                    - { name: session, in: cookie, schema: { type: string } }
                  responses:
                    "200": { description: Hits., content: { application/json: { schema: { type: array } } } }
            """)
        try folder.write("search.arazzo.yaml", """
            arazzo: 1.0.1
            info: { title: Search, version: "1" }
            sourceDescriptions: [{ name: api, url: ./api.openapi.yaml, type: openapi }]
            workflows:
              - workflowId: search
                inputs: { type: object, properties: { filter: { type: object } } }
                steps:
                  - stepId: find
                    operationId: search
                    parameters:
                      - { name: filter, in: query, value: $inputs.filter }
                      - { name: session, in: cookie, value: s-1 }
                      - { name: theme, in: cookie, value: dark }
                    successCriteria: [{ condition: $statusCode == 200 }]
                    outputs: { hits: $response.body }
                outputs: { hits: $steps.find.outputs.hits }
            """)
        try folder.write("stubs.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match:
                  method: GET
                  path: /search
                  query: { filter: '{"status":"open"}' }
                  headers: { Cookie: session=s-1; theme=dark }
                respond: { body: [1, 2] }
            """)
        let run = try await FlowRunProcess.run(
            ["run", "search.arazzo.yaml", "--mock", "stubs.mock.yaml", "--input", #"filter={"status":"open"}"#],
            in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("/search?filter=%7B%22status%22%3A%22open%22%7D"), "\(run.stderr)")
    }

    /// docs/arazzo.md's "flowrun inside Arazzo" example, saved and run as the page says: the policy retries the 502,
    /// the token goes out redacted, and without the variable nothing is sent.
    @Test func theDocumentedExtensionsExampleRunsAsThePageSays() async throws {
        let page = try Self.repositoryFile("docs/arazzo.md")
        let section = try #require(page.range(of: "### flowrun inside Arazzo")?.upperBound)
        func block(_ fence: String, after marker: String) throws -> String {
            let start = try #require(page.range(of: marker, range: section..<page.endIndex)?.upperBound)
            let open = try #require(page.range(of: "```\(fence)\n", range: start..<page.endIndex)?.upperBound)
            let close = try #require(page.range(of: "\n```\n", range: open..<page.endIndex)?.lowerBound)
            return String(page[open..<close])
        }
        let folder = try Self.withShopDocument()
        try folder.write("find-cats.arazzo.yaml", try block("yaml", after: "as `find-cats.arazzo.yaml`"))
        try folder.write("find-cats.mock.yaml", try block("yaml", after: "as `find-cats.mock.yaml`"))
        let command = try block("console", after: "as `find-cats.mock.yaml`")
        #expect(command == "$ SHOP_TOKEN=tok-9 flowrun run find-cats.arazzo.yaml --mock find-cats.mock.yaml -v")
        let run = try await FlowRunProcess.run(
            ["run", "find-cats.arazzo.yaml", "--mock", "find-cats.mock.yaml", "-v"], in: folder.url,
            environment: ["SHOP_TOKEN": "tok-9"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("✓ list  GET https://pets.example/v1/pets?species=cat  200"), "\(run.stderr)")
        #expect(run.stderr.contains("(2 attempts)") && run.stderr.contains("> Authorization: Bearer ***"))
        #expect(!run.stderr.contains("tok-9") && !run.stdout.contains("tok-9"))
        let unset = try await FlowRunProcess.run(
            ["run", "find-cats.arazzo.yaml", "--mock", "find-cats.mock.yaml"], in: folder.url, removing: ["SHOP_TOKEN"])
        #expect(unset.status == 2)
        #expect(unset.stderr.contains(
            "find-cats.arazzo.yaml:5:3: error: environment variable SHOP_TOKEN is not set; set it or give it a "
                + "'default' under 'x-flowrun-env' (nothing was sent)"), "\(unset.stderr)")
    }

    /// docs/arazzo.md's extensions: flowrun's env, interceptors and policies declared on the document, chosen by a
    /// workflow and overridden by a step; the policy's retry rule and the Arazzo retry action both apply.
    @Test func flowrunExtensionsAddInterceptorsAndPolicies() async throws {
        let folder = try Self.withShopDocument()
        let document = """
            arazzo: 1.0.1
            info: { title: Extensions, version: "1" }
            sourceDescriptions: [{ name: shop, url: ./adopt-pet.openapi.yaml, type: openapi }]
            x-flowrun-env:
              SHOP_TOKEN: { secret: true }
            x-flowrun-interceptors:
              auth: { bearer: $env.SHOP_TOKEN }
              client: { headers: { X-Client: flowrun } }
            x-flowrun-policies:
              patient:
                timeout: { attempt: 2s, total: 10s }
                retry:
                  - { when: { status: [502] }, attempts: 3, delay: 100ms }
            workflows:
              - workflowId: find
                x-flowrun-interceptors: [client, auth]
                x-flowrun-policy: patient
                steps:
                  - stepId: list
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: cat }]
                    successCriteria: [{ condition: $statusCode == 200 }]
                    onFailure:
                      - { name: busy, type: retry, retryLimit: 1, criteria: [{ condition: $statusCode == 503 }] }
                    outputs: { all: $response.body }
                  - stepId: again
                    x-flowrun-interceptors: [client]
                    x-flowrun-policy: patient
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: dog }]
                outputs: { cats: $steps.list.outputs.all }
            """
        try folder.write("ext.arazzo.yaml", document)
        try folder.write("ext.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets, query: { species: cat }, headers: { Authorization: Bearer tok-9, X-Client: flowrun } }
                respond: [{ status: 502 }, { status: 503 }, { body: [{ id: p-1, name: Tom, price: 1 }] }]
              - match: { method: GET, path: /v1/pets, query: { species: dog }, headers: { X-Client: flowrun, Authorization: !absent } }
                respond: { body: [] }
            """)
        let run = try await FlowRunProcess.run(
            ["run", "ext.arazzo.yaml", "--mock", "ext.mock.yaml", "-v"], in: folder.url, environment: ["SHOP_TOKEN": "tok-9"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("✓ list  GET https://pets.example/v1/pets?species=cat  200"), "\(run.stderr)")
        #expect(run.stderr.contains("(3 attempts)"), "a 502 by the flowrun policy, a 503 by the Arazzo action")
        #expect(run.stderr.contains("> Authorization: Bearer ***") && !run.stderr.contains("tok-9"))
        // A response that does not conform is a warning quoting the body; a secret in it is redacted there too.
        try folder.write("leak.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets }
                respond: { body: [{ id: p-1, name: Tom, price: tok-9 }] }
            """)
        let leak = try await FlowRunProcess.run(
            ["run", "ext.arazzo.yaml", "--mock", "leak.mock.yaml", "--format", "json"], in: folder.url,
            environment: ["SHOP_TOKEN": "tok-9"])
        #expect(leak.stdout.contains("expected a number, found the string"), "\(leak.stdout)")
        #expect(!leak.stdout.contains("tok-9") && !leak.stderr.contains("tok-9"), "\(leak.stdout)")
        let unset = try await FlowRunProcess.run(["run", "ext.arazzo.yaml", "--mock", "ext.mock.yaml"], in: folder.url,
                                                 removing: ["SHOP_TOKEN"])
        #expect(unset.status == 2, "the env section is checked before the first request: \(unset.stderr)")
        try folder.write("ext.arazzo.yaml", document.replacingOccurrences(
            of: "        x-flowrun-interceptors: [client]\n", with: "        x-flowrun-intercepters: [client]\n"))
        let misspelt = try await FlowRunProcess.run(["lint", "ext.arazzo.yaml"], in: folder.url)
        #expect(misspelt.status == 1)
        #expect(misspelt.stdout.contains(
            "error: unknown flowrun extension 'x-flowrun-intercepters' on a step; did you mean 'x-flowrun-interceptors'?"))
    }

    /// Responses the OpenAPI document does not describe: a warning on the attempt by default, in the step lines
    /// and the JSON report; a failed attempt with --check-responses error; nothing with off.
    @Test func responsesAreCheckedAgainstTheOpenAPIDocument() async throws {
        let folder = try Self.withShopDocument()
        try folder.write("find.arazzo.yaml", Self.shopDocument("Find") + """
              - workflowId: find
                steps:
                  - stepId: cats
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: cat }]
                    successCriteria: [{ condition: $statusCode == 200 }]
                  - stepId: dogs
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: dog }]
                    successCriteria: [{ condition: $statusCode == 404 }]
                  - stepId: owls
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: owl }]
            """)
        try folder.write("stubs.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets, query: { species: cat } }
                respond: { body: [{ id: 7, name: Tom }] }
              - match: { method: GET, path: /v1/pets, query: { species: dog } }
                respond: { status: 404, headers: { Content-Type: text/plain }, body: no dogs }
              - match: { method: GET, path: /v1/pets, query: { species: owl } }
                respond: { headers: { Content-Type: text/csv }, body: "id,name" }
            """)
        let warned = try await FlowRunProcess.run(["run", "find.arazzo.yaml", "--mock", "stubs.mock.yaml"], in: folder.url)
        #expect(warned.status == 0, "\(warned.stderr)")
        let prefix = "warning: attempt 1: the response does not conform to the OpenAPI document: "
        #expect(warned.stderr.contains(prefix + "its body does not match the schema the operation describes for "
            + "status 200: at /0: missing required property 'price'; at /0/id: expected a string, found the number 7"))
        #expect(warned.stderr.contains(prefix + "status 404 is not one the operation describes (200)"))
        #expect(warned.stderr.contains(prefix + "its content type text/csv is not one the operation describes for "
            + "status 200 (application/json)"), "\(warned.stderr)")
        let json = try await FlowRunProcess.run(
            ["run", "find.arazzo.yaml", "--mock", "stubs.mock.yaml", "--format", "json"], in: folder.url)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let steps = try #require(report?["steps"] as? [[String: Any]])
        let warnings = steps.map { (($0["attempts"] as? [[String: Any]])?.first?["warnings"] as? [String])?.count ?? 0 }
        #expect(warnings == [1, 1, 2], "the owls' body is also not an array of pets")
        let failed = try await FlowRunProcess.run(
            ["run", "find.arazzo.yaml", "--mock", "stubs.mock.yaml", "--check-responses", "error"], in: folder.url)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("error: step 'cats', attempt 1: the response does not conform to the OpenAPI document"))
        let quiet = try await FlowRunProcess.run(
            ["run", "find.arazzo.yaml", "--mock", "stubs.mock.yaml", "--check-responses", "off"], in: folder.url)
        #expect(quiet.status == 0 && !quiet.stderr.contains("warning"), "\(quiet.stderr)")
    }

    /// `$url`, `$method`, `$request.query|header|path.<name>`, `$request.body#/…` and `$sourceDescriptions.<name>.url`
    /// read what the step sends, in its outputs and criteria.
    @Test func expressionsReadTheRequestTheStepSends() async throws {
        let folder = try Self.withShopDocument()
        try folder.write("req.arazzo.yaml", Self.shopDocument("Requests") + """
              - workflowId: hold
                steps:
                  - stepId: find
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: cat }, { name: X-Trace, in: header, value: t-1 }]
                    successCriteria:
                      - condition: $method == 'GET' && $request.query.species == 'cat'
                      - { context: $url, type: regex, condition: '/v1/pets[?]species=cat$' }
                    outputs:
                      url: $url
                      method: $method
                      species: $request.query.species
                      trace: $request.header.x-trace
                      source: $sourceDescriptions.shop.url
                      petId: $response.body#/0/id
                  - stepId: adopt
                    operationId: adoptPet
                    requestBody:
                      payload: { petId: $steps.find.outputs.petId, holdId: h-1 }
                    successCriteria:
                      - condition: $request.body#/holdId == 'h-1'
                    outputs:
                      sentPet: $request.body#/petId
                outputs:
                  url: $steps.find.outputs.url
                  method: $steps.find.outputs.method
                  species: $steps.find.outputs.species
                  trace: $steps.find.outputs.trace
                  source: $steps.find.outputs.source
                  sentPet: $steps.adopt.outputs.sentPet
            """)
        try folder.write("req.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets }
                respond: { body: [{ id: p-3, name: Tom, price: 5 }] }
              - match: { method: POST, path: /v1/adoptions }
                respond: { status: 201, body: { id: a-1, certificate: C-1 } }
            """)
        let run = try await FlowRunProcess.run(
            ["run", "req.arazzo.yaml", "--mock", "req.mock.yaml", "--format", "json"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(report?["outputs"] as? [String: String] == [
            "url": "https://pets.example/v1/pets?species=cat", "method": "GET", "species": "cat", "trace": "t-1",
            "source": "./adopt-pet.openapi.yaml", "sentPet": "p-3",
        ])
    }

    /// A `retry` that runs another step first (`stepId`), and a `goto` to another workflow (`workflowId`) once the
    /// retries are used up.
    @Test func failureActionsRunAStepOrAWorkflowFirst() async throws {
        let folder = try Self.withShopDocument()
        try folder.write("relist.arazzo.yaml", Self.shopDocument("Hold a cat") + """
              - workflowId: hold-a-cat
                inputs: { type: object, properties: { species: { type: string } } }
                steps:
                  - stepId: find
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: $inputs.species }]
                    outputs: { petId: $response.body#/0/id }
                  - stepId: hold
                    operationId: holdPet
                    parameters: [{ name: petId, in: path, value: $steps.find.outputs.petId }]
                    successCriteria: [{ condition: $statusCode == 201 }]
                    onFailure:
                      - { name: listAgain, type: retry, stepId: find, retryLimit: 2, retryAfter: 0.1, criteria: [{ condition: $statusCode == 409 }] }
                      - { name: giveUp, type: goto, workflowId: list-others, criteria: [{ condition: $statusCode == 409 }] }
                    outputs: { holdId: $response.body#/id }
                outputs: { holdId: $steps.hold.outputs.holdId, petId: $steps.find.outputs.petId }
              - workflowId: list-others
                inputs: { type: object, properties: { species: { type: string } } }
                steps:
                  - stepId: list
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: $inputs.species }, { name: status, in: query, value: held }]
                    outputs: { count: $response.body#/0/id }
            """)
        // The second cat listed is free: one retry, which lists the cats again first.
        try folder.write("free.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets, query: { species: cat } }
                respond: [{ body: [{ id: p-1, name: Tom, price: 1 }] }, { body: [{ id: p-2, name: Kit, price: 2 }] }]
              - match: { method: POST, path: /v1/pets/p-1/hold }
                respond: { status: 409, body: { message: taken } }
              - match: { method: POST, path: /v1/pets/p-2/hold }
                respond: { status: 201, body: { id: hold-2 } }
            """)
        let free = try await FlowRunProcess.run(
            ["run", "relist.arazzo.yaml", "--workflow", "hold-a-cat", "--mock", "free.mock.yaml", "--input", "species=cat",
             "--format", "json"], in: folder.url)
        #expect(free.status == 0, "\(free.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(free.stdout.utf8)) as? [String: Any]
        #expect(report?["outputs"] as? [String: String] == ["holdId": "hold-2", "petId": "p-2"])
        let steps = (report?["steps"] as? [[String: Any]])?.map { "\($0["id"]!) \($0["status"]!)" }
        #expect(steps == ["find succeeded", "hold recovered", "find succeeded", "hold succeeded"], "\(free.stdout)")

        // Every cat is taken: two retries, then the other workflow runs and the run ends.
        try folder.write("taken.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets, query: { species: cat, status: held } }
                respond: { body: [{ id: p-9, name: Max, price: 9 }] }
              - match: { method: GET, path: /v1/pets, query: { species: cat } }
                respond: { body: [{ id: p-1, name: Tom, price: 1 }] }
              - match: { method: POST, path: /v1/pets/p-1/hold }
                respond: { status: 409, body: { message: taken } }
            """)
        let taken = try await FlowRunProcess.run(
            ["run", "relist.arazzo.yaml", "--workflow", "hold-a-cat", "--mock", "taken.mock.yaml", "--input", "species=cat"],
            in: folder.url)
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(taken.stderr.components(separatedBy: "↺ hold  POST https://pets.example/v1/pets/p-1/hold  409").count - 1 == 3,
                "\(taken.stderr)")
        #expect(taken.stderr.contains("✓ workflow-list-others  workflow list-others (1 step)"), "\(taken.stderr)")
        #expect(taken.stdout.contains("\"petId\"") && !taken.stdout.contains("holdId"), "\(taken.stdout)")
    }

    /// Workflows of another Arazzo document, an `arazzo` source: called by a step, run first by `dependsOn`, gone to
    /// by an action; checked by `lint`, and read from a local copy when the source is remote.
    @Test func workflowsOfAnArazzoSourceRunAsThisDocumentsDo() async throws {
        let folder = try Self.withShopDocument()
        try folder.write("shared/pets.arazzo.yaml", Self.shopDocument("Shared").replacingOccurrences(
            of: "./adopt-pet.openapi.yaml", with: "../adopt-pet.openapi.yaml") + """
              - workflowId: list-cats
                inputs: { type: object, properties: { species: { type: string } } }
                steps:
                  - stepId: list
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: $inputs.species }]
                    outputs: { first: $response.body#/0/id }
                outputs: { first: $steps.list.outputs.first }
            """)
        let main = """
            arazzo: 1.0.1
            info: { title: Main, version: "1" }
            sourceDescriptions:
              - { name: shop, url: ./adopt-pet.openapi.yaml, type: openapi }
              - { name: shared, url: ./shared/pets.arazzo.yaml, type: arazzo }
            workflows:
              - workflowId: hold-first
                inputs: { type: object, properties: { species: { type: string } } }
                dependsOn: [$sourceDescriptions.shared.list-cats]
                steps:
                  - stepId: call
                    workflowId: $sourceDescriptions.shared.list-cats
                    parameters: [{ name: species, value: dog }]
                    outputs: { first: $outputs.first }
                  - stepId: hold
                    operationId: holdPet
                    parameters: [{ name: petId, in: path, value: $steps.call.outputs.first }]
                    onFailure: [{ name: again, type: goto, workflowId: $sourceDescriptions.shared.list-cats }]
                outputs: { first: $steps.call.outputs.first }
            """
        try folder.write("main.arazzo.yaml", main)
        try folder.write("pets.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets, query: { species: cat } }
                respond: { body: [{ id: p-1, name: Tom, price: 1 }] }
              - match: { method: GET, path: /v1/pets, query: { species: dog } }
                respond: { body: [{ id: p-2, name: Rex, price: 2 }] }
              - match: { method: POST, path: /v1/pets/p-2/hold }
                respond: { status: 409, body: { message: taken } }
            """)
        let run = try await FlowRunProcess.run(
            ["run", "main.arazzo.yaml", "--mock", "pets.mock.yaml", "--input", "species=cat"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\"first\" : \"p-2\"") || run.stdout.contains("\"first\": \"p-2\""), "\(run.stdout)")
        let lines = run.stderr.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        // The goto runs the workflow again as its `dependsOn-…` step: it is in `dependsOn`.
        #expect(lines == ["✓ dependsOn-shared-list-cats", "✓ call", "↺ hold", "✓ dependsOn-shared-list-cats"], "\(run.stderr)")

        try folder.write("typo.arazzo.yaml", main.replacingOccurrences(of: "shared.list-cats", with: "shared.list-cat"))
        let typo = try await FlowRunProcess.run(["lint", "typo.arazzo.yaml"], in: folder.url)
        #expect(typo.status == 1)
        #expect(typo.stdout.contains(
            "typo.arazzo.yaml:9:17: error: source 'shared' (./shared/pets.arazzo.yaml) has no workflow 'list-cat'; did "
                + "you mean 'list-cats'?"), "\(typo.stdout)")

        try folder.write("remote.arazzo.yaml", main.replacingOccurrences(
            of: "./shared/pets.arazzo.yaml", with: "https://pets.example/pets.arazzo.yaml"))
        let remote = try await FlowRunProcess.run(
            ["run", "remote.arazzo.yaml", "--mock", "pets.mock.yaml", "--input", "species=cat"], in: folder.url)
        #expect(remote.status == 2)
        #expect(remote.stderr.contains(
            "remote.arazzo.yaml:9:17: error: '$sourceDescriptions.shared.list-cats' is a workflow of source 'shared', "
                + "which flowrun could not read; give a local copy with --source shared=PATH"), "\(remote.stderr)")
        let copied = try await FlowRunProcess.run(
            ["run", "remote.arazzo.yaml", "--mock", "pets.mock.yaml", "--input", "species=cat",
             "--source", "shared=shared/pets.arazzo.yaml"], in: folder.url)
        #expect(copied.status == 0, "\(copied.stderr)")
    }

    /// An output no step declares is a warning in `lint`, and absent at run time: the step that reads it fails there,
    /// after the steps before it ran.
    @Test func anOutputNoStepDeclaresIsAbsentWhenItIsRead() async throws {
        let folder = try Self.withShopDocument()
        try folder.write("typo.arazzo.yaml", Self.shopDocument("Typo") + """
              - workflowId: hold-a-cat
                steps:
                  - stepId: find
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: cat }]
                    outputs: { petId: $response.body#/0/id }
                  - stepId: hold
                    operationId: holdPet
                    parameters: [{ name: petId, in: path, value: $steps.find.outputs.petID }]
                    outputs: { holdId: $response.body#/id, again: $steps.hold.outputs.holdId }
            """)
        try folder.write("cats.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets }
                respond: { body: [{ id: p-1, name: Tom, price: 1 }] }
            """)
        let lint = try await FlowRunProcess.run(["lint", "typo.arazzo.yaml"], in: folder.url)
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout.contains(
            "typo.arazzo.yaml:13:54: warning: step 'find' has no output 'petID', so the value is absent when it is "
                + "read; did you mean 'petId'?"), "\(lint.stdout)")
        #expect(lint.stdout.contains(
            "typo.arazzo.yaml:14:55: warning: step 'hold' reads its own output 'holdId', which does not exist while "
                + "the step runs"), "\(lint.stdout)")
        let run = try await FlowRunProcess.run(["run", "typo.arazzo.yaml", "--mock", "cats.mock.yaml"], in: folder.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("✓ find"), "\(run.stderr)")
        #expect(run.stderr.contains(
            "error: step 'hold', attempt 1: '$steps.find.outputs.petID' reads output 'petID', which step 'find' did not "
                + "produce"), "\(run.stderr)")
    }

    /// A success action's `goto` to another workflow runs it, then ends the run.
    @Test func aSuccessActionGoesToAnotherWorkflow() async throws {
        let folder = try Self.withTwoWorkflows()
        let document = try String(contentsOf: folder.url.appendingPathComponent("two.arazzo.yaml"), encoding: .utf8).replacingOccurrences(
            of: "            type: goto\n            stepId: find\n", with: "            type: goto\n            workflowId: list-cats\n")
        #expect(document.contains("workflowId: list-cats\n            criteria"))
        try folder.write("two.arazzo.yaml", document)
        try folder.write("none.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets, query: { species: dog } }
                respond: { body: [] }
              - match: { method: GET, path: /v1/pets, query: { species: cat } }
                respond: { body: [{ id: p-1, name: Tom, price: 10 }] }
            """)
        let run = try await FlowRunProcess.run(
            ["run", "two.arazzo.yaml", "--workflow", "adopt-a-pet", "--mock", "none.mock.yaml", "--input", "species=dog",
             "--input", "adopter=bo"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("✓ workflow-list-cats  workflow list-cats (1 step)"), "\(run.stderr)")
        #expect(run.stderr.contains("- hold  skipped") && run.stderr.contains("- adopt  skipped"), "\(run.stderr)")
    }

    @Test func aStepWhoseCriteriaFailWithNoActionFailsTheRun() async throws {
        let folder = try Self.withShopDocument()
        try folder.write("adopt-pet.arazzo.yaml", try Self.repositoryFile("workflows/adopt-pet.arazzo.yaml"))
        try folder.write("stubs.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets }
                respond: { body: [{ id: p-1, name: Rex, price: 10 }] }
              - match: { method: POST, path: /v1/pets/p-1/hold }
                respond: { status: 201, body: { id: H-1 } }
            """)
        let run = try await FlowRunProcess.run(
            ["run", "adopt-pet.arazzo.yaml", "--mock", "stubs.mock.yaml", "--input", "species=dog", "--input", "adopter=bo"], in: folder.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains(
            "error: step 'hold', attempt 1: success criterion 2 of 2 does not hold for the response (status 201): "
                + "^hold-[0-9]+$ (context $response.body#/id)"), "\(run.stderr)")
        #expect(run.stderr.contains("- adopt  skipped"), "\(run.stderr)")
    }

    @Test func aDocumentWithSeveralWorkflowsNeedsWorkflow() async throws {
        let folder = try Self.withTwoWorkflows()
        try folder.write("stubs.mock.yaml", """
            flowrun-mock: 1
            stubs:
              - match: { method: GET, path: /v1/pets, query: { species: cat } }
                respond: { body: [{ id: p-1, name: Tom, price: 10 }] }
            """)
        let unchosen = try await FlowRunProcess.run(["run", "two.arazzo.yaml", "--mock", "stubs.mock.yaml"], in: folder.url)
        #expect(unchosen.status == 2)
        #expect(unchosen.stderr.contains(
            "flowrun run: two.arazzo.yaml has 2 workflows; choose one with --workflow: adopt-a-pet, list-cats"))
        let misspelt = try await FlowRunProcess.run(
            ["run", "two.arazzo.yaml", "--workflow", "list-cat", "--mock", "stubs.mock.yaml"], in: folder.url)
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains(
            "two.arazzo.yaml:13:17: error: the document has no workflow 'list-cat'; did you mean 'list-cats'?"),
            "\(misspelt.stderr)")
        let chosen = try await FlowRunProcess.run(
            ["run", "two.arazzo.yaml", "--workflow", "list-cats", "--mock", "stubs.mock.yaml"], in: folder.url)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("\"name\" : \"Tom\"") || chosen.stdout.contains("\"name\": \"Tom\""))
    }

    @Test func aWorkflowThatCallsItselfIsALocatedError() async throws {
        let folder = try Self.withShopDocument()
        let document = try Self.repositoryFile("workflows/adopt-pet.arazzo.yaml")
            .replacingOccurrences(of: "      - stepId: adopt\n        operationId: adoptPet\n",
                                  with: "      - stepId: adopt\n        workflowId: adopt-a-pet\n")
        try folder.write("loop.arazzo.yaml", document)
        let run = try await FlowRunProcess.run(["run", "loop.arazzo.yaml", "--input", "species=cat", "--input", "adopter=bo"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains(
            "loop.arazzo.yaml:61:21: error: step 'adopt' calls workflow 'adopt-a-pet', which is already being run "
                + "further up: the workflows call each other in a cycle, loop.arazzo.yaml#adopt-a-pet → "
                + "loop.arazzo.yaml#adopt-a-pet [sub-workflow]"), "\(run.stderr)")
    }

    @Test func testNeedsWorkflowIdForADocumentWithSeveralAndOnlyForArazzo() async throws {
        let folder = try Self.withTwoWorkflows()
        let unchosen = try folder.write("two.test.yaml", """
            flowrun-test: 1
            workflow: two.arazzo.yaml
            cases: [{ name: lists, stubs: [{ match: { method: GET, path: /v1/pets }, respond: { body: [] } }] }]
            """)
        let tested = try await FlowRunProcess.run(["test", unchosen])
        #expect(tested.status == 2)
        #expect((tested.stdout + tested.stderr).contains(
            "two.test.yaml:2:11: error: two.arazzo.yaml is an Arazzo document with several workflows: name the one to "
                + "test with 'workflowId:'"), "\(tested.stdout)\(tested.stderr)")
        let chosen = try folder.write("chosen.test.yaml", """
            flowrun-test: 1
            workflow: two.arazzo.yaml
            workflowId: list-cats
            cases:
              - name: lists
                stubs: [{ match: { method: GET, path: /v1/pets }, respond: { body: [] } }]
                expect: { calls: ["GET /v1/pets?species=cat"], steps: { list: succeeded } }
            """)
        let passed = try await FlowRunProcess.run(["test", chosen])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        try folder.write("flow.yaml", """
            flowrun: 1
            servers: { api: { url: "http://api.test" } }
            steps:
              - { id: ping, server: api, request: { method: GET, path: /ping } }
            """)
        let misplaced = try folder.write("flow.test.yaml", """
            flowrun-test: 1
            workflow: flow.yaml
            workflowId: ping
            cases: [{ name: pings, stubs: [{ match: { method: GET, path: /ping }, respond: { body: {} } }] }]
            """)
        let refused = try await FlowRunProcess.run(["test", misplaced])
        #expect(refused.status == 2)
        #expect((refused.stdout + refused.stderr).contains(
            "flow.test.yaml:3:13: error: 'workflowId' chooses a workflow of an Arazzo document"),
            "\(refused.stdout)\(refused.stderr)")
    }

    /// The start of an Arazzo document titled `title` whose one source, `shop`, is the example's OpenAPI document,
    /// up to `workflows:`.
    static func shopDocument(_ title: String) -> String {
        """
        arazzo: 1.0.1
        info: { title: \(title), version: "1" }
        sourceDescriptions: [{ name: shop, url: ./adopt-pet.openapi.yaml, type: openapi }]
        workflows:

        """
    }

    /// A folder with the example's OpenAPI document, `adopt-pet.openapi.yaml`, which a document there names as
    /// its source `shop`.
    static func withShopDocument() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("adopt-pet.openapi.yaml", try repositoryFile("workflows/adopt-pet.openapi.yaml"))
        return folder
    }

    /// A folder with `two.arazzo.yaml`: the example's workflow and `list-cats`, which lists the cats.
    static func withTwoWorkflows() throws -> TemporaryFolder {
        let folder = try withShopDocument()
        try folder.write("two.arazzo.yaml", try repositoryFile("workflows/adopt-pet.arazzo.yaml") + """
              - workflowId: list-cats
                steps:
                  - stepId: list
                    operationId: findPets
                    parameters: [{ name: species, in: query, value: cat }]
                    outputs: { all: $response.body }
                outputs: { cats: $steps.list.outputs.all }

            """)
        return folder
    }

    static func repositoryFile(_ path: String) throws -> String {
        try String(contentsOf: FlowRunProcess.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }
}
