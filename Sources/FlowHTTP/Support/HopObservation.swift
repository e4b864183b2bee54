import FlowCore
import NIOHTTP1

/// What the dispatcher learns about one hop for the run's exchange observer: its timing and HTTP version.
///
/// Made only when ``StepContext/exchangeObserver`` is set, so an unobserved run times nothing.
struct HopObservation {
    private var stopwatch = ExchangeStopwatch()
    private var httpVersion: String?

    /// Notes that the response's head arrived at `instant`, over `version`.
    mutating func headArrived(at instant: ContinuousClock.Instant, version: HTTPVersion) {
        stopwatch.responseHeadArrived(at: instant)
        httpVersion = "HTTP/\(version.major).\(version.minor)"
    }

    /// Reports the hop: `request`, the `redirect`-th one followed, and its response or error.
    func report(
        _ request: StepRequest, redirect: Int, outcome: Result<StepResponse, any Error>, context: StepContext
    ) {
        let response = try? outcome.get()
        var failure: FlowError?
        if case .failure(let error) = outcome {
            failure = error as? FlowError ?? FlowError(.transport, "\(error)", underlyingError: error)
        }
        context.reportExchange(
            request, response: response, error: failure, redirect: redirect, httpVersion: httpVersion,
            timing: stopwatch.stop())
    }
}
