/// A type that performs a step's request against a real or simulated API.
///
/// flowrun ships two: `AsyncHTTPClientDispatcher` (module FlowHTTP), registered
/// as `http`, and `MockDispatcher` (module FlowTesting), registered as `mock`.
/// An embedding program registers its own under a name of its choice; a step
/// selects one with `dispatcher:`, and the CLI's `--dispatcher` selects one for
/// the whole run.
///
/// ```swift
/// struct EchoDispatcher: Dispatcher {
///     func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
///         StepResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"ok":true}"#.utf8))
///     }
/// }
/// ```
///
/// ## Choose between throwing and returning an error status
///
/// Return a response for every answer the server gave, whatever its status;
/// the engine matches statuses against the step's declared responses and
/// policies. Throw only when there is no answer: a refused connection, a
/// timeout, a body over the size limit. Throw a ``FlowError`` with code
/// ``FlowError/Code/transport`` (or a custom `x-` code) so `catch` rules can
/// match it; other errors are wrapped as `transport`.
public protocol Dispatcher: Sendable {
    /// Performs one request.
    /// - Parameters:
    ///   - request: The request, with an absolute URL.
    ///   - context: The step and attempt it belongs to.
    /// - Returns: The response, whatever its status.
    /// - Throws: When no response could be obtained.
    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse
}
