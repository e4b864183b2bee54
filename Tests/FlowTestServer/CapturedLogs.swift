package import Logging
import Synchronization

/// Every log entry of the loggers made with ``handler()``, for assertions.
package final class CapturedLogs: Sendable {
    package struct Entry: Sendable {
        package var level: Logger.Level
        package var message: String
        package var metadata: [String: String]

        package var text: String { "\(message) \(metadata.sorted { $0.key < $1.key })" }
    }

    /// A log handler that appends to this store; like any handler, its metadata is a value.
    package struct Handler: LogHandler {
        let store: CapturedLogs
        package var metadata: Logger.Metadata = [:]
        package var logLevel: Logger.Level = .trace

        package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        package func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            store.append(Entry(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }

    private let list = Mutex<[Entry]>([])

    package var entries: [Entry] { list.withLock { $0 } }

    package init() {}

    /// A handler for `Logger(label:factory:)` that appends to this store.
    package func handler() -> Handler { Handler(store: self) }

    private func append(_ entry: Entry) {
        list.withLock { $0.append(entry) }
    }
}
