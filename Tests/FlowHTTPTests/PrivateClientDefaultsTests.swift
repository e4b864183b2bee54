import FlowCore
import FlowTestServer
import Logging
import Testing

@testable import FlowHTTP

/// `withDispatcher(…)` is called with only the settings a program changes, as docs/embedding.md and the limits
/// table of docs/workflow-format.md write it (`withDispatcher(maxRedirects:)`): certificate checks stay on.
@Suite(.timeLimit(.minutes(1)))
struct PrivateClientDefaultsTests {
    @Test func aRedirectLimitAloneIsEnough() async throws {
        try await withTestServer({ _ in TestReply(status: 302, headers: [("Location", "/elsewhere")]) }) { server in
            let response = try await AsyncHTTPClientDispatcher.withDispatcher(maxRedirects: 0) { dispatcher in
                try await dispatcher.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/moved"),
                    context: StepContext(
                        stepID: "s", attempt: 1, attemptTimeout: .seconds(5),
                        logger: Logger(label: "FlowHTTPTests") { _ in SwiftLogNoOpLogHandler() }))
            }
            #expect(response.status == 302)
            #expect(server.requests.count == 1)
        }
    }
}
