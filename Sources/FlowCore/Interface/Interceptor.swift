/// A type that inspects or rewrites a step's request and response.
///
/// Interceptors wrap the dispatcher in the order a step lists them: the first
/// listed runs first on the way out and last on the way back, as middleware
/// does in swift-openapi-runtime and Hummingbird. Built-in kinds (headers,
/// bearer, basic, apiKey, query, refresh, sign, unwrap, wrap, encrypt,
/// decrypt) are declared in YAML with their own keys; a Swift program
/// registers its own in the same ``InterceptorRegistry``, whose factories
/// get an ``InterceptorSetup`` (arguments, vars, secrets), and a workflow
/// uses them with `use: <name>` and `with: { … }` arguments.
///
/// ```swift
/// struct TraceHeader: Interceptor {
///     func intercept(
///         _ request: StepRequest, context: StepContext,
///         next: (StepRequest, StepContext) async throws -> StepResponse
///     ) async throws -> StepResponse {
///         var request = request
///         request.headers.set("X-Trace", "\(context.stepID)-\(context.attempt)")
///         return try await next(request, context)
///     }
/// }
/// ```
///
/// ## Choose between an interceptor and a dispatcher
///
/// Use an interceptor to change what is sent or received around any
/// transport; use a ``Dispatcher`` to change how a request is performed.
public protocol Interceptor: Sendable {
    /// Handles one call: rewrite the request, call `next`, inspect or rewrite the response.
    /// - Parameters:
    ///   - request: The request as the interceptors before this one left it.
    ///   - context: The step and attempt.
    ///   - next: The rest of the chain, ending in the dispatcher.
    /// - Returns: The response, possibly rewritten.
    /// - Throws: To fail the attempt; throw a ``FlowError`` to choose its code.
    func intercept(
        _ request: StepRequest,
        context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse
}
