extension Duration {
    /// The duration as a workflow file writes it: `250ms`, `2s`, `1.4s`, `2m`, `1h`, `500us`.
    ///
    /// Lint messages and `flowrun lint --explain` quote durations in this
    /// form, so a figure can be compared with, or pasted into, the file.
    package var workflowText: String {
        let (seconds, attoseconds) = components
        let nanoseconds = attoseconds / 1_000_000_000
        guard nanoseconds % 1_000_000 == 0 else {
            // Sub-millisecond precision: durations written in `us`, or sums of them.
            let microseconds = seconds * 1_000_000 + nanoseconds / 1000
            guard microseconds >= 1000 else { return "\(microseconds)us" }
            return Self.decimal(microseconds, scale: 1_000_000) + "s"
        }
        let milliseconds = seconds * 1000 + nanoseconds / 1_000_000
        guard milliseconds % 1000 == 0 else {
            return milliseconds < 1000 ? "\(milliseconds)ms" : Self.decimal(milliseconds, scale: 1000) + "s"
        }
        if seconds >= 3600, seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds >= 60, seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    /// `value / scale` as a decimal without trailing zeros: `decimal(1400, scale: 1000)` is `1.4`.
    private static func decimal(_ value: Int64, scale: Int64) -> String {
        let digits = String(scale).count - 1
        var fraction = String(value % scale)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return fraction.isEmpty ? "\(value / scale)" : "\(value / scale).\(fraction)"
    }
}
