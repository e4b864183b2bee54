import Foundation
import Testing
@testable import FlowCore

/// A minimal valid workflow that tests extend; line 1 is `flowrun: 1`.
private let header = """
    flowrun: 1
    servers: { api: "https://api.example.com" }
    defaults: { server: api }

    """

/// The single error of `yaml`, failing the test when there is not exactly one.
private func onlyError(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Diagnostic? {
    let errors = diagnostics(yaml).filter { $0.severity == .error }
    #expect(errors.count == 1, "expected one error, got: \(errors)", sourceLocation: sourceLocation)
    return errors.first
}

struct WorkflowCompilerTests {
    @Test func bindingToUnknownStepIsRejected() throws {
        let error = #expect(throws: FlowError.self) {
            try WorkflowCompiler().compile(yaml: """
                flowrun: 1
                steps:
                  - id: a
                    request: { method: GET, path: "https://x.test/items/{$steps.missing.outputs.id}" }
                """, path: "t.yaml")
        }
        #expect(error?.code == .unknownStep)
        #expect(error?.location == FlowCore.SourceLocation(path: "t.yaml", line: 4, column: 65))
    }

    @Test func misspelledOutputSuggestsTheDeclaredOne() throws {
        let error = onlyError(header + """
            types:
              User: { type: object, properties: { userId: { type: string } } }
            steps:
              - id: user
                request: { method: GET, path: /user }
                response: { 200: User }
                outputs: { userId: $response.body#/userId }
              - id: account
                request: { method: GET, path: "/account/{$steps.user.outputs.userID}" }
            """)
        #expect(error?.code == .unknownReference)
        #expect(error?.message.contains("did you mean 'userId'?") == true)
        #expect(error?.location?.line == 12)
        #expect(error?.location?.column == 66)
    }

    @Test func pointerIntoAMissingPropertyIsRejected() {
        let error = onlyError(header + """
            types:
              User: { type: object, properties: { userId: { type: string } } }
            steps:
              - id: user
                request: { method: GET, path: /user }
                response: { 200: User }
                outputs: { id: $response.body#/nope }
            """)
        #expect(error?.code == .bindingTypeMismatch)
        #expect(error?.message.contains("no property 'nope'") == true)
        #expect(error?.location?.line == 10)
    }

    @Test func pointerIntoAnOpenObjectIsAllowed() {
        let errors = diagnostics(header + """
            types:
              Bag: { type: object, additionalProperties: true, properties: { a: { type: string } } }
            steps:
              - id: s
                request: { method: GET, path: /bag }
                response: { 200: Bag }
                outputs: { b: $response.body#/anything }
            """).filter { $0.severity == .error }
        #expect(errors.isEmpty)
    }

    @Test func pointerThroughArraysAndReferencesReachesTheElementType() {
        let result = WorkflowCompiler().check(yaml: header + """
            types:
              Item: { type: object, properties: { id: { type: integer } } }
              Page: { type: object, properties: { items: { type: array, items: Item } } }
            steps:
              - id: list
                request: { method: GET, path: /items }
                response: { 200: Page }
                outputs: { first: $response.body#/items/0/id }
              - id: one
                request: { method: GET, path: "/items/{$steps.list.outputs.first}" }
            """, path: "t.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let type = result.plan?.step("list")?.outputTypes["first"]
        #expect(type?.types == [.integer])
        #expect(result.plan?.step("one")?.dependencies == ["list"])
    }

    @Test func bindingAnObjectIntoAPathIsRejected() {
        let error = onlyError(header + """
            types:
              User: { type: object, properties: { address: { type: object } } }
            steps:
              - id: user
                request: { method: GET, path: /user }
                response: { 200: User }
                outputs: { address: $response.body#/address }
              - id: map
                request: { method: GET, path: "/map/{$steps.user.outputs.address}" }
            """)
        #expect(error?.code == .bindingTypeMismatch)
        #expect(error?.message.contains("URL path") == true)
    }

    @Test func cyclesAreRefusedNamingEveryStep() {
        let error = onlyError(header + """
            steps:
              - id: a
                request: { method: GET, path: "/a/{$steps.c.outputs.x}" }
                outputs: { x: $response.body }
              - id: b
                request: { method: GET, path: "/b/{$steps.a.outputs.x}" }
                outputs: { x: $response.body }
              - id: c
                request: { method: GET, path: "/c/{$steps.b.outputs.x}" }
                outputs: { x: $response.body }
            """)
        #expect(error?.code == .dependencyCycle)
        #expect(error?.message.contains("a → c → b → a") == true)
    }

    @Test func stepsAreOrderedByDataDependencies() throws {
        let plan = try WorkflowCompiler().compile(yaml: header + """
            steps:
              - id: transactions
                request: { method: GET, path: "/t/{$steps.account.outputs.id}" }
              - id: account
                request: { method: GET, path: "/a/{$steps.user.outputs.id}" }
                outputs: { id: $response.body#/id }
              - id: user
                request: { method: GET, path: /user }
                outputs: { id: $response.body#/id }
            """, path: "t.yaml")
        #expect(plan.steps.map(\.id) == ["user", "account", "transactions"])
    }

    @Test func readersOfAVarRunAfterTheStepsThatSetIt() throws {
        let plan = try WorkflowCompiler().compile(yaml: header + """
            vars: { session: "" }
            steps:
              - id: read
                request: { method: GET, path: /data, headers: { X-Session: $vars.session } }
              - id: login
                request: { method: POST, path: /login }
                set: { session: $response.header.X-Session }
            """, path: "t.yaml")
        #expect(plan.steps.map(\.id) == ["login", "read"])
        #expect(plan.step("read")?.dependencies == ["login"])
    }

    @Test(arguments: [
        ("flowrun: 1\nsteps: 3\n", FlowError.Code.typeMismatch, 2, 8),
        ("flowrun: 1\nstep: []\n", .unknownKey, 2, 1),
        ("flowrun: 1\nstep: []\n", .missingKey, 1, 1),
        ("flowrun: 2\nsteps: []\n", .unsupportedVersion, 1, 10),
        ("", .typeMismatch, 1, 1),
        ("flowrun: 1\nsteps:\n  - id: a\n    request: { method: GET, path: \"https://x.test/{$inputz.a}\" }\n",
         .invalidExpression, 4, 52),
    ])
    func malformedFilesGetLocatedErrors(yaml: String, code: FlowError.Code, line: Int, column: Int) {
        let first = diagnostics(yaml).first { $0.severity == .error && $0.code == code }
        #expect(first?.code == code)
        #expect(first?.location?.line == line)
        #expect(first?.location?.column == column)
    }

    @Test func unknownKeysSuggestTheIntendedOne() {
        let error = onlyError(header + """
            steps:
              - id: a
                requets: { method: GET, path: /a }
                request: { method: GET, path: /a }
            """)
        #expect(error?.code == .unknownKey)
        #expect(error?.message.contains("did you mean 'request'?") == true)
        #expect(error?.location?.line == 6)
    }

    /// `on:` is what a user guesses for the refresh trigger (GitHub Actions' word); it is too far from `when` for
    /// edit distance, so the finding names `when` as a known alternative.
    @Test func anOnKeyInARefreshInterceptorSuggestsWhen() {
        let error = onlyError(header + """
            interceptors:
              refresh: { on: { status: 401 }, run: token, then: replay }
            steps:
              - id: a
                interceptors: [refresh]
                request: { method: GET, path: /a }
              - id: token
                on-demand: true
                request: { method: POST, path: /token }
            """)
        #expect(error?.code == .unknownKey)
        #expect(error?.message == "unknown key 'on' in interceptor 'refresh'; did you mean 'when'?")
        #expect(error?.location?.line == 5 && error?.location?.column == 14)
    }

    /// An OpenAPI document given as a workflow (`run`, a test file's `workflow:`, a `workflow:` step) is one error at
    /// its `openapi` key that says how a workflow uses it, not one per key; YAML or JSON alike.
    @Test(arguments: [
        ("openapi: 3.1.0\ninfo: { title: Shop, version: '1' }\npaths: {}\n", 1, 1),
        ("{\n  \"openapi\": \"3.0.3\",\n  \"info\": { \"title\": \"Shop\", \"version\": \"1\" },\n  \"paths\": {}\n}\n", 2, 3),
    ])
    func anOpenAPIDocumentIsOneErrorSayingWhatItIs(document: String, line: Int, column: Int) {
        let found = WorkflowCompiler().check(yaml: document, path: "shop.openapi.yaml").diagnostics
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .typeMismatch)
        #expect(found.first?.message == "this is an OpenAPI document, not a workflow: name it under 'openapi:' in a "
            + "workflow and call its operations with 'operation:' steps, or list it under 'sourceDescriptions' in an "
            + "Arazzo document")
        #expect(found.first?.location == FlowCore.SourceLocation(path: "shop.openapi.yaml", line: line, column: column))
    }

    @Test(arguments: ["5 parsecs", "fast", "0s", "-1s", "10"])
    func badDurationsAreRejected(duration: String) {
        let error = onlyError(header + """
            policies:
              p: { timeout: { attempt: \(duration) } }
            steps:
              - id: a
                policy: p
                request: { method: GET, path: /a }
            """)
        #expect(error?.code == .invalidValue || error?.code == .typeMismatch)
        #expect(error?.location?.line == 5)
    }

    @Test func allProblemsOfAFileAreReportedInOnePass() {
        let errors = diagnostics(header + """
            steps:
              - id: a
                request: { method: get, path: /a }
                policy: missing
              - id: b
                request: { method: GET, path: /b, headers: { X-A: $vars.nothing } }
                response: { 2xx: Nope }
            """).filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.invalidValue, .unknownReference, .unknownReference, .unknownReference])
        #expect(errors.map { $0.location?.line } == [6, 7, 9, 10])
    }

    @Test func unusedDeclarationsAndUnreachableStepsAreWarnings() throws {
        let result = WorkflowCompiler().check(yaml: header + """
            types: { Unused: { type: string } }
            policies: { idle: { timeout: { total: 10s }, retry: [{ attempts: 2 }] } }
            steps:
              - id: a
                request: { method: GET, path: /a }
              - id: orphan
                on-demand: true
                request: { method: GET, path: /o }
            """, path: "t.yaml")
        #expect(!result.hasErrors)
        #expect(result.plan != nil)
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map(\.code) == [.unused, .unused, .unreachable])
    }

    @Test func responseExpressionsAreOnlyAllowedAfterAResponse() {
        let error = onlyError(header + """
            steps:
              - id: a
                request: { method: GET, path: /a, headers: { X-Status: $statusCode } }
            """)
        #expect(error?.code == .invalidExpression)
    }

    @Test func refreshInterceptorMustRunAnOnDemandStep() {
        let error = onlyError(header + """
            interceptors:
              refresh: { run: token }
            steps:
              - id: a
                interceptors: [refresh]
                request: { method: GET, path: /a }
              - id: token
                request: { method: POST, path: /token }
            """)
        #expect(error?.message.contains("not on-demand") == true)
        #expect(error?.location?.line == 5)
    }

    @Test func catchRulesMustNameDeclaredStepsAndOutputs() {
        let errors = diagnostics(header + """
            steps:
              - id: list
                request: { method: GET, path: /list }
                outputs: { items: $response.body }
            catch:
              - when: { step: list, status: 404 }
                fallback: { itemz: [] }
              - when: { step: lst }
                goto: list
            """).filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.unknownReference, .unknownStep])
        #expect(errors.first?.message.contains("did you mean 'items'?") == true)
    }

    /// `retry` and `end` after a handler are Arazzo's actions, not words a workflow file may write.
    @Test func aRunRuleThenIsFailOrContinue() {
        for word in ["retry", "end", "stop"] {
            let error = onlyError(header + """
                steps:
                  - id: list
                    request: { method: GET, path: /list }
                  - id: report
                    on-demand: true
                    request: { method: POST, path: /report }
                catch:
                  - { when: { step: list }, run: report, then: \(word) }
                """)
            #expect(error?.message == "'then' is 'fail' or 'continue', found '\(word)'")
        }
    }

    @Test func relativePathsNeedAServer() {
        let error = onlyError("""
            flowrun: 1
            steps:
              - id: a
                request: { method: GET, path: /a }
            """)
        #expect(error?.code == .missingKey)
        #expect(error?.location?.line == 4)
    }

    @Test func binaryGarbageIsAnErrorNotACrash() {
        var bytes: [UInt8] = [0x00, 0xFF, 0xFE, 0x80]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4096 { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
        let result = WorkflowCompiler().check(bytes: bytes, path: "garbage.yaml")
        #expect(result.hasErrors)
        #expect(result.plan == nil)
        #expect(result.diagnostics.first?.location?.path == "garbage.yaml")
    }

    @Test func aHugeFileIsRefusedByTheSizeLimit() {
        var limits = YAMLLoader.Limits.default
        limits.maxFileSize = 1024
        let yaml = "flowrun: 1\n" + String(repeating: "# padding line\n", count: 200)
        let result = WorkflowCompiler(loaderLimits: limits).check(yaml: yaml, path: "big.yaml")
        #expect(result.diagnostics.first?.code == .limitExceeded)
    }

    @Test func catchRulesReadTheFailedResponseByTheErrorType() {
        let workflow = header + """
            types:
              Item: { type: object, properties: { id: { type: string } } }
              ApiError: { type: object, properties: { code: { type: string } } }
            steps:
              - id: item
                request: { method: GET, path: /item }
                response: { 200: Item, default: ApiError }
                outputs: { id: $response.body#/id }
            catch:
              - when: { step: item }
                fallback: { id: $response.body#/code }
            """
        #expect(diagnostics(workflow).filter { $0.severity == .error }.isEmpty)
        let error = onlyError(workflow.replacingOccurrences(of: "#/code }", with: "#/cod }"))
        #expect(error?.message.contains("did you mean 'code'?") == true)
    }

    @Test(arguments: [
        "    request: { method: GET, path: /a, headers: { X-A: [1, 2] } }",
        "    request: { method: GET, path: /a, query: { filter: { a: 1 } } }",
    ])
    func literalCollectionsAreRejectedWhereOnlyScalarsFit(request: String) {
        let error = onlyError(header + "steps:\n  - id: a\n" + request + "\n")
        #expect(error?.code == .bindingTypeMismatch)
        #expect(error?.location?.line == 6)
    }

    @Test func serverURLsMustBeStrings() {
        let error = onlyError("""
            flowrun: 1
            servers: { api: 42 }
            defaults: { server: api }
            steps:
              - { id: a, request: { method: GET, path: /a } }
            """)
        #expect(error?.code == .typeMismatch)
        #expect(error?.location?.line == 2)
    }

    @Test(arguments: ["GET", "HEAD"])
    func aBodyOnARequestWithoutBodySemanticsIsAWarningWithItsOwnCode(method: String) throws {
        let found = diagnostics(header + """
            steps:
              - id: a
                request: { method: \(method), path: /a, body: { q: 1 } }
            """)
        let warning = try #require(found.first)
        #expect(found.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.code == .ignoredBody)
        #expect(warning.location?.line == 6)
    }

    /// A form, text or multipart body on a GET or HEAD is as likely to be dropped as a JSON one.
    @Test(arguments: ["GET", "HEAD"], ["form: { q: x }", "text: hello", "multipart: { q: x }"])
    func everyKindOfBodyOnARequestWithoutBodySemanticsIsWarnedAbout(method: String, body: String) throws {
        let found = diagnostics(header + """
            steps:
              - id: a
                request: { method: \(method), path: /a, \(body) }
            """)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .ignoredBody)
        #expect(found.first?.severity == .warning)
        #expect(found.first?.message == "a \(method) request with a body; many servers ignore or refuse it")
    }
}
