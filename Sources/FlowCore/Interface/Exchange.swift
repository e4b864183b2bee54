/// One request a dispatcher sent and the response it got, or the error that left it without one: what
/// `flowrun run -v` prints and `flowrun run --har-out` records, as an ``ExchangeObserver`` hears of it.
///
/// An attempt of a step has one exchange, or more: a refresh interceptor that replays the request with new
/// credentials makes two (the `401` and the replay), and a dispatcher that follows redirects makes one per
/// hop (``redirect`` counts them). The request is the one the dispatcher received, after every interceptor:
/// with the credentials, signatures and encrypted body that went out.
///
/// The values are as sent and received, **secrets in clear**. Show or store only ``redacted()``.
public struct Exchange: Sendable {
    /// The id of the step that sent the request.
    public var stepID: String
    /// The one-based attempt number; a replay after a refresh belongs to the attempt it replays.
    public var attempt: Int
    /// The zero-based index of the `forEach` item the attempt was for, if any.
    public var item: Int?
    /// The zero-based index of the `repeat` iteration or `paginate` page the attempt was for, if any.
    public var iteration: Int?
    /// `0` for the request the dispatcher was given; `1`, `2`, … for each redirect it followed.
    public var redirect: Int
    /// The request as it went out.
    public var request: StepRequest
    /// The response, or `nil` when none arrived (see ``error``).
    public var response: StepResponse?
    /// Why no response arrived: a refused connection, a timeout, a body over the size limit, a cancellation.
    public var error: FlowError?
    /// The protocol version of the exchange, `HTTP/1.1` or `HTTP/2.0`; `nil` when the dispatcher does not say
    /// (a mock answers in-process).
    public var httpVersion: String?
    /// When the request started and how long the exchange took.
    public var timing: ExchangeTiming
    /// The run's redactor, which ``redacted()`` uses: it knows every secret the run has met so far, so the
    /// later an exchange is redacted, the more it hides.
    public var redactor: SecretRedactor

    /// Creates an exchange.
    /// - Parameters:
    ///   - stepID: The step's id.
    ///   - attempt: The one-based attempt number.
    ///   - item: The `forEach` item's index.
    ///   - iteration: The `repeat` iteration's or `paginate` page's index.
    ///   - redirect: `0`, or the number of the redirect this request followed.
    ///   - request: The request as sent.
    ///   - response: The response, or `nil`.
    ///   - error: Why no response arrived.
    ///   - httpVersion: The protocol version.
    ///   - timing: The start and duration.
    ///   - redactor: The run's redactor.
    public init(
        stepID: String, attempt: Int, item: Int? = nil, iteration: Int? = nil, redirect: Int = 0,
        request: StepRequest, response: StepResponse?, error: FlowError? = nil, httpVersion: String? = nil,
        timing: ExchangeTiming, redactor: SecretRedactor
    ) {
        self.stepID = stepID
        self.attempt = attempt
        self.item = item
        self.iteration = iteration
        self.redirect = redirect
        self.request = request
        self.response = response
        self.error = error
        self.httpVersion = httpVersion
        self.timing = timing
        self.redactor = redactor
    }
}
