import Dispatch
import Foundation

/// Runs an operation that Ctrl-C (SIGINT) or SIGTERM cancels instead of killing the process.
///
/// Cancelling lets the engine stop in-flight requests and still return its
/// report, so the user sees which steps ran before the interruption.
enum Interrupt {
    /// Runs `operation`; on SIGINT or SIGTERM its task is cancelled and `interrupted` is set.
    /// - Returns: The operation's result and whether a signal arrived.
    static func cancelling<T: Sendable>(
        _ operation: @escaping @Sendable () async -> T
    ) async -> (result: T, interrupted: Bool) {
        let signals = [SIGINT, SIGTERM]
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = signals.map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        defer {
            sources.forEach { $0.cancel() }
            signals.forEach { signal($0, SIG_DFL) }
        }
        return await withTaskGroup(of: (T?, Bool).self) { group in
            group.addTask { (await operation(), false) }
            group.addTask {
                for await _ in stream { return (nil, true) }
                return (nil, false)
            }
            var interrupted = false
            while let (value, signalled) = await group.next() {
                if signalled {
                    interrupted = true
                    group.cancelAll()  // Cancels the operation; it still returns its (partial) result.
                } else if let value {
                    continuation.finish()
                    return (value, interrupted)
                }
            }
            fatalError("the operation task always returns a value")
        }
    }
}
