import FlowCore

/// Hands each exchange to several observers: `flowrun run -v --har-out FILE` both prints and records them.
struct ExchangeFanOut: ExchangeObserver {
    let observers: [any ExchangeObserver]

    func exchangeFinished(_ exchange: Exchange) {
        for observer in observers { observer.exchangeFinished(exchange) }
    }
}
