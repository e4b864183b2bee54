public import FlowCore
import Synchronization

/// A dispatcher that answers requests from stubs instead of a network, and records every call.
///
/// Engine tests and `flowrun run --dispatcher mock` use it: load stubs from a
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
    public init(stubs: MockStubs, clock: any Clock<Duration> = ContinuousClock()) {
        self.stubs = stubs
        self.matchers = stubs.stubs.enumerated().map { StubMatcher($1, index: $0) }
        self.readsBodies = stubs.stubs.contains { $0.match.body != nil }
        self.clock = clock
        state.withLock { $0.counters = Array(repeating: 0, count: stubs.stubs.count) }
    }

    /// Every call received since the dispatcher was created or last reset, in the order received.
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
        let facts = RequestFacts(request, readBody: readsBodies)
        guard let matcher = matchers.first(where: { $0.evaluate(facts, stopAtFirst: true).mismatches.isEmpty }) else {
            state.withLock {
                $0.calls.append(RecordedCall(request: request, stepID: context.stepID, attempt: context.attempt))
            }
            throw unmatchedError(facts, context: context)
        }
        let (response, delay, position) = state.withLock { state in
            let count = state.counters[matcher.index]
            state.counters[matcher.index] = count + 1
            let answer = matcher.responses[min(count, matcher.responses.count - 1)]
            state.calls.append(RecordedCall(
                request: request, stepID: context.stepID, attempt: context.attempt,
                stubIndex: matcher.index, stubName: matcher.stub.name, status: answer.response.status))
            return (answer.response, answer.delay, state.calls.count - 1)
        }
        if let delay {
            do {
                try await clock.sleep(for: delay)
            } catch {
                // The answer never arrived: the record must not show the call as answered.
                state.withLock { state in
                    if position < state.calls.count { state.calls[position].cancelled = true }
                }
                throw error
            }
        }
        return response
    }

    /// The error for a request no stub matches, naming the closest stub and what differed.
    private func unmatchedError(_ request: RequestFacts, context: StepContext) -> FlowError {
        var message = "no mock stub matches \(request.method) \(request.target)"
        let evaluations = matchers.map { ($0, $0.evaluate(request, stopAtFirst: false)) }
        // Of equally close stubs, `max(by:)` returns the first, which is the one that would have been tried first.
        if let (closest, evaluation) = evaluations.max(by: { $0.1.score < $1.1.score }) {
            let place = closest.stub.location.map { " (\($0))" } ?? ""
            message += "; the closest is \(closest.label)\(place): " + evaluation.mismatches.joined(separator: "; ")
        } else {
            message += "; there are no stubs"
        }
        var error = FlowError(.mockUnmatched, message)
        error.stepID = context.stepID
        error.attempt = context.attempt
        error.request = "\(request.method) \(request.target)"
        return error
    }
}
