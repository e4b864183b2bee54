/// What the built-in interceptor kinds take from the engine beyond what a program's interceptors see: the
/// run's refresh coordination and the wall clock. It reaches them in ``InterceptorSetup``, so that the
/// built-ins are made through the same ``InterceptorRegistry`` as a program's own.
struct BuiltInInterceptorSupport: Sendable {
    /// Makes concurrent refreshes of the run share one call of the refresh step; the run has one whenever its
    /// plan has a refresh interceptor (``Plan/runsRefreshSteps``), and none otherwise.
    let coordinator: RefreshCoordinator?
    /// Whether the chain being built is the replay after a refresh, which is not refreshed again.
    let isReplay: Bool
    /// Whether the step runs as a refresh step, whose own refresh interceptors are left out.
    let asRefresh: Bool
    /// Runs the on-demand step with the given id as the refresh step of the step being run.
    let runRefreshStep: @Sendable (_ stepID: String) async throws -> Void
    /// The wall-clock time in Unix seconds, for signature timestamps.
    let unixTime: @Sendable () -> Int64
}
