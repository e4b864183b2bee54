/// Something that happened to a `repeat` or `paginate` step's iterations, from its ``LoopStateMachine``'s point
/// of view: the only way anything the machine decides on reaches it.
///
/// Whether an iteration's response ends the loop is worked out by the driver (the `until` or `while` condition
/// of a `repeat` step, the next page of a `paginate` step from the response and its URL) and arrives here as a
/// value, with the next page when there is one; so the events of a step, encoded and decoded again, lead a new
/// machine with the same limit and pacing to the same actions, pages included.
enum LoopEvent: Sendable, Codable {
    /// The step starts its first iteration.
    case started
    /// Iteration `index` (0 for the first) succeeded.
    /// - Parameters:
    ///   - index: The iteration's index.
    ///   - goesOn: Whether the loop goes on after it: a `repeat` step's condition did not end it, or a `paginate`
    ///     step's response names a next page.
    ///   - nextPage: For a `paginate` step that goes on, how the next page's request differs from the step's.
    case iterationFinished(index: Int, goesOn: Bool, nextPage: PageRequest?)
    /// Iteration `index` failed, or its next page could not be worked out: the driver has the error.
    case iterationFailed(index: Int)
    /// The wait that ``LoopStateMachine/Action/sleep(for:)`` asked for is over.
    case timerFired
    /// The wait before the next iteration was cancelled: the run was cancelled while the step waited.
    case cancelled
}
