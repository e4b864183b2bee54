import Synchronization
import Testing
@testable import FlowCore

/// Keeps every exchange it hears of.
private final class ExchangeLog: ExchangeObserver {
    private let log = Mutex<[Exchange]>([])
    var exchanges: [Exchange] { log.withLock { $0 } }
    func exchangeFinished(_ exchange: Exchange) { log.withLock { $0.append(exchange) } }
}

private let workflow = apiServerByDefault + """
    inputs: { type: object, properties: { password: { type: string, format: password } } }
    vars: { token: stale-token-1234 }
    interceptors:
      auth: { bearer: $vars.token }
      refresh: { when: { status: 401 }, run: login, then: replay }
    steps:
      - id: login
        on-demand: true
        request: { method: POST, path: /login, body: { password: $inputs.password } }
        set: { token: $response.body#/token }
      - id: list
        interceptors: [auth, refresh]
        request: { method: GET, path: /list }
        outputs: { ids: $response.body }
      - id: each
        forEach: $steps.list.outputs.ids
        request: { method: GET, path: "/items/{$item}" }
    """

/// The hook `flowrun run -v` and `--har-out` are built on: ``Engine/exchangeObserver``.
struct ExchangeObserverTests {
    /// A bank that wants `fresh-token-5678`, handed out by `POST /login`.
    private let bank = ScriptedDispatcher { request, _ in
        switch request.path {
        case "/login": return json(200, #"{"token":"fresh-token-5678"}"#)
        case "/list" where request.headers["Authorization"] != "Bearer fresh-token-5678":
            return json(401, #"{"error":"expired"}"#)
        case "/list": return json(200, "[7, 8]")
        default: return json(200, "{}")
        }
    }

    @Test func everyCallOfADispatcherThatReportsNothingIsOneExchangeAsSentAfterTheInterceptors() async throws {
        let log = ExchangeLog()
        var engine = engine(bank)
        engine.exchangeObserver = log
        let report = await engine.run(try plan(workflow), inputs: ["password": "pa55word-secret"], environment: [:])
        #expect(report.succeeded, "\(String(describing: report.error))")

        let exchanges = log.exchanges
        let list = exchanges.filter { $0.stepID == "list" }
        // The 401 and its replay: two exchanges of attempt 1, the credentials each went out with.
        #expect(list.map { $0.response?.status } == [401, 200])
        #expect(list.map(\.attempt) == [1, 1])
        #expect(list.map { $0.request.headers["Authorization"] } == ["Bearer stale-token-1234", "Bearer fresh-token-5678"])
        #expect(exchanges.filter { $0.stepID == "login" }.count == 1)
        let items = exchanges.filter { $0.stepID == "each" }.sorted { ($0.item ?? -1) < ($1.item ?? -1) }
        #expect(items.map(\.item) == [0, 1])
        #expect(items.map(\.request.url) == ["https://api.test/items/7", "https://api.test/items/8"])
        #expect(exchanges.allSatisfy { $0.redirect == 0 && $0.httpVersion == nil && $0.timing.duration >= .zero })

        // Redacted, neither the password in the login body nor either token shows.
        let shown = exchanges.map { $0.redacted() }
        let text = shown.map { exchange in
            [exchange.request.url, String(decoding: exchange.request.body ?? [], as: UTF8.self),
             String(decoding: exchange.response?.body ?? [], as: UTF8.self)]
                + exchange.request.headers.map(\.value) + (exchange.response?.headers.map(\.value) ?? [])
        }.flatMap { $0 }.joined(separator: "\n")
        for secret in ["pa55word-secret", "stale-token-1234", "fresh-token-5678"] {
            #expect(!text.contains(secret), "\(secret) in \(text)")
        }
        #expect(text.contains("Bearer ***"))
    }

    @Test func aDispatcherThatReportsItsHopsIsNotReportedAgain() async throws {
        let hopping = ReportingDispatcher()
        let log = ExchangeLog()
        var engine = engine(hopping)
        engine.exchangeObserver = log
        let report = await engine.run(
            try plan(apiServerByDefault + "steps:\n  - { id: a, request: { method: GET, path: /a } }\n"),
            inputs: [:], environment: [:])
        #expect(report.succeeded)
        #expect(log.exchanges.map(\.redirect) == [0, 1])
        #expect(log.exchanges.map { $0.response?.status } == [302, 200])
        #expect(log.exchanges.map(\.httpVersion) == ["HTTP/1.1", "HTTP/1.1"])
    }

    @Test func aNextPageLinkShowsItsCredentialParametersRedactedAsTheNextRequestDoes() async throws {
        let pages = ScriptedDispatcher { request, _ in
            request.url.contains("page=2")
                ? json(200, "[2]", headers: ["Location": "https://api.test/done?sig=SIGNATURE-9"])
                : json(200, "[1]", headers: ["Link": #"</list?access_token=TOKEN-12345&page=2>; rel="next""#])
        }
        let log = ExchangeLog()
        var engine = engine(pages)
        engine.exchangeObserver = log
        let report = await engine.run(
            try plan(apiServerByDefault + """
                steps:
                  - id: list
                    request: { method: GET, path: /list }
                    paginate: { next: link }
                    outputs: { all: $response.body }
                """),
            inputs: [:], environment: [:])
        #expect(report.succeeded, "\(String(describing: report.error))")
        let shown = log.exchanges.map { $0.redacted() }
        #expect(shown.map(\.request.url) == ["https://api.test/list", "https://api.test/list?access_token=***&page=2"])
        #expect(shown.first?.response?.headers["Link"] == #"</list?access_token=***&page=2>; rel="next""#)
        #expect(shown.last?.response?.headers["Location"] == "https://api.test/done?sig=***")
    }

    @Test func aFailedCallIsAnExchangeWithItsErrorAndWithoutAnObserverNothingIsReported() async throws {
        let failing = ScriptedDispatcher { _, _ in throw FlowError(.transport, "connection refused") }
        let log = ExchangeLog()
        var observed = engine(failing)
        observed.exchangeObserver = log
        let steps = apiServerByDefault + "steps:\n  - { id: a, request: { method: GET, path: /a } }\n"
        _ = await observed.run(try plan(steps), inputs: [:], environment: [:])
        #expect(log.exchanges.count == 1)
        #expect(log.exchanges.first?.response == nil)
        #expect(log.exchanges.first?.error?.message == "connection refused")

        let probe = ContextProbe()
        _ = await engine(probe).run(try plan(steps), inputs: [:], environment: [:])
        #expect(probe.calls.withLock { $0 } == 1)
        #expect(probe.sawObserver.withLock { $0 } == false)
    }
}

/// Redacts each step's exchanges when the step finishes, as `flowrun run -v` prints them.
private final class StepEndPrinter: ExchangeObserver, RunObserver {
    private let held = Mutex<[Exchange]>([])
    let printed = Mutex<[String: String]>([:])

    func exchangeFinished(_ exchange: Exchange) { held.withLock { $0.append(exchange) } }

    func stepFinished(_ report: StepReport) {
        let own = held.withLock { list in
            defer { list.removeAll { $0.stepID == report.id } }
            return list.filter { $0.stepID == report.id }
        }
        let text = own.map { exchange in
            let shown = exchange.redacted()
            return String(decoding: shown.response?.body ?? [], as: UTF8.self)
        }.joined(separator: "\n")
        printed.withLock { $0[report.id] = text }
    }
}

extension ExchangeObserverTests {
    /// A regular step `set`s a token into the var a `bearer` interceptor sends later: the var is a secret from
    /// the start, so the response that handed the token out is redacted when that step ends, before the
    /// interceptor first sends it.
    @Test func aTokenBoundIntoAVarThatAnInterceptorSendsIsASecretAsSoonAsItIsBound() async throws {
        let workflow = apiServerByDefault + """
            vars: { token: none }
            interceptors:
              auth: { bearer: $vars.token }
            steps:
              - id: login
                request: { method: POST, path: /login }
                set: { token: $response.body#/token }
              - id: invoices
                after: [login]
                interceptors: [auth]
                request: { method: GET, path: /invoices }
            """
        let printer = StepEndPrinter()
        var engine = engine(bank)
        engine.exchangeObserver = printer
        let report = await engine.run(try plan(workflow), inputs: [:], environment: [:], observer: printer)
        #expect(report.succeeded, "\(String(describing: report.error))")
        let login = try #require(printer.printed.withLock { $0["login"] })
        #expect(login == #"{"token":"***"}"#)
    }
}

/// Follows one redirect itself and reports both hops, as FlowHTTP's dispatcher does.
private struct ReportingDispatcher: Dispatcher {
    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        let redirect = StepResponse(status: 302, headers: ["Location": "/b"])
        context.reportExchange(
            request, response: redirect, httpVersion: "HTTP/1.1", timing: ExchangeStopwatch().stop())
        var next = request
        next.url = "https://api.test/b"
        var response = json(200, "{}")
        context.reportExchange(
            next, response: response, redirect: 1, httpVersion: "HTTP/1.1", timing: ExchangeStopwatch().stop())
        response.redirects = [StepResponse.Redirect(status: 302, url: next.url)]
        return response
    }
}

/// Counts its calls and notes whether a context it was called with had an exchange observer.
private final class ContextProbe: Dispatcher {
    let calls = Mutex(0)
    let sawObserver = Mutex(false)
    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        calls.withLock { $0 += 1 }
        if context.exchangeObserver != nil { sawObserver.withLock { $0 = true } }
        return json(200, "{}")
    }
}
