import Synchronization

/// Something that happened to a run, from its state machine's point of view: the only way anything the machine
/// decides on reaches it.
///
/// A ``RunStateMachine`` is a pure function of its plan, the run's inputs and environment, and the events it
/// was given: every value that comes from outside — a step's, handler's or compensation's result, the vars as
/// steps left them, whether the run's task was cancelled, the deadline, and every random value the driver drew
/// for a step (the seed of its `Idempotency-Key`) — arrives in an event. So the events of a run, recorded in
/// order and decoded again, bring a new machine to the same state, with the same actions on the way: the base
/// of a run journal that resumes a run after a crash and sends a step's retried request with the key it sent
/// before.
///
/// Events carry the run's values as they are, secrets included (a resumed run needs the token it had): a store
/// of them must be protected as the secrets themselves are. Reports, logs and spans stay redacted.
enum RunEvent: Sendable, Codable {
    /// The run begins, with this id and these vars.
    case started(runID: String, vars: [String: JSONValue])
    /// The driver started step `id` (for the machine's `startStep` or `startSwitchCase` action) with `seed`,
    /// from which the step's `Idempotency-Key`s are drawn; only a step that sends one has this event.
    case stepStarted(id: String, seed: UInt64)
    /// A step finished; `vars` are the run's vars when its result was taken in.
    case stepFinished(StepResult, runCancelled: Bool, vars: [String: JSONValue])
    /// A `run:` rule's handler finished.
    case handlerFinished(StepResult, vars: [String: JSONValue])
    /// The run's deadline passed.
    case deadlinePassed(Duration)
    /// The steps running when the machine asked to cancel them have all reported.
    case drained
    /// The compensation the machine asked for with ``RunStateMachine/Action/runCompensation(stepID:outputs:)``
    /// finished. It carries no vars: once the run has failed, nothing the machine decides reads them.
    case compensationFinished(StepResult)
}

/// Where a run's events go as they happen, in order: a journal.
///
/// Class-bound, as a store of events is an object: the run holds its journal as one reference, which its driver
/// reads at every event, rather than as an existential value copied through its value witnesses each time.
protocol RunJournal: AnyObject, Sendable {
    /// Records `event`, the next of the run.
    func record(_ event: RunEvent)
}

/// A journal in memory, for tests and for a run that is replayed in the same process.
final class RunEventLog: RunJournal {
    private let events = Mutex<[RunEvent]>([])

    func record(_ event: RunEvent) {
        events.withLock { $0.append(event) }
    }

    /// The events recorded so far, oldest first.
    var recorded: [RunEvent] { events.withLock { $0 } }
}
