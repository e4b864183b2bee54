/// What happened in a run: every step, every attempt, with secrets redacted.
public struct RunReport: Sendable {
    /// How a run ended.
    public enum Outcome: Sendable {
        /// Every step succeeded or was handled by a `catch` rule.
        case succeeded
        /// The run failed with this error.
        case failed(FlowError)
    }

    /// The run's id: a random UUID, unique to the run, in its logs (`run` metadata) and trace (`flowrun.run.id`).
    public var runID: String = ""
    /// The workflow's name, or its path.
    public var workflow: String
    /// How the run ended.
    public var outcome: Outcome
    /// The workflow outputs (empty when the run failed).
    public var outputs: [String: JSONValue]
    /// The steps in the order they finished.
    public var steps: [StepReport]
    /// How long the run took.
    public var duration: Duration
    /// The redactor that redacted this report, knowing every secret of the run (inputs marked
    /// `format: password`, `secret: true` environment variables, credentials interceptors sent). Pass
    /// anything else you print about the run through it, such as the requests a dispatcher recorded.
    public var redactor = SecretRedactor()

    /// Whether the run succeeded.
    public var succeeded: Bool {
        if case .succeeded = outcome { return true }
        return false
    }

    /// The error the run failed with, if it failed.
    public var error: FlowError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }
}

/// One attempt of a step.
public struct AttemptReport: Sendable, Codable {
    /// The one-based attempt number (of the item, in a `forEach` step).
    public var number: Int
    /// In a `forEach` step: the zero-based index of the item the attempt was for.
    public var item: Int?
    /// In a `repeat` or `paginate` step: the zero-based index of the iteration (page) the attempt was for.
    public var iteration: Int?
    /// The method of the request.
    public var method: String
    /// The URL the request went to, with the query parameters interceptors added; secrets redacted.
    public var url: String
    /// The redirects followed from ``url``, in order, each with its status and the (redacted) URL it led to;
    /// ``status`` is then the last hop's.
    public var redirects: [StepResponse.Redirect] = []
    /// The response status, when a response arrived.
    public var status: Int?
    /// When the attempt started, relative to the start of the run.
    public var startedAfter: Duration
    /// How long the attempt took.
    public var duration: Duration
    /// The error, when the attempt failed.
    public var error: FlowError?
    /// The delay before the next attempt, when one followed.
    public var retryDelay: Duration?
    /// Why no attempt followed this failed one, when none did: the retry rules' or the retry budget's reason,
    /// such as "POST is not idempotent; set 'idempotencyKey: true' or 'idempotent: true'".
    public var retryRefused: String?
    /// How the response differs from what the OpenAPI document of an Arazzo step's operation describes, when the
    /// run only warns about it (``ResponseConformance/warn``): one line each.
    public var warnings: [String] = []
    /// When the first response of the attempt asked for new credentials: that response's status and the
    /// refresh it led to. The attempt's ``status`` is then the replay's.
    public var refresh: RefreshExchange?
}

/// A response that a refresh interceptor answered by refreshing the credentials and replaying the request.
public struct RefreshExchange: Sendable, Equatable, Codable {
    /// The status that asked for new credentials (401 unless the interceptor lists others).
    public var status: Int
    /// The id of the on-demand step that refreshes the credentials.
    public var refreshStep: String
    /// Whether this request ran the refresh step; `false` when it shared a refresh that another step's
    /// request started (or that had already completed since this request was sent).
    public var ranRefresh: Bool
}
