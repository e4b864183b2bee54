import FlowCore

extension RunPrinter {
    /// The lines of `exchanges`, redacted now, each starting with `indent`; with the bodies at `-vv`.
    ///
    /// Each is introduced by what it was: `* attempt 1`, `* attempt 1, redirect 1`, and for the request a
    /// refresh interceptor sent again with new credentials `* attempt 1, replayed after refresh-token` (the
    /// refresh step from `attempt`, the report of the attempt they belong to, when known). An exchange
    /// outside any attempt's report says its step and place: `* accounts item 2, attempt 1`.
    func exchangeLines(_ exchanges: [Exchange], of attempt: AttemptReport?, indent: String) -> [String] {
        var sent: Set<String> = []
        return exchanges.flatMap { exchange in
            var label = attempt == nil ? Self.place(of: exchange) : "attempt \(exchange.attempt)"
            // The same attempt's request sent again, not by a redirect: the replay after a refresh.
            if exchange.redirect > 0 {
                label += ", redirect \(exchange.redirect)"
            } else if !sent.insert(label).inserted {
                label += attempt?.refresh.map { ", replayed after \($0.refreshStep)" } ?? ", sent again"
            }
            return ExchangeText.lines(of: exchange.redacted(), label: label, bodies: verbose > 1).map { indent + $0 }
        }
    }

    /// `accounts attempt 1`, `accounts item 2, attempt 1`, `issues page 3, attempt 1`.
    private static func place(of exchange: Exchange) -> String {
        var place = exchange.stepID + " "
        if let item = exchange.item {
            place += "item \(item), "
        } else if let iteration = exchange.iteration {
            place += "iteration \(iteration), "
        }
        return place + "attempt \(exchange.attempt)"
    }
}
