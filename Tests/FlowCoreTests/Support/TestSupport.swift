import Synchronization
@testable import FlowCore
import FlowTestServer
import Logging

/// A dispatcher whose answers a test gives as a closure, recording every request it receives.
final class ScriptedDispatcher: Dispatcher {
    private let handler: @Sendable (StepRequest, Int) async throws -> StepResponse
    private let log = Mutex<[StepRequest]>([])

    /// - Parameter handler: Answers a request; the second argument is how many requests came before it.
    init(_ handler: @escaping @Sendable (StepRequest, Int) async throws -> StepResponse) {
        self.handler = handler
    }

    var requests: [StepRequest] { log.withLock { $0 } }

    /// `METHOD path` of every request, in the order received.
    var calls: [String] { requests.map { "\($0.method) \($0.path)" } }

    /// A dispatcher that answers nothing for 30 seconds: longer than any test waits for it.
    static func hanging() -> ScriptedDispatcher {
        ScriptedDispatcher { _, _ in
            try await Task.sleep(for: .seconds(30))
            return json(200, "{}")
        }
    }

    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        let index = log.withLock { list in
            list.append(request)
            return list.count - 1
        }
        return try await handler(request, index)
    }
}

/// A JSON response.
func json(_ status: Int, _ body: String, headers: HeaderFields = [:]) -> StepResponse {
    var headers = headers
    headers.set("Content-Type", "application/json")
    return StepResponse(status: status, headers: headers, body: Array(body.utf8))
}

/// The clock whose sleeps return at once, shared with the HTTP tests.
typealias ImmediateClock = FlowTestServer.ImmediateClock

/// The head of a workflow with one server, `api`, at `https://api.test`; the test's text starts at line 4.
let apiServer = """
    flowrun: 1
    servers: { api: "https://api.test" }

    """

/// ``apiServer`` as every step's default server; the test's text starts at line 6.
let apiServerByDefault = apiServer + """
    defaults: { server: api }

    """

/// Compiles `yaml`, failing the test on errors.
func plan(_ yaml: String) throws -> Plan {
    try WorkflowCompiler().compile(yaml: yaml, path: "test.yaml")
}

/// The diagnostics of checking `yaml` as `t.yaml`.
func diagnostics(_ yaml: String) -> [Diagnostic] {
    WorkflowCompiler().check(yaml: yaml, path: "t.yaml").diagnostics
}

/// An engine on `dispatcher`, registered as `http`.
func engine(_ dispatcher: any Dispatcher) -> Engine<ContinuousClock> {
    Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "test"))
}

extension Engine {
    /// An engine on `dispatcher`, registered as `http`, whose timeouts and retry delays run on `clock`.
    init(http dispatcher: any Dispatcher, clock: C) {
        self.init(dispatchers: DispatcherRegistry(["http": dispatcher]), clock: clock, logger: Logger(label: "test"))
    }
}

/// Compiles `workflow`, failing the test on errors, and runs it once on ``engine(_:)`` with `dispatcher`.
func run(
    _ workflow: String, on dispatcher: any Dispatcher,
    inputs: [String: JSONValue] = [:], environment: [String: String] = [:]
) async throws -> RunReport {
    await engine(dispatcher).run(try plan(workflow), inputs: inputs, environment: environment)
}
