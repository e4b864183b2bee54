import Synchronization
@testable import FlowCore
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

/// A clock whose sleeps return at once, advancing its time; it records every sleep.
///
/// Retry delays can then be asserted exactly without waiting for them.
final class ImmediateClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Mutex<(now: Instant, sleeps: [Duration])>((Instant(offset: .zero), []))

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            if deadline > state.now { state.now = deadline }
        }
    }
}

/// Compiles `yaml`, failing the test on errors.
func plan(_ yaml: String) throws -> Plan {
    try WorkflowCompiler().compile(yaml: yaml, path: "test.yaml")
}

/// An engine on `dispatcher`, registered as `http`.
func engine(_ dispatcher: any Dispatcher) -> Engine<ContinuousClock> {
    Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "test"))
}
