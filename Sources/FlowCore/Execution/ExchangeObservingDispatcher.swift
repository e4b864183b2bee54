import Synchronization

/// A dispatcher that makes sure its exchange observer hears of every call of the dispatcher it wraps: what the
/// engine puts in place of each registered dispatcher when ``Engine/exchangeObserver`` is set.
///
/// It hands the wrapped dispatcher a context whose ``StepContext/exchangeObserver`` notes whether the
/// dispatcher reported anything itself (FlowHTTP's reports each redirect hop); when it did not, the call is
/// reported as one exchange, timed here, with the response or the error.
struct ExchangeObservingDispatcher: Dispatcher {
    let wrapped: any Dispatcher
    let observer: any ExchangeObserver

    /// The wrapped dispatcher's: observing a run does not change who keeps its time limits.
    var enforcesTimeLimits: Bool { wrapped.enforcesTimeLimits }

    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        let tally = ReportTally(observer)
        var context = context
        context.exchangeObserver = tally
        let stopwatch = ExchangeStopwatch()
        do {
            let response = try await wrapped.dispatch(request, context: context)
            if !tally.reported { context.reportExchange(request, response: response, timing: stopwatch.stop()) }
            return response
        } catch {
            if !tally.reported {
                let failure = (error as? FlowError)
                    ?? (error is CancellationError
                        ? FlowError(.cancelled, "the run was cancelled")
                        : FlowError(.transport, "\(error)", underlyingError: error))
                context.reportExchange(request, response: nil, error: failure, timing: stopwatch.stop())
            }
            throw error
        }
    }

    /// Passes exchanges on to the observer and remembers whether there were any.
    private final class ReportTally: ExchangeObserver {
        private let observer: any ExchangeObserver
        private let anyReported = Atomic(false)

        init(_ observer: any ExchangeObserver) { self.observer = observer }

        /// Whether the dispatcher reported an exchange.
        var reported: Bool { anyReported.load(ordering: .acquiring) }

        func exchangeFinished(_ exchange: Exchange) {
            anyReported.store(true, ordering: .releasing)
            observer.exchangeFinished(exchange)
        }
    }
}

extension DispatcherRegistry {
    /// The same dispatchers under the same names, each reporting its calls to `observer`.
    func observed(by observer: any ExchangeObserver) -> DispatcherRegistry {
        var observed = DispatcherRegistry()
        for name in names {
            if let dispatcher = self[name] {
                observed.register(ExchangeObservingDispatcher(wrapped: dispatcher, observer: observer), as: name)
            }
        }
        return observed
    }
}
