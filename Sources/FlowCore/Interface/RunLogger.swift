import Logging

/// A run's logger, held by reference: what the engine's step contexts share.
///
/// A `Logger` is a log handler existential and a label; a context made for every attempt copied it, and every
/// copy of the context copied it again, each through the existential's value witnesses. The run makes one of
/// these and its contexts hold a reference to it.
final class RunLogger: Sendable {
    let logger: Logger

    init(_ logger: Logger) {
        self.logger = logger
    }
}
