public import Logging

/// What a dispatcher or interceptor knows about the call it takes part in.
public struct StepContext: Sendable {
    /// The id of the step being run.
    public var stepID: String
    /// The one-based attempt number.
    public var attempt: Int
    /// The time limit of this attempt, if the step's policy sets one.
    public var attemptTimeout: Duration?
    /// Whether the caller cancels the attempt's task when ``attemptTimeout`` passes.
    ///
    /// The engine does, around a step's whole chain of interceptors and dispatcher, and sets this.
    /// A dispatcher may then rely on that cancellation instead of timers of its own, and use
    /// ``attemptTimeout`` only to configure its transport. It is `false` unless set, so a dispatcher
    /// called directly still enforces the limit itself.
    public var callerEnforcesAttemptTimeout = false
    /// The logger of the run, with the step and attempt as metadata.
    public var logger: Logger

    /// Creates a context.
    /// - Parameters:
    ///   - stepID: The step's id.
    ///   - attempt: The one-based attempt number.
    ///   - attemptTimeout: The time limit of the attempt.
    ///   - logger: The logger to use.
    public init(stepID: String, attempt: Int, attemptTimeout: Duration? = nil, logger: Logger) {
        self.stepID = stepID
        self.attempt = attempt
        self.attemptTimeout = attemptTimeout
        self.logger = logger
    }
}
