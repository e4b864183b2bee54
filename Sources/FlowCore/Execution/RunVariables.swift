import Synchronization

/// The workflow's `vars` during one run: read by every step, updated by `set`.
///
/// Steps run concurrently and a refresh may update a token while other steps
/// read it, so this is the one piece of per-run state shared across tasks,
/// behind a `Mutex`.
final class RunVariables: Sendable {
    private let values: Mutex<[String: JSONValue]>

    init(_ initial: [String: JSONValue]) {
        values = Mutex(initial)
    }

    subscript(name: String) -> JSONValue? {
        values.withLock { $0[name] }
    }

    func set(_ name: String, _ value: JSONValue) {
        values.withLock { $0[name] = value }
    }

    var snapshot: [String: JSONValue] {
        values.withLock { $0 }
    }

    /// Sets every var at once: a state machine's copy takes the vars an event carries.
    func replace(with all: [String: JSONValue]) {
        values.withLock { $0 = all }
    }
}
