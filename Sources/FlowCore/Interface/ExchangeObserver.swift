/// A type that hears of every request a run sends and of the response it gets: `flowrun run -v` prints them,
/// `--har-out` writes them as a HAR file.
///
/// Set one as ``Engine/exchangeObserver``. The engine then hands it to dispatchers in
/// ``StepContext/exchangeObserver``: a dispatcher that follows redirects reports each hop itself (FlowHTTP's
/// does); for any other dispatcher (FlowTesting's mock, an embedding program's own) the engine reports the
/// one exchange of each call. Without an observer, the default, nothing is timed or reported.
///
/// ```swift
/// final class ExchangeCounter: ExchangeObserver {
///     let count = Mutex(0)
///     func exchangeFinished(_ exchange: Exchange) { count.withLock { $0 += 1 } }
/// }
/// var engine = Engine(dispatchers: dispatchers, logger: logger)
/// engine.exchangeObserver = ExchangeCounter()
/// ```
///
/// It is called from the task that sent the request, concurrently for steps that run at once, as soon as
/// the response is read: return quickly, and keep what you need. The exchange holds secrets in clear:
/// show or store only ``Exchange/redacted()``, and as late as you can (at the end of the step or the run),
/// when the run's redactor knows the credentials that a refresh step obtained from that very response.
public protocol ExchangeObserver: Sendable {
    /// A request was answered, or failed without an answer.
    /// - Parameter exchange: The request, the response or error, the step and attempt, the timing.
    func exchangeFinished(_ exchange: Exchange)
}
