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
    /// When the request must be answered, set by the engine for a dispatcher that ends requests at a deadline
    /// itself (``Dispatcher/enforcesTimeLimits``); `nil` otherwise, and then the engine enforces the limit.
    public var deadline: AttemptDeadline?
    /// The logger of the run, with the step and attempt as metadata.
    ///
    /// In the context the engine makes, the metadata is added when the logger is read, so an attempt whose
    /// dispatcher and interceptors never log pays nothing for it: read it once into a local to log more than
    /// once. A logger set here, or given to ``init(stepID:attempt:attemptTimeout:logger:)``, is used as it is.
    public var logger: Logger {
        get {
            if let explicitLogger { return explicitLogger }
            // Without an explicit logger, the engine made the context, with the run's logger.
            var logger = runLogger!.logger
            logger[metadataKey: "step"] = .string(stepID)
            logger[metadataKey: "attempt"] = .string(String(attempt))
            return logger
        }
        set { explicitLogger = newValue }
    }
    /// The run's logger, which ``logger`` adds the step and attempt to; `nil` in a context created with a logger
    /// of its own, its explicit one.
    private var runLogger: RunLogger?
    /// The logger someone set, used as it is.
    private var explicitLogger: Logger?
    /// The run's secrets: pass every URL, header value and body through it before it reaches a log line,
    /// a message or an error. The engine sets the run's redactor; a context created directly has one
    /// that knows no secret yet and redacts only credential-shaped URL parts.
    public var redactor: SecretRedactor
    /// The header fields of the request before the step's interceptors ran; the engine sets them.
    public var headersBeforeInterceptors: HeaderFields?
    /// The zero-based index of the `forEach` item this attempt is for, if any; the engine sets it.
    public var item: Int?
    /// The zero-based index of the `repeat` iteration or `paginate` page this attempt is for, if any; the engine
    /// sets it.
    public var iteration: Int?
    /// Who hears of every request sent and response received (``Engine/exchangeObserver``), or `nil`, the
    /// default, when nobody does.
    ///
    /// A dispatcher that sends more than one request per call, one per redirect it follows, reports each
    /// with ``reportExchange(_:response:error:redirect:httpVersion:timing:)``; the engine then reports none
    /// for the call. A dispatcher that reports nothing needs to do nothing: the engine reports the call as one
    /// exchange. Check for `nil` before timing anything, so a run that nobody observes pays nothing.
    public var exchangeObserver: (any ExchangeObserver)?

    /// The names of the header fields of `request` that the step's interceptors added or changed:
    /// credentials, signatures, custom auth headers. A dispatcher that follows a redirect to another origin
    /// (another scheme, host or port) must not send them there. Empty when the engine did not say.
    ///
    /// Worked out when asked, so a request that is not redirected pays nothing for it.
    /// - Parameter request: The request as the dispatcher received it.
    public func interceptorHeaderNames(in request: StepRequest) -> [String] {
        headersBeforeInterceptors.map { request.headers.namesAddedOrChanged(since: $0) } ?? []
    }

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
        self.explicitLogger = logger
        self.redactor = SecretRedactor()
    }

    /// Creates a context with the run's redactor and logger, to which ``logger`` adds the step and attempt: what
    /// the engine makes for each attempt.
    init(stepID: String, attempt: Int, attemptTimeout: Duration?, logger: Logger, redactor: SecretRedactor) {
        self.init(
            stepID: stepID, attempt: attempt, attemptTimeout: attemptTimeout, logger: RunLogger(logger),
            redactor: redactor)
    }

    /// Creates a context with the run's redactor and its logger in the box its contexts share: what the engine
    /// makes for each attempt.
    init(stepID: String, attempt: Int, attemptTimeout: Duration?, logger: RunLogger, redactor: SecretRedactor) {
        self.stepID = stepID
        self.attempt = attempt
        self.attemptTimeout = attemptTimeout
        self.runLogger = logger
        self.redactor = redactor
    }
}
