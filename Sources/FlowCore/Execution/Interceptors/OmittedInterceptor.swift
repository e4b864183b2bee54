/// What a built-in factory makes when its interceptor has nothing to do on this chain (a refresh
/// interceptor on the refresh step's own request): the chain leaves it out.
struct OmittedInterceptor: Interceptor {
    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        try await next(request, context)
    }
}
