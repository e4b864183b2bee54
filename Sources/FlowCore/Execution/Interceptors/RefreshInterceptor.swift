import Logging
import Synchronization

/// On a status that means "credentials expired", runs the on-demand refresh step once and asks for a replay.
///
/// The replay re-runs the whole interceptor chain, so an `auth` interceptor
/// listed before this one sends the refreshed token. A replayed request is not
/// refreshed again: a second 401 is the step's answer.
struct RefreshInterceptor: Interceptor {
    let statuses: [Int]
    let coordinator: RefreshCoordinator
    /// Whether this chain is already the replay.
    let isReplay: Bool
    /// The id of the on-demand step that refreshes the credentials, for the report.
    let refreshStep: String
    /// Runs the refresh step, updating the run's vars.
    let refresh: @Sendable () async throws -> Void

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        let generation = coordinator.generation
        let response = try await next(request, context)
        guard !isReplay, statuses.contains(response.status) else { return response }
        context.logger.debug(
            "refreshing credentials after status \(response.status)", metadata: ["refresh-step": "\(refreshStep)"])
        var exchange = RefreshExchange(status: response.status, refreshStep: refreshStep, ranRefresh: false)
        do {
            exchange.ranRefresh = try await coordinator.refresh(after: generation, perform: refresh)
        } catch let failure as RefreshCoordinator.Failure {
            exchange.ranRefresh = failure.performed
            throw RefreshFailed(exchange: exchange, error: failure.error)
        }
        throw ReplayRequest(exchange: exchange)
    }
}

/// Thrown by ``RefreshInterceptor`` to make the step runner send the request again through the whole chain.
struct ReplayRequest: Error {
    /// The response that asked for new credentials, and the refresh it led to.
    let exchange: RefreshExchange
}

/// Thrown by ``RefreshInterceptor`` when the refresh step failed: the attempt fails with `error`, and its
/// report still shows the response that asked for the refresh.
struct RefreshFailed: Error {
    let exchange: RefreshExchange
    let error: any Error
}

/// Makes concurrent refreshes of one run share a single call of the refresh step (single-flight).
///
/// Each caller says which generation of credentials its request was sent
/// with. When a newer generation exists the caller only replays; when a
/// refresh is under way it waits for it; otherwise it performs the refresh.
actor RefreshCoordinator {
    /// Counts completed refreshes. Atomic, so every request reads it without a hop to the actor;
    /// only the actor changes it.
    private let completedRefreshes = Atomic<Int>(0)
    private var waiters: [CheckedContinuation<Void, any Error>]?

    /// The generation of the credentials: how many refreshes have completed.
    nonisolated var generation: Int { completedRefreshes.load(ordering: .acquiring) }

    /// Makes sure credentials newer than generation `seen` exist: performs the refresh, waits for the one
    /// under way, or does nothing when a newer generation already exists.
    /// - Returns: Whether this call performed the refresh (rather than sharing another's).
    /// - Throws: ``Failure`` with the refresh's error when the refresh this call performed or waited for failed.
    @discardableResult
    func refresh(after seen: Int, perform: @Sendable () async throws -> Void) async throws -> Bool {
        if generation > seen { return false }
        if waiters != nil {
            try await withCheckedThrowingContinuation { waiters!.append($0) }
            return false
        }
        waiters = []
        do {
            try await perform()
            completedRefreshes.add(1, ordering: .releasing)
            let waiting = waiters ?? []
            waiters = nil
            for waiter in waiting { waiter.resume() }
            return true
        } catch {
            let waiting = waiters ?? []
            waiters = nil
            for waiter in waiting { waiter.resume(throwing: Failure(error: error, performed: false)) }
            throw Failure(error: error, performed: true)
        }
    }

    /// A failed refresh, as each caller that performed it or waited for it sees it.
    struct Failure: Error {
        let error: any Error
        /// Whether this caller performed the refresh, rather than waiting for another's.
        let performed: Bool
    }
}
