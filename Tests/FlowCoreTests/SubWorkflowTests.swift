import Foundation
import Synchronization
import Testing
@testable import FlowCore

/// `workflow:` steps: the called file compiled with the caller (inputs checked against its schema, its outputs
/// typed for readers, cycles and broken files refused where the step names them), and run as a nested run
/// whose steps, failures and secrets show in the caller's report.
struct SubWorkflowTests {
    /// A login workflow: POST /login with a username and a password input, giving a token output.
    static let login = """
        flowrun: 1
        inputs:
          type: object
          required: [username, password]
          properties:
            username: { type: string }
            password: { type: string, format: password }
            remember: { type: boolean }
        servers: { auth: "https://auth.test" }
        types:
          Session: { type: object, required: [token, expiresIn], properties: { token: { type: string }, expiresIn: { type: integer } } }
        steps:
          - id: token
            server: auth
            request:
              method: POST
              path: /login
              body: { username: $inputs.username, password: $inputs.password }
            response: { 200: Session }
            outputs: { session: $response.body }
        outputs:
          token: $steps.token.outputs.session#/token
          session: $steps.token.outputs.session
        """

    /// A caller of `login.yaml` whose step `login` gives `inputs`, and whose step `use` reads `read`.
    static func caller(
        inputs: String = "{ username: $inputs.user, password: $inputs.secret }",
        read: String = "$steps.login.outputs.token", path: String = "./login.yaml"
    ) -> String {
        """
        flowrun: 1
        inputs:
          type: object
          properties: { user: { type: string }, secret: { type: string, format: password }, age: { type: integer } }
        steps:
          - id: login
            workflow: \(path)
            inputs: \(inputs)
          - id: use
            request:
              method: GET
              path: "https://api.test/invoices"
              headers: { Authorization: "Bearer {\(read)}" }
        outputs: { token: $steps.login.outputs.token }
        """
    }

    /// A compiler that reads `files` (by path) instead of the disk.
    static func compiler(_ files: [String: String]) -> WorkflowCompiler {
        var compiler = WorkflowCompiler()
        compiler.readFile = { path in
            guard let text = files[path] else {
                return .failure(FlowError(.unreadableFile, "cannot read \(path): no such file",
                                          at: SourceLocation(path: path, line: 1, column: 1)))
            }
            return .success(Array(text.utf8))
        }
        return compiler
    }

    static func check(_ caller: String, _ files: [String: String] = ["flows/login.yaml": login])
        -> WorkflowCompiler.Result
    {
        compiler(files).check(yaml: caller, path: "flows/main.yaml")
    }

    static func errors(_ caller: String, _ files: [String: String] = ["flows/login.yaml": login]) -> [Diagnostic] {
        check(caller, files).diagnostics.filter { $0.severity == .error }
    }

    // MARK: Compiling

    @Test func aCallCompilesWithTheCalleesOutputsTyped() throws {
        let result = Self.check(Self.caller())
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let planned = try #require(result.plan?.step("login"))
        #expect(planned.subWorkflow?.workflow.path == "flows/login.yaml")
        #expect(planned.outputTypes["token"]?.types == [.string])
        // The callee's named type is inlined: the caller declares no 'Session'.
        #expect(planned.outputTypes["session"]?.property("expiresIn")?.types == [.integer])
    }

    @Test func aPointerIntoAnOutputIsCheckedAgainstTheCalleesType() {
        let found = Self.errors(Self.caller(read: "$steps.login.outputs.session#/tokn"))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .bindingTypeMismatch)
        #expect(found.first?.message.contains("did you mean 'token'?") == true, "\(found)")
    }

    @Test func anOutputTheCalleeDoesNotDeclareIsUnknownWithASuggestion() {
        let found = Self.errors(Self.caller(read: "$steps.login.outputs.tokens"))
        #expect(found.first?.code == .unknownReference, "\(found)")
        #expect(found.first?.message.contains("did you mean 'token'?") == true, "\(found)")
    }

    @Test func aMissingRequiredInputIsLocatedAtTheWorkflowPath() {
        let found = Self.errors(Self.caller(inputs: "{ username: $inputs.user }"))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .missingKey)
        #expect(found.first?.message.contains("does not give input 'password'") == true, "\(found)")
        #expect(found.first?.location?.line == 7 && found.first?.location?.column == 15, "\(found)")
    }

    @Test func anUnknownInputHasADidYouMean() {
        let found = Self.errors(Self.caller(inputs: "{ username: $inputs.user, password: $inputs.secret, remembr: true }"))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .unknownReference)
        #expect(found.first?.message.contains("has no input 'remembr'; did you mean 'remember'?") == true, "\(found)")
        #expect(found.first?.location?.line == 8, "\(found)")
    }

    @Test func aValueOfTheWrongTypeIsRefused() {
        let expression = Self.errors(Self.caller(inputs: "{ username: $inputs.age, password: $inputs.secret }"))
        #expect(expression.count == 1, "\(expression)")
        #expect(expression.first?.code == .bindingTypeMismatch)
        #expect(expression.first?.message.contains("is a string, but the value bound to it is an integer") == true,
                "\(expression)")
        let literal = Self.errors(Self.caller(inputs: "{ username: u, password: $inputs.secret, remember: 'yes' }"))
        #expect(literal.count == 1 && literal.first?.code == .bindingTypeMismatch, "\(literal)")
    }

    @Test func aMissingFileIsLocatedAtTheWorkflowPath() {
        let found = Self.errors(Self.caller(path: "./logn.yaml"))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .subWorkflow)
        #expect(found.first?.message.contains("calls './logn.yaml', which cannot be read") == true, "\(found)")
        #expect(found.first?.location?.path == "flows/main.yaml" && found.first?.location?.line == 7)
    }

    @Test func aMissingFileOnDiskIsReportedByTheDefaultReader() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let caller = directory.appendingPathComponent("main.yaml").path
        try Self.caller().write(toFile: caller, atomically: true, encoding: .utf8)
        let missing = WorkflowCompiler().check(yaml: Self.caller(), path: caller).diagnostics
        #expect(missing.contains { $0.code == .subWorkflow && $0.message.contains("no such file") }, "\(missing)")
        try Self.login.write(toFile: directory.appendingPathComponent("login.yaml").path, atomically: true, encoding: .utf8)
        let found = WorkflowCompiler().check(yaml: Self.caller(), path: caller)
        #expect(!found.hasErrors, "\(found.diagnostics)")
    }

    @Test func aCalleeWithAnErrorIsReportedWithItsFirstError() {
        let broken = Self.login.replacingOccurrences(of: "server: auth", with: "server: auht")
        let found = Self.errors(Self.caller(), ["flows/login.yaml": broken])
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .subWorkflow)
        #expect(found.first?.message.contains("which has errors; the first: flows/login.yaml:14:13: unknown server 'auht'") == true,
                "\(found)")
    }

    @Test func twoFilesThatCallEachOtherAreACycle() {
        func calling(_ path: String) -> String {
            """
            flowrun: 1
            steps:
              - { id: other, workflow: \(path) }
            """
        }
        let found = Self.compiler(["flows/a.yaml": calling("b.yaml"), "flows/b.yaml": calling("./a.yaml")])
            .check(yaml: calling("b.yaml"), path: "flows/a.yaml").diagnostics
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .subWorkflow)
        #expect(found.first?.message.contains("flows/a.yaml → flows/b.yaml → flows/a.yaml") == true, "\(found)")
    }

    @Test func aFileThatCallsItselfIsACycle() {
        let text = """
            flowrun: 1
            steps:
              - { id: again, workflow: ./self.yaml }
            """
        let found = Self.compiler(["flows/self.yaml": text]).check(yaml: text, path: "flows/self.yaml").diagnostics
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.message.contains("in a cycle, flows/self.yaml → flows/self.yaml") == true, "\(found)")
        #expect(found.first?.location?.line == 3, "\(found)")
    }

    @Test func aCalleeIsCompiledOncePerCompilation() {
        let reads = ReadCounter()
        var compiler = Self.compiler(["flows/login.yaml": Self.login])
        let inner = compiler.readFile
        compiler.readFile = { path in
            reads.add()
            return inner(path)
        }
        let text = Self.caller().replacingOccurrences(of: "  - id: use", with: """
              - { id: again, workflow: login.yaml, inputs: { username: u, password: p } }
              - id: use
            """)
        let result = compiler.check(yaml: text, path: "flows/main.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics)")
        #expect(reads.count == 1)
    }

    @Test func requestKeysOnAWorkflowStepAreRefused() {
        let found = Self.errors("""
            flowrun: 1
            steps:
              - id: login
                workflow: ./login.yaml
                request: { method: GET, path: "https://api.test/x" }
                policy: standard
                inputs: { username: u, password: p }
            """)
        #expect(found.map(\.code) == [.invalidValue, .invalidValue], "\(found)")
        #expect(found.first?.message.contains("either sends a 'request' or calls a 'workflow'") == true, "\(found)")
    }

    // MARK: Running

    /// Answers /login with a session (or `loginStatus`), and anything else with `{}`.
    static func server(loginStatus: Int = 200) -> ScriptedDispatcher {
        ScriptedDispatcher { request, _ in
            if request.url.hasSuffix("/login") {
                return loginStatus == 200
                    ? json(200, #"{"token": "tok-123", "expiresIn": 60}"#)
                    : json(loginStatus, #"{"error": "bad credentials"}"#)
            }
            return json(200, "{}")
        }
    }

    static func run(_ dispatcher: ScriptedDispatcher, caller: String = caller()) async throws -> RunReport {
        let plan = try #require(Self.check(caller).plan)
        return await engine(dispatcher).run(plan, inputs: ["user": "ann", "secret": "hunter2-long"], environment: [:])
    }

    @Test func aRunGivesTheCalleesOutputsToTheCaller() async throws {
        let dispatcher = Self.server()
        let report = try await Self.run(dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.calls == ["POST /login", "GET /invoices"])
        #expect(dispatcher.requests.last?.headers["Authorization"] == "Bearer tok-123")
        #expect(report.outputs == ["token": "tok-123"])
        let login = try #require(report.steps.first { $0.id == "login" })
        #expect(login.workflow == "./login.yaml")
        #expect(login.subSteps.map(\.id) == ["token"])
        #expect(login.subSteps.first?.attempts.first?.status == 200)
        #expect(login.outputs["token"] == "tok-123")
    }

    @Test func theCalledRunKeepsNoJournalOfItsOwnItsResultIsOneEventOfTheCaller() async throws {
        let plan = try #require(Self.check(Self.caller()).plan)
        var runner = engine(Self.server())
        let journal = RunEventLog()
        runner.journal = journal
        let report = await runner.run(plan, inputs: ["user": "ann", "secret": "hunter2-long"], environment: [:])
        #expect(report.succeeded, "\(String(describing: report.error))")
        let events = journal.recorded
        #expect(events.filter { if case .started = $0 { true } else { false } }.count == 1)
        let finished = events.compactMap { event -> String? in
            if case .stepFinished(let result, _, _) = event { result.report.id } else { nil }
        }
        #expect(finished == ["login", "use"])
    }

    @Test func aFailedCalleeFailsTheStepWithItsError() async throws {
        let report = try await Self.run(Self.server(loginStatus: 401))
        let error = try #require(report.error)
        #expect(error.stepID == "login")
        #expect(error.status == 401)
        // As docs/workflow-format.md quotes it: the callee's own message, `status 401: …`, after the prefix.
        #expect(error.message.hasPrefix("workflow './login.yaml' step 'token': status 401"), "\(error.message)")
        let login = try #require(report.steps.first { $0.id == "login" })
        #expect(login.status == .failed)
        #expect(login.subSteps.first?.status == .failed)
        #expect(!report.steps.contains { $0.id == "use" && $0.status == .succeeded })
    }

    @Test func theCallersOnErrorRulesHandleACalleeFailure() async throws {
        let caller = Self.caller().replacingOccurrences(of: "    workflow: ./login.yaml", with: """
                workflow: ./login.yaml
                on-error: [{ when: { status: 401 }, fallback: { token: anonymous } }]
            """)
        let report = try await Self.run(Self.server(loginStatus: 401), caller: caller)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs == ["token": "anonymous"])
    }

    @Test func theCalleesPasswordIsRedactedInTheCallersReport() async throws {
        // The caller does not mark its input secret; the callee's 'format: password' input does.
        let caller = Self.caller().replacingOccurrences(of: "secret: { type: string, format: password }",
                                                        with: "secret: { type: string }")
        let echoing = ScriptedDispatcher { request, _ in
            if request.url.hasSuffix("/login") {
                return json(200, #"{"token": "tok-123", "expiresIn": 60}"#)
            }
            return json(500, #"{"echo": "hunter2-long"}"#)
        }
        let report = try await Self.run(echoing, caller: caller)
        let rendered = "\(report.steps.map { "\($0)" })" + (report.error?.description ?? "")
        #expect(report.error != nil)
        #expect(!rendered.contains("hunter2-long"), "\(rendered)")
        #expect(report.redactor.redact("x hunter2-long") != "x hunter2-long")
    }
}

/// Counts the calls of a closure from any thread.
final class ReadCounter: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func add() { value.withLock { $0 += 1 } }
}
