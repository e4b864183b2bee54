import Foundation
import Testing
@testable import FlowCore

/// A `forEach` step's decisions without I/O: every transition of ``ItemStateMachine``, driven by hand-made
/// events, with no engine, dispatcher or task group.
struct ItemStateMachineTests {
    /// An action as short words, for readable expectations.
    func words(_ action: ItemStateMachine.Action) -> String {
        switch action {
        case .startItems(let indices) where indices.count == 1: "start \(indices.lowerBound)"
        case .startItems(let indices): "start \(indices.lowerBound)..<\(indices.upperBound)"
        case .cancelRunningItems: "cancel running"
        case .wait: "wait"
        case .finish(.completed(let failed)): "completed, \(failed) failed"
        case .finish(.failed(let item)): "failed with item \(item)"
        case .finish(.cancelled(let started)): "cancelled after \(started) started"
        }
    }

    /// The actions for `events`, in order, as words.
    func words(_ events: [ItemEvent], on machine: inout ItemStateMachine) -> [String] {
        events.map { words(machine.apply($0)) }
    }

    /// The event of item `index` succeeding.
    func done(_ index: Int) -> ItemEvent { .itemFinished(index: index, outcome: .succeeded) }

    /// The event of item `index` failing with an error of `code`.
    func failed(_ index: Int, _ code: FlowError.Code = .httpStatus) -> ItemEvent {
        .itemFinished(index: index, outcome: .failed(code))
    }

    // MARK: Starting items

    @Test func itemsStartInOrderAndNoMoreThanMaxConcurrencyRunAtOnce() {
        var items = ItemStateMachine(maxConcurrency: 3, onItemFailure: .fail)
        #expect(items.state == .idle)
        #expect(words(items.apply(.started(itemCount: 7))) == "start 0..<3")
        #expect(items.state == .running)
        #expect(items.running == 3)
        // Whichever item reports, the next in order starts in its place.
        #expect(words([done(2), done(0), done(3), done(1)], on: &items) == ["start 3", "start 4", "start 5", "start 6"])
        #expect(items.running == 3)
        #expect(items.started == 7)
        #expect(words([done(5), done(6)], on: &items) == ["wait", "wait"])
        #expect(words(items.apply(done(4))) == "completed, 0 failed")
        #expect(items.state == .finished)
    }

    @Test func fewerItemsThanMaxConcurrencyAllStartAtOnce() {
        var items = ItemStateMachine(maxConcurrency: 16, onItemFailure: .fail)
        #expect(words([.started(itemCount: 2), done(1), done(0)], on: &items) == [
            "start 0..<2", "wait", "completed, 0 failed",
        ])
    }

    @Test func aMaxConcurrencyBelowOneRunsOneItemAtATime() {
        var items = ItemStateMachine(maxConcurrency: 0, onItemFailure: .skip)
        #expect(words([.started(itemCount: 2), done(0), done(1)], on: &items) == [
            "start 0", "start 1", "completed, 0 failed",
        ])
    }

    @Test func anEmptyListFinishesAtOnce() {
        var items = ItemStateMachine(maxConcurrency: 4, onItemFailure: .fail)
        #expect(words(items.apply(.started(itemCount: 0))) == "completed, 0 failed")
        #expect(items.state == .finished)
    }

    // MARK: Failed items

    /// With `skip` and `collect`, a failed item changes nothing here: the next one starts, and the step completes
    /// with the count of failures (the driver leaves them out or lists them).
    @Test(arguments: [ForEach.ItemFailure.skip, .collect])
    func skipAndCollectGoOnAfterAFailedItem(mode: ForEach.ItemFailure) {
        var items = ItemStateMachine(maxConcurrency: 2, onItemFailure: mode)
        #expect(words([.started(itemCount: 4), failed(0), done(1), failed(2), done(3)], on: &items) == [
            "start 0..<2", "start 2", "start 3", "wait", "completed, 2 failed",
        ])
    }

    @Test func theFirstFailureStopsStartingItemsAndFinishesAfterTheRunningOnesReport() {
        var items = ItemStateMachine(maxConcurrency: 3, onItemFailure: .fail)
        #expect(words([.started(itemCount: 10), failed(1)], on: &items) == ["start 0..<3", "cancel running"])
        #expect(items.state == .stopping)
        // The items it cancelled report as cancelled, or as done when their answer was already on its way.
        #expect(words([failed(0, .cancelled), done(2)], on: &items) == ["wait", "failed with item 1"])
        #expect(items.started == 3)
        #expect(items.state == .finished)
    }

    @Test func aFailureWhenNothingElseRunsFinishesAtOnce() {
        var items = ItemStateMachine(maxConcurrency: 1, onItemFailure: .fail)
        #expect(words([.started(itemCount: 4), done(0), failed(1)], on: &items) == [
            "start 0", "start 1", "failed with item 1",
        ])
    }

    @Test func theItemsCancelledByTheFirstFailureDoNotTakeItsPlace() {
        var items = ItemStateMachine(maxConcurrency: 3, onItemFailure: .fail)
        _ = items.apply(.started(itemCount: 3))
        #expect(words([failed(2), failed(0, .cancelled), failed(1, .cancelled)], on: &items) == [
            "cancel running", "wait", "failed with item 2",
        ])
    }

    @Test func aLowerItemThatFailsByItselfWhileTheOthersStopTakesThePlaceOfTheFirstFailure() {
        var items = ItemStateMachine(maxConcurrency: 3, onItemFailure: .fail)
        _ = items.apply(.started(itemCount: 3))
        #expect(words([failed(2), failed(0, .transport), failed(1, .cancelled)], on: &items) == [
            "cancel running", "wait", "failed with item 0",
        ])
        // A higher one does not.
        var higher = ItemStateMachine(maxConcurrency: 3, onItemFailure: .fail)
        _ = higher.apply(.started(itemCount: 3))
        #expect(words([failed(1), failed(2, .transport), done(0)], on: &higher) == [
            "cancel running", "wait", "failed with item 1",
        ])
    }

    // MARK: Cancellation

    @Test func aCancelledStepStartsNoFurtherItemAndFailsAsCancelled() {
        var items = ItemStateMachine(maxConcurrency: 2, onItemFailure: .skip)
        #expect(words([.started(itemCount: 5), done(0), .cancelled], on: &items) == [
            "start 0..<2", "start 2", "cancel running",
        ])
        #expect(items.state == .stopping)
        #expect(words([failed(1, .cancelled), failed(2, .cancelled)], on: &items) == [
            "wait", "cancelled after 3 started",
        ])
    }

    @Test func aStepCancelledOnceEveryItemStartedEndsWithWhatTheItemsGave() {
        var items = ItemStateMachine(maxConcurrency: 2, onItemFailure: .collect)
        #expect(words([.started(itemCount: 2), .cancelled, done(0), failed(1, .cancelled)], on: &items) == [
            "start 0..<2", "cancel running", "wait", "completed, 1 failed",
        ])
    }

    /// With `fail`, an item that fails because of the cancellation fails the step with its own error, as the
    /// first failure always does.
    @Test func aCancelledFailFastStepFailsWithTheFirstItemThatFailed() {
        var items = ItemStateMachine(maxConcurrency: 2, onItemFailure: .fail)
        #expect(words([.started(itemCount: 5), .cancelled, failed(1, .cancelled), done(0)], on: &items) == [
            "start 0..<2", "cancel running", "wait", "failed with item 1",
        ])
    }

    @Test func aCancellationAfterTheFirstFailureOnlyWaits() {
        var items = ItemStateMachine(maxConcurrency: 2, onItemFailure: .fail)
        #expect(words([.started(itemCount: 5), failed(0), .cancelled, .cancelled, failed(1, .cancelled)], on: &items)
            == ["start 0..<2", "cancel running", "wait", "wait", "failed with item 0"])
        #expect(items.cancelled)
    }

    // MARK: Invalid events

    /// An event the state cannot take is a bug in the driver: the machine stops the process rather than guess.
    @Test(arguments: [
        [ItemEvent.itemFinished(index: 0, outcome: .succeeded)],
        [.cancelled],
        [.started(itemCount: 2), .started(itemCount: 2)],
        [.started(itemCount: -1)],
        [.started(itemCount: 3), .itemFinished(index: 1, outcome: .succeeded)],
        [.started(itemCount: 3), .itemFinished(index: -1, outcome: .succeeded)],
        [.started(itemCount: 1), .itemFinished(index: 0, outcome: .succeeded), .cancelled],
        [.started(itemCount: 0), .itemFinished(index: 0, outcome: .succeeded)],
    ])
    func anEventTheStateCannotTakeIsAPreconditionFailure(events: [ItemEvent]) async {
        await #expect(processExitsWith: .failure) { [events] in
            var items = ItemStateMachine(maxConcurrency: 1, onItemFailure: .fail)
            for event in events { _ = items.apply(event) }
        }
    }

    // MARK: Replay

    @Test func theEventsDecodedFromJSONLeadAFreshMachineToTheSameActions() throws {
        let events: [ItemEvent] = [
            .started(itemCount: 6), done(1), failed(0, .transport), done(2), .cancelled, failed(4, .cancelled),
            done(3), failed(5, .cancelled),
        ]
        var first = ItemStateMachine(maxConcurrency: 3, onItemFailure: .collect)
        let actions = words(events, on: &first)
        #expect(actions == [
            "start 0..<3", "start 3", "start 4", "start 5", "cancel running", "wait", "wait", "completed, 3 failed",
        ])
        let data = try JSONEncoder().encode(events)
        #expect(String(decoding: data, as: UTF8.self).contains(#"{"failed":"cancelled"}"#))
        let decoded = try JSONDecoder().decode([ItemEvent].self, from: data)
        var replayed = ItemStateMachine(maxConcurrency: 3, onItemFailure: .collect)
        #expect(words(decoded, on: &replayed) == actions)
        #expect(replayed.state == first.state)
        #expect(replayed.failed == first.failed)
    }
}
