import NIOCore
import Synchronization

/// The calls a ``MockServer`` answered from its stubs, the most recent ``capacity`` of them, for
/// `GET /__flowrun/calls`.
///
/// Bounded, so a server left running under load (a benchmark, a day of app development) does not grow without
/// limit; the oldest calls go first.
final class ServedCallRecord: Sendable {
    /// The most calls kept.
    let capacity: Int
    private let calls: Mutex<CircularBuffer<ServedCall>>

    /// Creates an empty record.
    /// - Parameter capacity: The most calls kept.
    init(capacity: Int) {
        self.capacity = capacity
        calls = Mutex(CircularBuffer(initialCapacity: 64))
    }

    /// Adds a call, forgetting the oldest when the record is full.
    func append(_ call: ServedCall) {
        calls.withLock { calls in
            if calls.count == capacity { calls.removeFirst() }
            calls.append(call)
        }
    }

    /// The calls kept, oldest first.
    var all: [ServedCall] {
        calls.withLock { Array($0) }
    }

    /// Forgets every call.
    func removeAll() {
        calls.withLock { $0.removeAll() }
    }
}
