/// The decisions of a `forEach` step, as a value: how many items run at once, which item starts next, what a
/// failed item does to the step, and when the step is done.
///
/// Events go in (the item list is known, an item finished, the step was cancelled) and one action comes out of
/// each (start items, cancel the running ones, wait, finish). It performs no I/O and holds no item's value or
/// result: ``StepRunner/runItems(of:_:scope:span:)`` is the driver that runs each item in a task group, keeps
/// the items' results and builds the step's outputs and report from them. The machine keeps counts and one
/// index, so a step over 10,000 items costs it no more memory than a step over one. AsyncHTTPClient's
/// `HTTPRequestStateMachine` is the model, as for ``AttemptStateMachine``.
///
/// ```text
///              started(n > 0)              itemFinished: nothing runs and nothing
///   ┌────────┐ startItems(0..<k) ┌─────────┐   is left to start (or it failed): finish   ┌──────────┐
///   │  idle  │──────────────────▶│ running │────────────────────────────────────────────▶│ finished │
///   └────────┘                   └─────────┘                                             └──────────┘
///       │         itemFinished:  │   ▲   │ itemFinished, a failure with                     ▲    ▲
///       │ startItems(i..<i+1) or │   │   │ onItemFailure: fail, or cancelled:               │    │
///       │                   wait └───┘   ▼ cancelRunningItems                               │    │
///       │                        ┌──────────┐  itemFinished: the last running item reported │    │
///       │                        │ stopping │───────────────────────────────────────────────┘    │
///       │                        └──────────┘  (itemFinished otherwise, cancelled: wait)         │
///       └────────────────────────────────────────────────────────────────────────────────────────┘
///                                              started(0): finish
/// ```
///
/// Items start in order, at most `maxConcurrency` at a time: `k` of them when the step starts, then one for
/// each item that reports, until every item has started. With `onItemFailure: skip` or `collect` a failed item
/// changes nothing here (the driver leaves it out of the outputs or lists its error). With `fail` the first
/// failed item stops the step: no further item starts and the running ones are cancelled; the step fails with
/// that item's error once they have reported. A lower item that fails of its own accord meanwhile takes its
/// place, but an item whose failure is the cancellation does not. A cancelled step starts no further item
/// either, and fails as cancelled unless every item had started.
///
/// An event the current state cannot take — an item finishing before `started`, an item that never started,
/// any event after `finished` — is a precondition failure, as in the other machines: it is a bug in the
/// driver. The machine counts reports rather than remembering each item's, so one item reported twice while
/// another still runs is not caught (a state of `running` or `stopping` always has an item running: the last
/// report finishes the step).
struct ItemStateMachine: Sendable {
    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Start the items at these indices, each in a task of its own, and report each with
        /// ``ItemEvent/itemFinished(index:outcome:)``.
        case startItems(Range<Int>)
        /// Cancel the items that are running; each still reports, usually as failed with a cancellation.
        case cancelRunningItems
        /// Nothing to start: wait for the next running item to report.
        case wait
        /// Every item the machine started has reported: the step is done, with this outcome.
        case finish(Outcome)
    }

    /// How a `forEach` step's items ended.
    enum Outcome: Equatable, Sendable, Codable {
        /// Every item ran; `failed` of them failed, which `onItemFailure: skip` leaves out of the outputs and
        /// `collect` lists (always 0 with `fail`). The step succeeds.
        case completed(failed: Int)
        /// The item at `item` failed, and with `onItemFailure: fail` so does the step, with its error.
        case failed(item: Int)
        /// The step was cancelled when `started` items had started; the others never will. The step fails as
        /// cancelled.
        case cancelled(started: Int)
    }

    /// Where the step's items are.
    enum State: Equatable, Sendable, Codable {
        /// The item list is not known yet.
        case idle
        /// Items start as running ones report.
        case running
        /// No further item starts (a failure with `onItemFailure: fail`, or a cancellation): the running items
        /// are awaited.
        case stopping
        /// The outcome is known.
        case finished
    }

    /// Where the items are now.
    private(set) var state = State.idle
    /// The most items that run at once: the step's `maxConcurrency`, at least 1.
    let maxConcurrency: Int
    /// What a failed item does to the step.
    let onItemFailure: ForEach.ItemFailure
    /// How many items the step has.
    private(set) var itemCount = 0
    /// How many items have started: they started in order, so this is also the index of the next to start.
    private(set) var started = 0
    /// How many items have started and not reported.
    private(set) var running = 0
    /// How many items failed, cancelled ones included.
    private(set) var failed = 0
    /// With `onItemFailure: fail`, the item whose error fails the step.
    private(set) var failing: Int?
    /// Whether ``ItemEvent/cancelled`` arrived.
    private(set) var cancelled = false

    /// The items of a `forEach` step with these settings.
    /// - Parameters:
    ///   - maxConcurrency: The most items that run at once; a value below 1 is taken as 1.
    ///   - onItemFailure: What a failed item does to the step.
    init(maxConcurrency: Int, onItemFailure: ForEach.ItemFailure) {
        self.maxConcurrency = max(1, maxConcurrency)
        self.onItemFailure = onItemFailure
    }

    // MARK: Events

    /// Takes in `event`: the one entry point a driver (or a replay of recorded events) needs.
    /// - Parameter event: What happened.
    /// - Returns: What the driver does next.
    mutating func apply(_ event: ItemEvent) -> Action {
        switch (state, event) {
        case (.idle, .started(let itemCount)):
            precondition(itemCount >= 0, "a forEach step with \(itemCount) items")
            self.itemCount = itemCount
            state = .running
            guard itemCount > 0 else { return finish() }
            let first = min(maxConcurrency, itemCount)
            started = first
            running = first
            return .startItems(0..<first)
        case (.running, .itemFinished(let index, let outcome)), (.stopping, .itemFinished(let index, let outcome)):
            precondition(0 <= index && index < started, "item \(index) finished, but items 0..<\(started) started")
            running -= 1
            if case .failed(let code) = outcome { return itemFailed(index, code) }
            return afterReport()
        case (.running, .cancelled):
            cancelled = true
            state = .stopping
            return .cancelRunningItems
        case (.stopping, .cancelled):
            // A failure stopped the step and cancelled the running items already, or this is said again.
            cancelled = true
            return .wait
        default:
            preconditionFailure("the items took \(event) while \(state)")
        }
    }

    /// The item at `index` failed with an error of `code`.
    private mutating func itemFailed(_ index: Int, _ code: FlowError.Code) -> Action {
        failed += 1
        guard onItemFailure == .fail else { return afterReport() }
        // The items the first failure cancelled are not failures of their own; a lower item that failed
        // by itself is the one the step reports.
        if failing == nil || (code != .cancelled && index < failing!) { failing = index }
        guard state == .running else { return afterReport() }
        state = .stopping
        return running > 0 ? .cancelRunningItems : finish()
    }

    /// An item reported: start the next, finish when nothing runs, or wait.
    private mutating func afterReport() -> Action {
        if state == .running && started < itemCount {
            started += 1
            running += 1
            return .startItems(started - 1..<started)
        }
        return running == 0 ? finish() : .wait
    }

    /// Every item that started has reported.
    private mutating func finish() -> Action {
        state = .finished
        if let failing { return .finish(.failed(item: failing)) }
        if started < itemCount { return .finish(.cancelled(started: started)) }
        return .finish(.completed(failed: failed))
    }
}
