import FlowCore
import FlowTestServer
import Logging
import Synchronization
import Testing

@testable import FlowHTTP

/// Keeps every exchange it hears of.
private final class ExchangeLog: ExchangeObserver {
    private let log = Mutex<[Exchange]>([])
    var exchanges: [Exchange] { log.withLock { $0 } }
    func exchangeFinished(_ exchange: Exchange) { log.withLock { $0.append(exchange) } }
}

/// A context for step `s`, attempt 2, item 3, reporting to `observer`.
private func context(reportingTo observer: ExchangeLog?) -> StepContext {
    var context = StepContext(
        stepID: "s", attempt: 2, attemptTimeout: .seconds(5),
        logger: Logger(label: "FlowHTTPTests") { _ in SwiftLogNoOpLogHandler() })
    context.item = 3
    context.exchangeObserver = observer
    return context
}

/// The dispatcher tells the run's exchange observer of every hop: what `flowrun run -v` and `--har-out` show.
@Suite(.timeLimit(.minutes(1)))
struct ExchangeReportingTests {
    @Test func everyRedirectHopIsAnExchangeOfItsOwnWithItsResponseHeadersAndVersion() async throws {
        try await withTestServer({ request in
            request.path == "/old" ? .redirect(to: "/new", status: 301) : .text("done", headers: [("X-Hop", "last")])
        }) { server in
            let log = ExchangeLog()
            let response = try await AsyncHTTPClientDispatcher().dispatch(
                StepRequest(method: "GET", url: server.baseURL + "/old", headers: ["X-Step": "s"]),
                context: context(reportingTo: log))
            #expect(response.status == 200)

            let exchanges = log.exchanges
            #expect(exchanges.map(\.redirect) == [0, 1])
            #expect(exchanges.map(\.request.url) == [server.baseURL + "/old", server.baseURL + "/new"])
            #expect(exchanges.map { $0.response?.status } == [301, 200])
            #expect(exchanges.first?.response?.headers["Location"] == "/new")
            #expect(exchanges.last?.response?.headers["X-Hop"] == "last")
            #expect(exchanges.last?.response?.body == Array("done".utf8))
            #expect(exchanges.allSatisfy { $0.httpVersion == "HTTP/1.1" && $0.stepID == "s" && $0.attempt == 2 && $0.item == 3 })
            for exchange in exchanges {
                let head = try #require(exchange.timing.untilResponseHead)
                #expect(head <= exchange.timing.duration)
            }
        }
    }

    @Test func aRequestThatGotNoAnswerIsAnExchangeWithTheError() async throws {
        try await withRefusingPort { port in
            let log = ExchangeLog()
            await #expect(throws: FlowError.self) {
                // A private client fails at once on a refused connection; the shared one retries until the timeout.
                try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                    try await dispatcher.dispatch(
                        StepRequest(method: "GET", url: "http://127.0.0.1:\(port)/x"), context: context(reportingTo: log))
                }
            }
            #expect(log.exchanges.count == 1)
            #expect(log.exchanges.first?.response == nil)
            #expect(log.exchanges.first?.error?.code == .transport)
        }
    }
}
