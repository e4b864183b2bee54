import Foundation
import Testing
@testable import FlowCore

/// A `repeat` or `paginate` step's decisions without I/O: every transition of ``LoopStateMachine``, driven by
/// hand-made events, with no engine, dispatcher or clock.
struct LoopStateMachineTests {
    /// A pacing of `delay` between iterations, growing as `backoff` says.
    static func pacing(_ delay: Duration, _ backoff: RetryRule.Backoff = .constant) -> LoopPacing {
        var pacing = LoopPacing(delay: delay)
        pacing.backoff = backoff
        return pacing
    }

    /// An action as short words, for readable expectations.
    func words(_ action: LoopStateMachine.Action) -> String {
        switch action {
        case .startIteration(let index, nil): "iteration \(index)"
        case .startIteration(let index, .url(let url)?): "iteration \(index) at \(url)"
        case .startIteration(let index, .query(let name, let value)?): "iteration \(index) with \(name)=\(value)"
        case .sleep(let delay): "sleep \(delay.workflowText)"
        case .finish(.completed(let iterations)): "completed after \(iterations)"
        case .finish(.failed(let index)): "failed in iteration \(index)"
        case .finish(.limitReached(let iterations)): "limit reached after \(iterations)"
        case .finish(.cancelled(let index)): "cancelled waiting for iteration \(index)"
        }
    }

    /// The actions for `events`, in order, as words.
    func words(_ events: [LoopEvent], on machine: inout LoopStateMachine) -> [String] {
        events.map { words(machine.apply($0)) }
    }

    /// Iteration `index` finished; the loop goes on (to `page`) or not.
    func finished(_ index: Int, goesOn: Bool = true, page: PageRequest? = nil) -> LoopEvent {
        .iterationFinished(index: index, goesOn: goesOn, nextPage: page)
    }

    @Test func theLoopRunsUntilAnIterationEndsItWaitingThePacingBetweenTwo() {
        var loop = LoopStateMachine(maxIterations: 10, pacing: Self.pacing(.seconds(1), .exponential))
        #expect(loop.state == .idle)
        #expect(words(loop.apply(.started)) == "iteration 0")
        #expect(loop.state == .iterating(index: 0))
        #expect(words(loop.apply(finished(0))) == "sleep 1s")
        #expect(loop.state == .waiting(index: 1, page: nil))
        #expect(words([.timerFired, finished(1), .timerFired, finished(2, goesOn: false)], on: &loop) == [
            "iteration 1", "sleep 2s", "iteration 2", "completed after 3",
        ])
        #expect(loop.state == .finished)
    }

    @Test func noWaitMeansNoSleep() {
        var loop = LoopStateMachine(maxIterations: 3, pacing: Self.pacing(.zero))
        #expect(words([.started, finished(0), finished(1), finished(2, goesOn: false)], on: &loop) == [
            "iteration 0", "iteration 1", "iteration 2", "completed after 3",
        ])
    }

    @Test func eachPageStartsWithTheNextPageItsPredecessorNamed() {
        var loop = LoopStateMachine(maxIterations: 5, pacing: Self.pacing(.milliseconds(100)))
        let events: [LoopEvent] = [
            .started, finished(0, page: .query(name: "cursor", value: "c2")), .timerFired,
            finished(1, page: .url("https://api.test/items?page=3")), .timerFired, finished(2, goesOn: false),
        ]
        #expect(words(events, on: &loop) == [
            "iteration 0", "sleep 100ms", "iteration 1 with cursor=c2", "sleep 100ms",
            "iteration 2 at https://api.test/items?page=3", "completed after 3",
        ])
    }

    @Test func aLoopThatWouldGoOnPastItsLimitReachesIt() {
        var loop = LoopStateMachine(maxIterations: 2, pacing: Self.pacing(.seconds(1)))
        #expect(words([.started, finished(0), .timerFired, finished(1)], on: &loop) == [
            "iteration 0", "sleep 1s", "iteration 1", "limit reached after 2",
        ])
        // An iteration that ends the loop at the limit completes it.
        var ending = LoopStateMachine(maxIterations: 1, pacing: Self.pacing(.seconds(1)))
        #expect(words([.started, finished(0, goesOn: false)], on: &ending) == ["iteration 0", "completed after 1"])
    }

    @Test func aFailedIterationEndsTheLoop() {
        var loop = LoopStateMachine(maxIterations: 5, pacing: Self.pacing(.seconds(1)))
        #expect(words([.started, finished(0), .timerFired, .iterationFailed(index: 1)], on: &loop) == [
            "iteration 0", "sleep 1s", "iteration 1", "failed in iteration 1",
        ])
    }

    @Test func aCancelledWaitEndsTheLoop() {
        var loop = LoopStateMachine(maxIterations: 5, pacing: Self.pacing(.seconds(1)))
        #expect(words([.started, finished(0), .cancelled], on: &loop) == [
            "iteration 0", "sleep 1s", "cancelled waiting for iteration 1",
        ])
    }

    /// An event the state cannot take is a bug in the driver: the machine stops the process rather than guess.
    @Test(arguments: [
        [LoopEvent.timerFired],
        [.started, .started],
        [.started, .timerFired],
        [.started, .cancelled],
        [.started, .iterationFinished(index: 1, goesOn: true, nextPage: nil)],
        [.started, .iterationFailed(index: 1)],
        [.started, .iterationFinished(index: 0, goesOn: true, nextPage: nil),
         .iterationFinished(index: 1, goesOn: true, nextPage: nil)],
        [.started, .iterationFinished(index: 0, goesOn: false, nextPage: nil), .started],
    ])
    func anEventTheStateCannotTakeIsAPreconditionFailure(events: [LoopEvent]) async {
        await #expect(processExitsWith: .failure) { [events] in
            var loop = LoopStateMachine(maxIterations: 5, pacing: LoopPacing(delay: .seconds(1)))
            for event in events { _ = loop.apply(event) }
        }
    }

    @Test func theEventsDecodedFromJSONLeadAFreshMachineToTheSameActions() throws {
        let pacing = Self.pacing(.milliseconds(250), .linear)
        let events: [LoopEvent] = [
            .started, finished(0, page: .query(name: "page", value: "2")), .timerFired,
            finished(1, page: .url("https://api.test/items?after=x")), .timerFired,
            finished(2, page: .query(name: "page", value: "4")), .timerFired, finished(3),
        ]
        var first = LoopStateMachine(maxIterations: 4, pacing: pacing)
        let actions = words(events, on: &first)
        #expect(actions == [
            "iteration 0", "sleep 250ms", "iteration 1 with page=2", "sleep 500ms",
            "iteration 2 at https://api.test/items?after=x", "sleep 750ms", "iteration 3 with page=4",
            "limit reached after 4",
        ])
        let decoded = try JSONDecoder().decode([LoopEvent].self, from: JSONEncoder().encode(events))
        var replayed = LoopStateMachine(maxIterations: 4, pacing: pacing)
        #expect(words(decoded, on: &replayed) == actions)
        #expect(replayed.state == first.state)
    }
}
