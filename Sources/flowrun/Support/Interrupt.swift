import Dispatch
import Foundation

/// Runs an operation that Ctrl-C (SIGINT), SIGTERM or SIGHUP cancels instead of killing the process.
///
/// Cancelling lets the engine stop in-flight requests and still return its report, so the user sees which
/// steps ran before the interruption. The command then exits with the shell's code for the signal,
/// 128 + its number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP (a closed terminal).
enum Interrupt {
    /// The signals that cancel the operation.
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Runs `operation`; on SIGINT, SIGTERM or SIGHUP its task is cancelled.
    /// - Returns: The operation's result and the first signal that arrived, if any.
    static func cancelling<T: Sendable>(
        _ operation: @escaping @Sendable () async -> T
    ) async -> (result: T, signal: Int32?) {
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
        return await withTaskGroup(of: (T?, Int32?).self) { group in
            group.addTask { (await operation(), nil) }
            group.addTask {
                for await number in stream { return (nil, number) }
                return (nil, nil)
            }
            var received: Int32?
            while let (value, signalled) = await group.next() {
                if let signalled {
                    received = signalled
                    group.cancelAll()  // Cancels the operation; it still returns its (partial) result.
                } else if let value {
                    continuation.finish()
                    return (value, received)
                }
            }
            fatalError("the operation task always returns a value")
        }
    }

    /// The exit status for a run that `signal` ended: 128 + its number, the shell's convention.
    static func exitCode(for signal: Int32) -> Int32 { 128 + signal }
}
