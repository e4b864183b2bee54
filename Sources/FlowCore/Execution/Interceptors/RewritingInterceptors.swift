/// An interceptor that only rewrites the request on its way out, such as `wrap` and `encrypt`.
protocol RequestRewritingInterceptor: Interceptor {
    /// The request to send instead of `request`.
    func rewrite(_ request: StepRequest, context: StepContext) async throws -> StepRequest
}

extension RequestRewritingInterceptor {
    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        try await next(try await rewrite(request, context: context), context)
    }
}

/// An interceptor that only rewrites the response on its way back, such as `unwrap` and `decrypt`.
protocol ResponseRewritingInterceptor: Interceptor {
    /// The response to hand back instead of `response`.
    func rewrite(_ response: StepResponse, context: StepContext) async throws -> StepResponse
}

extension ResponseRewritingInterceptor {
    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        try await rewrite(try await next(request, context), context: context)
    }
}
