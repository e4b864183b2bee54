public import FlowCore
import Synchronization

/// A dispatcher that answers requests from stubs instead of a network, and records every call.
///
/// Engine tests, `flowrun run --mock` and `flowrun mock serve` use it: load stubs from a
/// `*.mock.yaml` file (see ``MockStubs``) or build them in code, run the
/// workflow, then check ``calls``.
///
/// ```swift
/// let mock = MockDispatcher(stubs: try MockStubs.load(yaml: text, path: "banking.mock.yaml"))
/// let response = try await mock.dispatch(request, context: context)
/// #expect(mock.calls.map(\.stubName) == ["user"])
/// ```
///
/// For each request the first stub, in order, whose conditions all hold
/// answers it. Each stub counts its own calls: its first call gets its first
/// response, the second its second, and once the responses run out the last
/// one repeats, so `[503, 503, 200]` fails twice and then keeps succeeding.
///
/// A response's `delay` sleeps on the injected clock, so tests on a virtual
/// clock run instantly. A request that no stub matches throws a ``FlowError``
/// with code ``FlowError/Code/mockUnmatched``, naming the closest stub and
/// what differed.
///
/// The dispatcher is safe to call from many tasks at once: the call counters
/// and the record are behind one lock, and each call takes its response and
/// appends its record in one step, so concurrent calls get distinct responses
/// of a sequence and the record's count matches the number of calls.
public final class MockDispatcher: Dispatcher {
    /// The stubs this dispatcher answers from.
    public let stubs: MockStubs

    private let matchers: [StubMatcher]
    /// Whether some stub matches on the body, so requests' bodies are worth parsing.
    private let readsBodies: Bool
    private let clock: any Clock<Duration>
    /// Whether ``calls`` keeps the calls; a long-running server that keeps its own record turns it off.
    private let recordsCalls: Bool
    private let state = Mutex(State())

    private struct State {
        /// The number of calls each stub has answered, by position.
        var counters: [Int] = []
        var calls: [RecordedCall] = []
    }

    /// Creates a dispatcher.
    /// - Parameters:
    ///   - stubs: The stubs to answer from, tried in order.
    ///   - clock: The clock that response delays sleep on; inject a test clock to skip real waiting.
    ///   - recordsCalls: Whether ``calls`` keeps every call. Turn it off in a long-running process that keeps its
    ///     own record from ``answer(_:context:)``, so the calls do not add up in memory twice; the response
    ///     sequences advance either way.
    public init(stubs: MockStubs, clock: any Clock<Duration> = ContinuousClock(), recordsCalls: Bool = true) {
        self.stubs = stubs
        self.matchers = stubs.stubs.enumerated().map { StubMatcher($1, index: $0) }
        self.readsBodies = stubs.stubs.contains { $0.match.body != nil }
        self.clock = clock
        self.recordsCalls = recordsCalls
        state.withLock { $0.counters = Array(repeating: 0, count: stubs.stubs.count) }
    }

    /// Every call received since the dispatcher was created or last reset, in the order received; always empty
    /// when the dispatcher was created with `recordsCalls: false`.
    ///
    /// A call is recorded when its stub is chosen, before any delay (and marked ``RecordedCall/cancelled`` when
    /// the delay is cut short), and a call
    /// that no stub matches is recorded with a `nil` ``RecordedCall/stubIndex``.
    public var calls: [RecordedCall] {
        state.withLock { $0.calls }
    }

    /// Forgets the recorded calls and restarts every stub's response sequence at its first response.
    public func reset() {
        state.withLock { state in
            state.calls.removeAll()
            state.counters = Array(repeating: 0, count: state.counters.count)
        }
    }

    /// Answers `request` from the first matching stub, after the response's delay.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The step and attempt it belongs to; recorded with the call.
    /// - Returns: The stub's current response.
    /// - Throws: A ``FlowError`` with code ``FlowError/Code/mockUnmatched`` when no stub matches, or the clock's
    ///   error (`CancellationError`) when the task is cancelled during a delay.
    public func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        switch try await answer(request, context: context) {
        case .matched(let response, _):
            return response
        case .unmatched(let mismatch, _):
            var error = FlowError(.mockUnmatched, mismatch.message)
            error.stepID = context.stepID
            error.attempt = context.attempt
            error.request = "\(mismatch.method) \(mismatch.target)"
            throw error
        }
    }

    /// Answers `request` as ``dispatch(_:context:)`` does, but says which stub answered, or which came closest,
    /// instead of throwing for a request no stub matches.
    ///
    /// The call is recorded (and a stub's sequence advanced) exactly as by ``dispatch(_:context:)``; the
    /// returned ``MockAnswer/call`` is this call's record, however many calls run at once.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The step and attempt it belongs to; recorded with the call.
    /// - Returns: The stub's current response, after its delay, or the closest stub and what differed.
    /// - Throws: The clock's error (`CancellationError`) when the task is cancelled during a delay.
    public func answer(_ request: StepRequest, context: StepContext) async throws -> MockAnswer {
        let facts = RequestFacts(request, readBody: readsBodies)
        guard let matcher = matchers.first(where: { $0.evaluate(facts, stopAtFirst: true).mismatches.isEmpty }) else {
            let call = RecordedCall(request: request, stepID: context.stepID, attempt: context.attempt)
            if recordsCalls { state.withLock { $0.calls.append(call) } }
            return .unmatched(mismatch(facts), call)
        }
        let (response, delay, call, position) = state.withLock { state in
            let count = state.counters[matcher.index]
            state.counters[matcher.index] = count + 1
            let answer = matcher.responses[min(count, matcher.responses.count - 1)]
            let call = RecordedCall(
                request: request, stepID: context.stepID, attempt: context.attempt,
                stubIndex: matcher.index, stubName: matcher.stub.name, status: answer.response.status)
            guard recordsCalls else { return (answer.response, answer.delay, call, nil as Int?) }
            state.calls.append(call)
            return (answer.response, answer.delay, call, state.calls.count - 1)
        }
        if let delay {
            do {
                try await clock.sleep(for: delay)
            } catch {
                // The answer never arrived: the record must not show the call as answered.
                state.withLock { state in
                    if let position, position < state.calls.count { state.calls[position].cancelled = true }
                }
                throw error
            }
        }
        return .matched(response, call)
    }

    /// The stub closest to `request`, which none matches, and what differed; credential query values
    /// (`api_key=***`) are redacted, since the mismatch is shown whatever secrets the run knows.
    private func mismatch(_ request: RequestFacts) -> MockMismatch {
        let evaluations = matchers.map { ($0, $0.evaluate(request, stopAtFirst: false)) }
        // Of equally close stubs, `max(by:)` returns the first, which is the one that would have been tried first.
        let closest = evaluations.max(by: { $0.1.score < $1.1.score }).map { matcher, evaluation in
            MockMismatch.ClosestStub(
                index: matcher.index, name: matcher.stub.name, location: matcher.stub.location,
                differences: evaluation.mismatches)
        }
        let target = SecretRedactor().redact(url: request.target)
        return MockMismatch(method: request.method, target: target, closestStub: closest)
    }
}
