extension StepContext {
    /// Tells ``exchangeObserver``, if any, of one request this context's dispatcher sent and what came of it,
    /// as an ``Exchange`` of this context's step, attempt, item and iteration.
    ///
    /// ```swift
    /// var stopwatch = context.exchangeObserver == nil ? nil : ExchangeStopwatch()
    /// let response = try await send(request)
    /// if let stopwatch { context.reportExchange(request, response: response, timing: stopwatch.stop()) }
    /// ```
    /// - Parameters:
    ///   - request: The request as sent.
    ///   - response: The response, or `nil` when none arrived.
    ///   - error: Why none arrived.
    ///   - redirect: `0` for the request the dispatcher was given, else the number of the redirect it followed.
    ///   - httpVersion: The protocol version, `HTTP/1.1`; `nil` for a dispatcher that does not speak HTTP.
    ///   - timing: When the request started and how long it took (``ExchangeStopwatch``).
    public func reportExchange(
        _ request: StepRequest, response: StepResponse?, error: FlowError? = nil, redirect: Int = 0,
        httpVersion: String? = nil, timing: ExchangeTiming
    ) {
        guard let exchangeObserver else { return }
        exchangeObserver.exchangeFinished(
            Exchange(
                stepID: stepID, attempt: attempt, item: item, iteration: iteration, redirect: redirect,
                request: request, response: response, error: error, httpVersion: httpVersion, timing: timing,
                redactor: redactor))
    }
}
