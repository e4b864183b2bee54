import FlowTesting
import Synchronization
import Testing

@testable import FlowCore

/// A dispatcher that keeps attempts' time limits itself (`enforcesTimeLimits`): it records the context each
/// call gets and answers after `delay`, or fails with the handed-over deadline's error when that passes first.
private final class DeadlineKeepingDispatcher: Dispatcher {
    let contexts = Mutex<[StepContext]>([])
    let delay: Duration

    init(delay: Duration = .zero) { self.delay = delay }

    var enforcesTimeLimits: Bool { true }

    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        contexts.withLock { $0.append(context) }
        if let deadline = context.deadline, ContinuousClock.now.advanced(by: delay) > deadline.instant {
            try await Task.sleep(until: deadline.instant)
            throw deadline.error
        }
        if delay > .zero { try await Task.sleep(for: delay) }
        return json(200, #"{"token":"t-2"}"#)
    }
}

/// Issue 12, "timeouts without a task per attempt": the engine hands an attempt's time limit to a dispatcher
/// that keeps it, only where nothing but the dispatcher can make the attempt wait.
struct DeadlineHandOverTests {
    private func workflow(interceptors: String = "", use: String = "") -> String {
        apiServerByDefault + """
            policies: { quick: { timeout: { attempt: 200ms } } }
            \(interceptors)
            steps:
              - id: call
                policy: quick
                \(use)
                request: { method: GET, path: /call }
            """
    }

    @Test func aDispatcherThatKeepsDeadlinesGetsTheLimitAndItsErrorIsTheEngines() async throws {
        let fast = DeadlineKeepingDispatcher()
        let report = try await run(workflow(), on: fast)
        #expect(report.succeeded)
        let context = try #require(fast.contexts.withLock { $0.first })
        let deadline = try #require(context.deadline)
        #expect(!context.callerEnforcesAttemptTimeout)
        #expect(deadline.error.code == .attemptTimeout)
        #expect(ContinuousClock.now.duration(to: deadline.instant) < .milliseconds(200))

        let slow = DeadlineKeepingDispatcher(delay: .seconds(20))
        let failed = try await run(workflow(), on: slow)
        #expect(failed.error?.code == .attemptTimeout)
        #expect(failed.error?.message == "no response within 200ms")
        #expect(failed.error?.stepID == "call")
    }

    @Test func anObservedRunHandsTheLimitOverToo() async throws {
        final class Exchanges: ExchangeObserver {
            let count = Mutex(0)
            func exchangeFinished(_ exchange: Exchange) { count.withLock { $0 += 1 } }
        }
        let dispatcher = DeadlineKeepingDispatcher()
        var observed = engine(dispatcher)
        let exchanges = Exchanges()
        observed.exchangeObserver = exchanges
        let report = await observed.run(try plan(workflow()), inputs: [:], environment: [:])
        #expect(report.succeeded)
        #expect(dispatcher.contexts.withLock { $0.first?.deadline } != nil)
        #expect(exchanges.count.withLock { $0 } == 1)
    }

    @Test func aRefreshOrAProgramsInterceptorKeepsTheEnginesTimeLimit() async throws {
        let refreshing = workflow(
            interceptors: "interceptors: { refresh: { run: token } }",
            use: "interceptors: [refresh]") + """

              - id: token
                on-demand: true
                request: { method: POST, path: /token }
            """
        let dispatcher = DeadlineKeepingDispatcher()
        let report = try await run(refreshing, on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        let context = try #require(dispatcher.contexts.withLock { $0.first })
        #expect(context.deadline == nil)
        #expect(context.callerEnforcesAttemptTimeout)
    }

    @Test func onAVirtualClockTheEngineKeepsTheTimeLimit() async throws {
        let clock = VirtualClock()
        let dispatcher = DeadlineKeepingDispatcher()
        let engine = Engine(http: dispatcher, clock: clock)
        let compiled = try plan(workflow())
        let report = await clock.run { await engine.run(compiled, inputs: [:], environment: [:]) }
        #expect(report.succeeded)
        let context = try #require(dispatcher.contexts.withLock { $0.first })
        #expect(context.deadline == nil)
        #expect(context.callerEnforcesAttemptTimeout)
    }
}
