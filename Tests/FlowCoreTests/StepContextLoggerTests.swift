@testable import FlowCore
import FlowTestServer
import Logging
import Synchronization
import Testing

/// The logger a dispatcher or interceptor gets in its ``StepContext``: the run's, naming the step and attempt.
struct StepContextLoggerTests {
    /// A dispatcher that logs through its context, as a user's dispatcher would, and fails its first call.
    struct LoggingDispatcher: Dispatcher {
        let calls = CallCounter()

        func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
            context.logger.info("dispatching", metadata: ["path": "\(request.path)"])
            return calls.next() == 0 ? json(503, "{}") : json(200, #"{"id":"a-1"}"#)
        }
    }

    final class CallCounter: Sendable {
        private let count = Mutex(0)
        func next() -> Int {
            count.withLock { count in
                defer { count += 1 }
                return count
            }
        }
    }

    @Test func theEnginesContextLogsWithTheRunStepAndAttempt() async throws {
        let capture = CapturedLogs()
        let logger = Logger(label: "test") { _ in capture.handler() }
        let engine = Engine(
            dispatchers: DispatcherRegistry(["http": LoggingDispatcher()]), clock: ImmediateClock(), logger: logger)
        let workflow = try plan(apiServerByDefault + """
            policies:
              again: { retry: [{ when: { status: 503 }, attempts: 2, delay: 1ms }] }
            steps:
              - id: fetch
                policy: again
                request: { method: GET, path: /items }
            """)
        let report = await engine.run(workflow, inputs: [:], environment: [:])
        #expect(report.succeeded)
        let dispatched = capture.entries.filter { $0.message == "dispatching" }
        #expect(dispatched.map { $0.metadata["attempt"] } == ["1", "2"])
        #expect(dispatched.allSatisfy { $0.metadata["step"] == "fetch" && $0.metadata["run"] == report.runID })
        #expect(dispatched.allSatisfy { $0.metadata["path"] == "/items" })
    }

    @Test func aContextMadeDirectlyLogsWithTheLoggerAsGiven() {
        let capture = CapturedLogs()
        var logger = Logger(label: "test") { _ in capture.handler() }
        logger[metadataKey: "tenant"] = "acme"
        var context = StepContext(stepID: "fetch", attempt: 2, logger: logger)
        context.logger.info("given")
        var replacement = Logger(label: "test") { _ in capture.handler() }
        replacement[metadataKey: "replaced"] = "yes"
        context.logger = replacement
        context.logger.info("set")
        let entries = capture.entries
        #expect(entries.map(\.message) == ["given", "set"])
        #expect(entries.map(\.metadata) == [["tenant": "acme"], ["replaced": "yes"]])
    }

    @Test func aLoggerSetOnTheEnginesContextIsUsedAsItIs() {
        let capture = CapturedLogs()
        var context = StepContext(
            stepID: "fetch", attempt: 3, attemptTimeout: nil, logger: Logger(label: "test") { _ in capture.handler() },
            redactor: SecretRedactor())
        context.logger.info("engine's")
        context.logger = Logger(label: "test") { _ in capture.handler() }
        context.logger.info("set")
        #expect(capture.entries.map(\.metadata) == [["step": "fetch", "attempt": "3"], [:]])
    }
}
