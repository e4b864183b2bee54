import Foundation
import Synchronization
import Testing
@testable import FlowCore
import FlowTestServer

private let banking = """
    flowrun: 1
    name: banking
    inputs:
      type: object
      required: [token]
      properties:
        token: { type: string, format: password }
    servers:
      bank: { url: "{$env.BANK_URL}" }
    types:
      User: { type: object, required: [userId], properties: { userId: { type: string } } }
      Account: { type: object, required: [accountId], properties: { accountId: { type: string }, balance: { type: number } } }
      ApiError: { type: object, properties: { code: { type: string }, message: { type: string } } }
    vars:
      token: $inputs.token
    interceptors:
      auth: { bearer: $vars.token }
      refresh: { when: { status: 401 }, run: refresh-token, then: replay }
    defaults:
      server: bank
      interceptors: [auth, refresh]
    steps:
      - id: user
        request: { method: GET, path: /user }
        response: { 200: User, default: ApiError }
        outputs: { userId: $response.body#/userId }
      - id: account
        request: { method: GET, path: "/account/{$steps.user.outputs.userId}" }
        response: { 200: Account, default: ApiError }
        outputs: { accountId: $response.body#/accountId, balance: $response.body#/balance }
      - id: refresh-token
        on-demand: true
        request: { method: POST, path: /oauth/token, form: { grant_type: client_credentials } }
        set: { token: $response.body#/access_token }
    outputs:
      account: $steps.account.outputs.accountId
      balance: $steps.account.outputs.balance
    env: { BANK_URL: {} }
    """

private let environment = ["BANK_URL": "https://bank.test/v1/"]

struct EngineTests {
    @Test func runsTheChainBindingEachStepsOutputsIntoTheNext() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            switch request.path {
            case "/v1/user": json(200, #"{"userId":"u/1 x"}"#)
            case "/v1/account/u%2F1%20x": json(200, #"{"accountId":"a-9","balance":12.5}"#)
            default: json(404, #"{"code":"nope"}"#)
            }
        }
        let report = try await run(banking, on: dispatcher, inputs: ["token": "s3cret-token"], environment: environment)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs == ["account": "a-9", "balance": 12.5])
        #expect(dispatcher.requests.map(\.url) == [
            "https://bank.test/v1/user", "https://bank.test/v1/account/u%2F1%20x",
        ])
        #expect(dispatcher.requests.allSatisfy { $0.headers["Authorization"] == "Bearer s3cret-token" })
        #expect(report.steps.map(\.id) == ["user", "account"])
        #expect(report.steps.allSatisfy { $0.attempts.count == 1 && $0.attempts[0].status == 200 })
    }

    @Test func a401RefreshesOnceAndReplaysWithTheNewToken() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            let auth = request.headers["Authorization"]
            switch request.path {
            case "/v1/oauth/token":
                #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == "grant_type=client_credentials")
                return json(200, #"{"access_token":"fresh-token"}"#)
            case "/v1/user":
                return auth == "Bearer fresh-token" ? json(200, #"{"userId":"u1"}"#) : json(401, "{}")
            default:
                return auth == "Bearer fresh-token"
                    ? json(200, #"{"accountId":"a1","balance":1}"#) : json(401, "{}")
            }
        }
        let report = try await run(banking, on: dispatcher, inputs: ["token": "stale-token"], environment: environment)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.path) == ["/v1/user", "/v1/oauth/token", "/v1/user", "/v1/account/u1"])
        #expect(report.steps.map(\.id) == ["refresh-token", "user", "account"])
        // The report shows the 401 that asked for the refresh, which step ran it, and for whom.
        #expect(report.steps[0].refreshFor == "user")
        let user = try #require(report.steps.first { $0.id == "user" })
        #expect(user.attempts.count == 1)
        #expect(user.attempts[0].status == 200)
        #expect(user.attempts[0].refresh == RefreshExchange(status: 401, refreshStep: "refresh-token", ranRefresh: true))
        #expect(report.steps.first { $0.id == "account" }?.attempts[0].refresh == nil)
    }

    @Test func aFailedRefreshStillReportsTheResponseThatAskedForIt() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            request.path == "/v1/oauth/token" ? json(400, #"{"code":"invalid_grant"}"#) : json(401, "{}")
        }
        let report = try await run(banking, on: dispatcher, inputs: ["token": "stale-token"], environment: environment)
        let error = try #require(report.error)
        #expect(error.code == .interceptor)
        let user = try #require(report.steps.first { $0.id == "user" })
        #expect(user.attempts.last?.refresh == RefreshExchange(status: 401, refreshStep: "refresh-token", ranRefresh: true))
        #expect(report.steps.first { $0.id == "refresh-token" }?.refreshFor == "user")
    }

    @Test func concurrentStepsThatHit401ShareOneRefresh() async throws {
        let workflow = banking.replacingOccurrences(
            of: "    outputs:\n      account:",
            with: """
                  - id: cards
                    request: { method: GET, path: /cards }
                  - id: loans
                    request: { method: GET, path: /loans }
                outputs:
                  account:
                """)
        let refreshes = Mutex(0)
        let dispatcher = ScriptedDispatcher { request, _ in
            if request.path == "/v1/oauth/token" {
                refreshes.withLock { $0 += 1 }
                try await Task.sleep(for: .milliseconds(20))
                return json(200, #"{"access_token":"fresh-token"}"#)
            }
            guard request.headers["Authorization"] == "Bearer fresh-token" else { return json(401, "{}") }
            return request.path == "/v1/user"
                ? json(200, #"{"userId":"u1"}"#) : json(200, #"{"accountId":"a1","balance":1}"#)
        }
        let report = try await run(workflow, on: dispatcher, inputs: ["token": "stale-token"], environment: environment)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(refreshes.withLock { $0 } == 1)
        // One request ran the refresh; every other one that got a 401 shared it.
        let exchanges = report.steps.flatMap(\.attempts).compactMap(\.refresh)
        #expect(exchanges.filter(\.ranRefresh).count == 1)
        #expect(exchanges.allSatisfy { $0.status == 401 && $0.refreshStep == "refresh-token" })
    }

    @Test func errorStatusesDecodeTheDeclaredErrorType() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(403, #"{"code":"forbidden","message":"no access"}"#) }
        let report = try await run(banking, on: dispatcher, inputs: ["token": "secret-token"], environment: environment)
        let error = try #require(report.error)
        #expect(error.code == .httpStatus)
        #expect(error.status == 403)
        #expect(error.stepID == "user")
        #expect(error.attempt == 1)
        #expect(error.message == "status 403 (ApiError): no access")
        #expect(report.steps.map(\.status) == [.failed, .skipped])
    }

    @Test func missingInputsAreRejectedBeforeAnyRequest() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let report = try await run(banking, on: dispatcher, inputs: ["tokn": "x"], environment: environment)
        #expect(report.error?.code == .validation)
        #expect(report.error?.message == "unknown input 'tokn'; did you mean 'token'?; missing required input 'token'")
        #expect(dispatcher.requests.isEmpty)
    }

    @Test func anUnsetEnvironmentVariableFailsTheRunBeforeItsFirstRequest() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let report = try await run(banking, on: dispatcher, inputs: ["token": "abcd1234"])
        #expect(report.error?.code == .validation)
        #expect(report.error?.message.hasPrefix("environment variable BANK_URL is not set") == true)
        #expect(report.error?.location?.line != nil)
        #expect(report.steps.isEmpty)
        #expect(dispatcher.requests.isEmpty)
    }

    @Test func aResponseThatDoesNotMatchItsTypeFailsValidation() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, #"{"id":"no userId here"}"#) }
        let report = try await run(banking, on: dispatcher, inputs: ["token": "abcd1234"], environment: environment)
        #expect(report.error?.code == .validation)
        #expect(report.error?.message.contains("userId") == true)
    }

    @Test func aNonJSONBodyWhereJSONIsDeclaredIsADecodeError() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in
            StepResponse(status: 200, headers: ["Content-Type": "text/html"], body: Array("<html>".utf8))
        }
        let report = try await run(banking, on: dispatcher, inputs: ["token": "abcd1234"], environment: environment)
        #expect(report.error?.code == .decode)
        #expect(report.error?.responseExcerpt == "<html>")
    }

    @Test func secretsNeverAppearInErrorsOrReports() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            json(500, #"{"message":"token \#(request.headers["Authorization"] ?? "") rejected"}"#)
        }
        let report = try await run(
            banking, on: dispatcher, inputs: ["token": "hunter2-secret"], environment: environment)
        let error = try #require(report.error)
        #expect(!error.message.contains("hunter2-secret"))
        #expect(error.message.contains("Bearer ***"))
        #expect(!(error.responseExcerpt ?? "").contains("hunter2-secret"))
    }

    @Test func retriesFollowTheBackoffExactly() async throws {
        let workflow = apiServer + """
            policies:
              standard:
                retry:
                  - when: { status: [503], errors: [transport] }
                    attempts: 4
                    delay: 200ms
                    backoff: exponential
                    maxDelay: 500ms
            defaults: { server: api, policy: standard }
            steps:
              - id: flaky
                request: { method: GET, path: /flaky }
                outputs: { ok: $response.body#/ok }
            outputs: { ok: $steps.flaky.outputs.ok }
            """
        let dispatcher = ScriptedDispatcher { _, index in index < 3 ? json(503, "{}") : json(200, #"{"ok":true}"#) }
        let clock = ImmediateClock()
        let engine = Engine(http: dispatcher, clock: clock)
        let report = await engine.run(try plan(workflow), inputs: [:], environment: [:])
        #expect(report.succeeded)
        #expect(report.outputs == ["ok": true])
        #expect(clock.sleeps == [.milliseconds(200), .milliseconds(400), .milliseconds(500)])
        #expect(report.steps[0].attempts.map(\.status) == [503, 503, 503, 200])
        #expect(report.steps[0].attempts.map(\.retryDelay) == [
            .milliseconds(200), .milliseconds(400), .milliseconds(500), nil,
        ])
    }

    @Test func postIsNotRetriedWithoutIdempotency() async throws {
        let workflow = apiServer + """
            policies: { standard: { retry: [{ attempts: 3, delay: 10ms }] } }
            defaults: { server: api, policy: standard }
            steps:
              - id: pay
                request: { method: POST, path: /payments, body: { amount: 5 } }
            """
        let dispatcher = ScriptedDispatcher { _, _ in json(503, "{}") }
        let engine = Engine(http: dispatcher, clock: ImmediateClock())
        let report = await engine.run(try plan(workflow), inputs: [:], environment: [:])
        #expect(report.error?.code == .httpStatus)
        #expect(dispatcher.requests.count == 1)
        let idempotent = await engine.run(
            try plan(workflow.replacingOccurrences(of: "  - id: pay", with: "  - id: pay\n    idempotent: true")),
            inputs: [:], environment: [:])
        #expect(idempotent.steps[0].attempts.count == 3)
    }

    @Test func aCatchFallbackLetsTheRunContinue() async throws {
        let workflow = apiServerByDefault + """
            steps:
              - id: list
                request: { method: GET, path: /transactions }
                outputs: { items: $response.body }
            catch:
              - when: { step: list, status: 404 }
                fallback: { items: [] }
            outputs: { items: $steps.list.outputs.items }
            """
        let report = try await run(workflow, on: ScriptedDispatcher { _, _ in json(404, "{}") })
        #expect(report.succeeded)
        #expect(report.outputs == ["items": .array([])])
        #expect(report.steps[0].status == .recovered)
    }

    @Test func anAttemptTimeoutStopsASlowDispatcher() async throws {
        let workflow = apiServer + """
            policies: { quick: { timeout: { attempt: 50ms } } }
            defaults: { server: api, policy: quick }
            steps:
              - id: slow
                request: { method: GET, path: /slow }
            """
        let report = try await run(workflow, on: ScriptedDispatcher.hanging())
        #expect(report.error?.code == .attemptTimeout)
        #expect(report.error?.stepID == "slow")
    }

    @Test func requestBodiesAreCheckedAgainstTheirTypeBeforeSending() async throws {
        let workflow = apiServerByDefault + """
            types:
              NewUser: { type: object, required: [name, email], properties: { name: { type: string }, email: { type: string } } }
            steps:
              - id: create
                request: { method: POST, path: /users, body: { name: Ada }, bodyType: NewUser }
            """
        let dispatcher = ScriptedDispatcher { _, _ in json(201, "{}") }
        let report = try await run(workflow, on: dispatcher)
        #expect(report.error?.code == .validation)
        #expect(report.error?.message.contains("email") == true)
        #expect(dispatcher.requests.isEmpty)
    }

    @Test func aMissingFieldThatAnOutputReadsIsABindingError() async throws {
        let workflow = apiServerByDefault + """
            steps:
              - id: user
                request: { method: GET, path: /user }
                outputs: { id: $response.body#/id }
            """
        let report = try await run(workflow, on: ScriptedDispatcher { _, _ in json(200, #"{"name":"x"}"#) })
        #expect(report.error?.code == .binding)
        #expect(report.error?.stepID == "user")
        #expect(report.error?.attempt == 1)
    }

    @Test func independentStepsRunConcurrently() async throws {
        let workflow = apiServerByDefault + """
            steps:
              - { id: a, request: { method: GET, path: /a } }
              - { id: b, request: { method: GET, path: /b } }
              - { id: c, request: { method: GET, path: /c } }
            """
        let inFlight = Mutex((now: 0, peak: 0))
        let dispatcher = ScriptedDispatcher { _, _ in
            inFlight.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
            try await Task.sleep(for: .milliseconds(50))
            inFlight.withLock { $0.now -= 1 }
            return json(200, "{}")
        }
        let report = try await run(workflow, on: dispatcher)
        #expect(report.succeeded)
        #expect(inFlight.withLock { $0.peak } == 3)
    }
}
