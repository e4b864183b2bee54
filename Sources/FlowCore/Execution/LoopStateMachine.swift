/// The decisions of a `repeat` or `paginate` step, as a value: which iteration starts next and with which page,
/// how long to wait before it, and when the loop ends — its condition or its list ended it, an iteration
/// failed, or it reached its `maxIterations` or `maxPages`.
///
/// Events go in (the step started, an iteration finished or failed, the wait is over or was cancelled) and one
/// action comes out of each (start an iteration, sleep, finish). It performs no I/O and reads no clock:
/// ``StepRunner/runIterations(of:scope:span:)`` is the driver that runs each iteration (a whole run of the step,
/// retries included), works out from its response whether the loop goes on and where the next page is, keeps
/// the outputs and the report, and sleeps on the engine's clock. AsyncHTTPClient's `HTTPRequestStateMachine` is
/// the model, as for ``AttemptStateMachine``.
///
/// ```text
///              started               iterationFinished, the loop ends: finish(.completed);
///   ┌────────┐ startIteration(0) ┌──────────────┐ iterationFailed: finish(.failed); it goes on   ┌──────────┐
///   │  idle  │──────────────────▶│ iterating(i) │ but i + 1 is the limit: finish(.limitReached)  │ finished │
///   └────────┘                   └──────────────┘───────────────────────────────────────────────▶└──────────┘
///                                 ▲   │   ▲   │ iterationFinished, it goes on                         ▲
///                                 │   │   └───┘ and the pacing waits 0: startIteration(i + 1)         │
///                     timerFired: │   │ iterationFinished, it goes on: sleep(for: the pacing's wait)  │
///           startIteration(i + 1) │   ▼                                                               │
///                              ┌──────────────────┐  cancelled: finish(.cancelled)                    │
///                              │ waiting(i + 1)   │───────────────────────────────────────────────────┘
///                              └──────────────────┘
/// ```
///
/// Between two iterations the machine waits as the loop's ``LoopPacing`` says after iteration `i` (no sleep when
/// that is zero). A loop that would go on past its limit does not start another iteration: it finishes with
/// ``Outcome/limitReached(iterations:)``, the `loop-limit` error.
///
/// An event the current state cannot take — an iteration finishing while the machine waits, an index other
/// than the running iteration's, a second `started`, any event after `finished` — is a precondition failure, as
/// in the other machines: it is a bug in the driver.
struct LoopStateMachine {
    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Run iteration `index` (0 for the first), for a page after the first with `page`, and report it with
        /// ``LoopEvent/iterationFinished(index:goesOn:nextPage:)`` or ``LoopEvent/iterationFailed(index:)``.
        case startIteration(index: Int, page: PageRequest?)
        /// Wait `delay` on the clock, then report ``LoopEvent/timerFired``, or ``LoopEvent/cancelled`` when the
        /// wait is cancelled.
        case sleep(for: Duration)
        /// The loop is over, with this outcome.
        case finish(Outcome)
    }

    /// How a loop ended.
    enum Outcome: Equatable, Sendable, Codable {
        /// Iteration `iterations - 1` ended the loop: the step succeeds with what its iterations gave.
        case completed(iterations: Int)
        /// Iteration `index` failed, and so does the step, with its error.
        case failed(index: Int)
        /// The loop would go on after `iterations` iterations, its `maxIterations` or `maxPages`: the step fails
        /// with `loop-limit`.
        case limitReached(iterations: Int)
        /// The run was cancelled while the step waited to start iteration `index`.
        case cancelled(waitingFor: Int)
    }

    /// Where the loop is.
    enum State: Equatable, Sendable, Codable {
        /// No iteration has started.
        case idle
        /// Iteration `index` is running.
        case iterating(index: Int)
        /// Iteration `index` starts, with `page`, when the wait is over.
        case waiting(index: Int, page: PageRequest?)
        /// The outcome is known.
        case finished
    }

    /// Where the loop is now.
    private(set) var state = State.idle
    /// The most iterations the loop runs: its `maxIterations` or `maxPages`, at least 1.
    let maxIterations: Int
    /// How long the loop waits between two iterations.
    let pacing: LoopPacing

    /// The iterations of a loop that runs at most `maxIterations` times, waiting as `pacing` says between two.
    /// - Parameters:
    ///   - maxIterations: The step's `maxIterations` or `maxPages`; a value below 1 is taken as 1.
    ///   - pacing: The step's delays between iterations.
    init(maxIterations: Int, pacing: LoopPacing) {
        self.maxIterations = max(1, maxIterations)
        self.pacing = pacing
    }

    // MARK: Events

    /// Takes in `event`: the one entry point a driver (or a replay of recorded events) needs.
    /// - Parameter event: What happened.
    /// - Returns: What the driver does next.
    mutating func apply(_ event: LoopEvent) -> Action {
        switch (state, event) {
        case (.idle, .started):
            state = .iterating(index: 0)
            return .startIteration(index: 0, page: nil)
        case (.iterating(let current), .iterationFinished(let index, let goesOn, let page)):
            precondition(index == current, "iteration \(index) finished while iteration \(current) was running")
            guard goesOn else { return finish(.completed(iterations: index + 1)) }
            guard index + 1 < maxIterations else { return finish(.limitReached(iterations: index + 1)) }
            let wait = pacing.wait(after: index)
            guard wait > .zero else {
                state = .iterating(index: index + 1)
                return .startIteration(index: index + 1, page: page)
            }
            state = .waiting(index: index + 1, page: page)
            return .sleep(for: wait)
        case (.iterating(let current), .iterationFailed(let index)):
            precondition(index == current, "iteration \(index) failed while iteration \(current) was running")
            return finish(.failed(index: index))
        case (.waiting(let index, let page), .timerFired):
            state = .iterating(index: index)
            return .startIteration(index: index, page: page)
        case (.waiting(let index, _), .cancelled):
            return finish(.cancelled(waitingFor: index))
        default:
            preconditionFailure("the loop took \(event) while \(state)")
        }
    }

    /// The loop ends with `outcome`.
    private mutating func finish(_ outcome: Outcome) -> Action {
        state = .finished
        return .finish(outcome)
    }
}
