@testable import FlowCore
import Testing

/// Issue 9 items 4d, 5 and 8b: a workflow reads only the environment variables it declares, and a run checks
/// what it can before its first request.
struct EnvironmentDeclarationTests {
    private let dispatcher = ScriptedDispatcher { _, _ in json(200, #"{"echo": "ok"}"#) }

    @Test func anUndeclaredVariableIsALintErrorWithASuggestion() {
        let found = diagnostics("""
            flowrun: 1
            env: { API_URL: {} }
            servers: { api: "{$env.API_UR}" }
            steps:
              - { id: a, server: api, request: { method: GET, path: "/x/{$env.AWS_SECRET_ACCESS_KEY}" } }
            """)
        let errors = found.filter { $0.severity == .error }
        #expect(errors.count == 2, "\(found)")
        #expect(errors.allSatisfy { $0.code == .unknownReference })
        #expect(errors.first?.message.contains("did you mean 'API_URL'?") == true, "\(found)")
        #expect(errors.first?.location?.line == 3)
        #expect(errors.first?.location?.column == 24)
        #expect(errors.last?.message.contains("add 'AWS_SECRET_ACCESS_KEY: {}' under 'env'") == true, "\(found)")
        #expect(errors.last?.location?.line == 5)
    }

    @Test func aWorkflowWithoutEnvCannotReadTheEnvironment() {
        let found = diagnostics(apiServerByDefault + """
            steps:
              - { id: a, request: { method: GET, path: /x, headers: { X-Home: $env.HOME } } }
            """)
        #expect(found.map(\.code) == [.unknownReference], "\(found)")
    }

    @Test func declarationsAreCheckedAndUnusedOnesWarned() {
        let found = diagnostics(apiServerByDefault + """
            env:
              UNUSED: {}
              BAD-NAME: {}
              FLAG: { secret: yes, colour: red }
            steps:
              - { id: a, request: { method: GET, path: /x } }
            """)
        #expect(found.contains { $0.code == .unused && $0.message.contains("'UNUSED' is never used") }, "\(found)")
        #expect(found.contains { $0.code == .invalidValue && $0.message.contains("'BAD-NAME'") }, "\(found)")
        #expect(found.contains { $0.code == .typeMismatch && $0.message.contains("'secret'") }, "\(found)")
        #expect(found.contains { $0.code == .unknownKey && $0.message.contains("'colour'") }, "\(found)")
    }

    /// A workflow whose first step would send a request before the second one reads `$env.LATE`.
    private let twoSteps = apiServerByDefault + """
        env:
          LATE: {}
          ALSO: {}
          REGION: { default: eu }
        steps:
          - { id: first, request: { method: POST, path: /side-effect } }
          - { id: second, after: [first], request: { method: GET, path: "/{$env.REGION}/{$env.LATE}/{$env.ALSO}" } }
        """

    @Test func everyUnsetVariableIsFoundBeforeTheFirstRequest() async throws {
        let report = try await run(twoSteps, on: dispatcher, environment: ["HOME": "/root"])
        let error = try #require(report.error)
        #expect(error.code == .validation)
        #expect(error.message.hasPrefix("environment variables LATE, ALSO are not set"), "\(error.message)")
        #expect(error.location?.line == 5)
        #expect(report.steps.isEmpty)
        #expect(dispatcher.calls.isEmpty)
    }

    @Test func aDefaultIsUsedWhenTheVariableIsUnsetAndTheEnvironmentWinsOverIt() async throws {
        _ = try await run(twoSteps, on: dispatcher, environment: ["LATE": "l", "ALSO": "a"])
        _ = try await run(twoSteps, on: dispatcher, environment: ["LATE": "l", "ALSO": "a", "REGION": "us"])
        #expect(dispatcher.calls.filter { $0.hasPrefix("GET") } == ["GET /eu/l/a", "GET /us/l/a"])
    }

    @Test func aSecretVariableIsRedactedWhereverItShows() async throws {
        let echoing = ScriptedDispatcher { request, _ in
            json(500, #"{"seen": "\#(request.headers["X-Key"] ?? "")"}"#)
        }
        let report = try await run(apiServerByDefault + """
            env: { KEY: { secret: true } }
            vars: { derived: "k={$env.KEY}" }
            steps:
              - id: a
                request: { method: GET, path: "/items/{$env.KEY}", headers: { X-Key: $vars.derived } }
            """, on: echoing, environment: ["KEY": "s3cr3t-value"])
        #expect(echoing.requests.first?.headers["X-Key"] == "k=s3cr3t-value")
        let error = try #require(report.error)
        let shown = "\(error) \(error.responseExcerpt ?? "") \(report.steps.flatMap(\.attempts).map(\.url))"
        #expect(!shown.contains("s3cr3t-value"), "\(shown)")
        #expect(shown.contains("***"), "\(shown)")
    }

    @Test func anUnregisteredInterceptorFailsBeforeTheFirstRequest() async throws {
        let report = try await run(apiServerByDefault + """
            interceptors:
              tenant: { use: tenant-header, with: { tenant: acme } }
            steps:
              - { id: first, request: { method: POST, path: /side-effect } }
              - { id: second, after: [first], interceptors: [tenant], request: { method: GET, path: /x } }
            """, on: dispatcher)
        let error = try #require(report.error)
        #expect(error.code == .unknownReference)
        #expect(error.message.contains("interceptor 'tenant' uses 'tenant-header', which is not registered"))
        #expect(error.location?.line == 5)
        #expect(dispatcher.calls.isEmpty)
    }

    @Test func anUnregisteredDispatcherFailsBeforeTheFirstRequest() async throws {
        let report = try await run(apiServerByDefault + """
            steps:
              - { id: first, request: { method: POST, path: /side-effect } }
              - { id: second, after: [first], dispatcher: htp, request: { method: GET, path: /x } }
            """, on: dispatcher)
        let error = try #require(report.error)
        #expect(error.code == .unknownReference)
        #expect(error.message.contains("step 'second' uses dispatcher 'htp', which is not registered; did you mean 'http'?"),
                "\(error.message)")
        #expect(error.location?.line == 6)
        #expect(dispatcher.calls.isEmpty)
    }

    @Test func theFirstMissingRegistrationInStepOrderIsTheOneReported() async throws {
        let report = try await run(apiServerByDefault + """
            interceptors:
              tenant: { use: tenant-header }
            steps:
              - { id: first, request: { method: POST, path: /side-effect } }
              - { id: second, after: [first], interceptors: [tenant], request: { method: GET, path: /x } }
              - { id: third, after: [second], dispatcher: htp, request: { method: GET, path: /y } }
              - { id: fourth, after: [third], dispatcher: htp, interceptors: [tenant], request: { method: GET, path: /z } }
            """, on: dispatcher)
        #expect(report.error?.message.contains("interceptor 'tenant' uses 'tenant-header'") == true)
        #expect(dispatcher.calls.isEmpty)
    }

    @Test func anUnregisteredOverrideDispatcherIsReportedOnceAtTheFirstStep() async throws {
        var engine = engine(dispatcher)
        engine.dispatcherOverride = "canned"
        let report = await engine.run(try plan(apiServerByDefault + """
            steps:
              - { id: first, request: { method: POST, path: /side-effect } }
              - { id: second, after: [first], dispatcher: other, request: { method: GET, path: /x } }
            """), inputs: [:], environment: [:])
        let error = try #require(report.error)
        #expect(error.message.hasPrefix("step 'first' uses dispatcher 'canned', which is not registered"), "\(error.message)")
        #expect(dispatcher.calls.isEmpty)
    }
}
