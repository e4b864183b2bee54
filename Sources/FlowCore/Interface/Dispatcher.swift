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

    /// Whether the dispatcher ends a request at ``StepContext/deadline`` by itself, response body included,
    /// throwing that deadline's ``AttemptDeadline/error``; `false` unless the dispatcher says so.
    ///
    /// An attempt with a time limit then costs no task and no timer of the engine's: the engine hands the
    /// limit over as `context.deadline` instead of running the attempt in a child task that a timer cancels.
    /// It does so only on the continuous clock (a test's virtual clock is the engine's to keep) and for a
    /// step whose interceptors cannot wait on anything but the dispatcher (no refresh, no `use:` interceptor).
    /// FlowHTTP's `AsyncHTTPClientDispatcher` says `true`.
    var enforcesTimeLimits: Bool { get }
}

extension Dispatcher {
    /// `false`: the engine enforces the attempt's time limit around the call.
    public var enforcesTimeLimits: Bool { false }
}
