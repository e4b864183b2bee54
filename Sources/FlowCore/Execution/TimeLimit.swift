/// Runs `operation`, or returns `onTimeout()` when `limit` passes first on `clock`; the loser is cancelled.
///
/// The clock is the engine's injected clock, so on a virtual clock a timeout
/// fires when the test advances time, not after real seconds.
func withTimeLimit<C: Clock, T: Sendable>(
    _ limit: Duration,
    clock: C,
    operation: @escaping @Sendable () async -> T,
    onTimeout: @escaping @Sendable () -> T
) async -> T where C.Duration == Duration {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            do {
                try await clock.sleep(for: limit)
            } catch {
                return nil  // Cancelled because the operation finished first.
            }
            return onTimeout()
        }
        // The first task to finish decides; a cancelled sleeper returns nil and is skipped.
        while let next = await group.next() {
            if let value = next {
                group.cancelAll()
                return value
            }
        }
        return onTimeout()
    }
}
