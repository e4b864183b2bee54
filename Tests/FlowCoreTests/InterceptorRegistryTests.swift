import Logging
import Testing

@testable import FlowCore

/// Test-only: sends the session held in var `session` in the header its `with: { header: … }` names,
/// reading the var when each request leaves and registering it as a secret first.
private struct SessionHeader: Interceptor {
    let header: String
    let setup: InterceptorSetup

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        guard let session = setup.variable("session") else {
            throw FlowError(.interceptor, "interceptor '\(setup.name)' found no session")
        }
        setup.registerSecret(session)
        var request = request
        request.headers.set(header, session.stringValue ?? "")
        return try await next(request, context)
    }
}

/// A registry with `session-header`, made from its setup.
private func sessionInterceptors() -> InterceptorRegistry {
    var interceptors = InterceptorRegistry()
    interceptors.register("session-header") { setup in
        guard let header = setup["header"]?.stringValue else {
            throw FlowError(.invalidValue, "the 'session-header' interceptor needs 'with: { header: <a name> }'")
        }
        return SessionHeader(header: header, setup: setup)
    }
    return interceptors
}

/// An engine on `dispatcher`, registered as `http`, with `interceptors`.
private func engine(_ dispatcher: any Dispatcher, _ interceptors: InterceptorRegistry) -> Engine<ContinuousClock> {
    Engine(
        dispatchers: DispatcherRegistry(["http": dispatcher]), interceptors: interceptors, logger: Logger(label: "test"))
}

/// A workflow whose `profile` step sends the session through `session-header`, and refreshes it on a 401.
private let sessionWorkflow = apiServerByDefault + """
    vars: { session: stale-session-0001 }
    interceptors:
      session: { use: session-header, with: { header: X-Session } }
      renew: { run: renew-session }
    steps:
      - id: profile
        interceptors: [session, renew]
        request: { method: GET, path: /profile }
        outputs: { echo: $response.body#/echo }
      - id: renew-session
        on-demand: true
        request: { method: POST, path: /session }
        set: { session: $response.body#/session }
    outputs: { echo: $steps.profile.outputs.echo }
    """

struct InterceptorRegistryTests {
    @Test func aCustomInterceptorReadsTheVarWhenItRunsAndItsSecretIsRedactedInTheReport() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            if request.path == "/session" { return json(200, #"{"session":"fresh-session-0002"}"#) }
            let session = request.headers["X-Session"] ?? ""
            return session == "fresh-session-0002"
                ? json(200, #"{"echo":"you sent \#(session)"}"#) : json(401, #"{"message":"\#(session) expired"}"#)
        }
        let report = await engine(dispatcher, sessionInterceptors()).run(
            try plan(sessionWorkflow), inputs: [:], environment: [:])

        #expect(report.succeeded, "\(String(describing: report.error))")
        // The replay after the refresh reads the var the refresh step set.
        #expect(dispatcher.requests.map { $0.headers["X-Session"] } == [
            "stale-session-0001", nil, "fresh-session-0002",
        ])
        #expect(report.outputs == ["echo": "you sent ***"])
        let profile = try #require(report.steps.first { $0.id == "profile" })
        #expect(profile.outputs == ["echo": "you sent ***"])
        #expect(profile.attempts.first?.refresh?.ranRefresh == true)
        #expect(report.redactor.redact("stale-session-0001 fresh-session-0002") == "*** ***")
    }

    @Test func aSecretTheInterceptorRegisteredIsRedactedInTheRunsError() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            json(500, #"{"message":"session \#(request.headers["X-Session"] ?? "") is not valid here"}"#)
        }
        let yaml = sessionWorkflow.replacing("interceptors: [session, renew]", with: "interceptors: [session]")
        let report = await engine(dispatcher, sessionInterceptors()).run(try plan(yaml), inputs: [:], environment: [:])

        let error = try #require(report.error)
        #expect(error.code == .httpStatus)
        #expect(error.message == "status 500: session *** is not valid here")
        #expect(error.responseExcerpt?.contains("stale-session-0001") == false)
        #expect(error.responseExcerpt?.contains("***") == true)
        #expect(report.steps.first?.error?.message == error.message)
        #expect(!"\(error)".contains("stale-session-0001"))
    }

    @Test func theBuiltInKindsAreInTheSameRegistryAsTheProgramsOwn() throws {
        let registry = sessionInterceptors()
        #expect(Set(InterceptorRegistry.builtInNames) == Set(BuiltInInterceptorKind.allCases.map(\.rawValue)))
        #expect(registry.names == (InterceptorRegistry.builtInNames + ["session-header"]).sorted())
        #expect(registry.customNames == ["session-header"])
        #expect(registry["bearer"] != nil)
        #expect(InterceptorRegistry.isBuiltIn("bearer") && !InterceptorRegistry.isBuiltIn("session-header"))
    }

    @Test func aBuiltInKindIsMadeByItsFactoryInTheRegistry() async throws {
        let compiled = try plan(apiServerByDefault + """
            inputs: { type: object, properties: { token: { type: string } } }
            interceptors:
              auth: { bearer: $inputs.token }
            steps:
              - id: one
                interceptors: [auth]
                request: { method: GET, path: /one }
            """)
        let declaration = try #require(compiled.steps.first?.interceptors.first)
        #expect(declaration.factoryName.value == "bearer")
        let factory = try #require(InterceptorRegistry().factory(for: declaration))
        let redactor = SecretRedactor()
        let scope = RunScope(
            inputs: ["token": "built-in-token"], environment: [:], variables: RunVariables([:]), response: nil)
        let setup = InterceptorSetup(
            declaration: declaration, stepID: "one", arguments: [:], scope: scope, redactor: redactor,
            engine: BuiltInInterceptorSupport(
                coordinator: RefreshCoordinator(), isReplay: false, asRefresh: false, runRefreshStep: { _ in },
                unixTime: { 0 }))
        let interceptor = try factory(setup)
        let request = StepRequest(method: "GET", url: "https://api.test/one")
        let response = try await interceptor.intercept(
            request, context: StepContext(stepID: "one", attempt: 1, logger: Logger(label: "test"))
        ) { request, _ in
            #expect(request.headers["Authorization"] == "Bearer built-in-token")
            return json(204, "")
        }
        #expect(response.status == 204)
        #expect(redactor.redact("built-in-token") == "***")
    }

    @Test func aProgramCannotRegisterUnderABuiltInKindsName() async throws {
        var interceptors = sessionInterceptors()
        let registered = interceptors.register("bearer") { _ in OmittedInterceptor() }
        #expect(!registered)
        #expect(interceptors.customNames == ["session-header"])
        // Registering a program's own name again replaces it, as before.
        #expect(interceptors.register("session-header") { _ in OmittedInterceptor() })

        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let report = await engine(dispatcher, interceptors).run(
            try plan(apiServerByDefault + """
                steps:
                  - id: one
                    request: { method: GET, path: /one }
                """), inputs: [:], environment: [:])

        let error = try #require(report.error)
        #expect(error.code == .duplicateName)
        #expect(error.message.hasPrefix(
            "the program registered an interceptor as 'bearer', the name of a built-in interceptor kind"))
        #expect(dispatcher.requests.isEmpty)
    }

    @Test func anUnregisteredNameFailsTheRunBeforeItsFirstRequest() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let yaml = sessionWorkflow.replacing("use: session-header", with: "use: sesion-header")
        let report = await engine(dispatcher, sessionInterceptors()).run(try plan(yaml), inputs: [:], environment: [:])

        let error = try #require(report.error)
        #expect(error.code == .unknownReference)
        #expect(error.message == "interceptor 'session' uses 'sesion-header', which is not registered; did you mean "
            + "'session-header'?; registered: session-header (a Swift program registers interceptors in the "
            + "Engine's InterceptorRegistry)")
        #expect(dispatcher.requests.isEmpty)
    }

    /// No program can register under a built-in kind's name, so `use: bearer` could never run: lint says so
    /// at the name, instead of the first run failing on it.
    @Test(arguments: InterceptorRegistry.builtInNames)
    func aUseOfABuiltInKindsNameIsALintError(kind: String) throws {
        let yaml = sessionWorkflow.replacing("use: session-header", with: "use: \(kind)")
        let found = diagnostics(yaml).filter { $0.severity == .error }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .invalidValue)
        #expect(found.first?.message.hasPrefix("'use: \(kind)' names a built-in interceptor kind") == true)
        #expect(found.first?.location?.line == 6)
        #expect(throws: (any Error).self) { try plan(yaml) }
    }

    @Test func aFactoryWrittenForTheArgumentsAloneStillReadsThemByName() async throws {
        var interceptors = InterceptorRegistry()
        interceptors.register("tenant") { arguments in
            guard let tenant = arguments["tenant"]?.stringValue else {
                throw FlowError(.invalidValue, "no tenant")
            }
            return TenantHeader(tenant: tenant)
        }
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let report = await engine(dispatcher, interceptors).run(
            try plan(apiServerByDefault + """
                interceptors:
                  tenant: { use: tenant, with: { tenant: acme } }
                steps:
                  - id: one
                    interceptors: [tenant]
                    request: { method: GET, path: /one }
                """), inputs: [:], environment: [:])

        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map { $0.headers["X-Tenant"] } == ["acme"])
    }
}
