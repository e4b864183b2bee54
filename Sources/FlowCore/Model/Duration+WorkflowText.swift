extension Duration {
    /// The duration as a workflow file writes it: `250ms`, `2s`, `1.4s`, `2m`, `1h`, `500us`.
    ///
    /// Lint messages and `flowrun lint --explain` quote durations in this
    /// form, so a figure can be compared with, or pasted into, the file.
    /// A duration that saturated at ``longest`` (a sum of huge backoff
    /// delays) is `over 2562047h`.
    package var workflowText: String {
        guard self < .longest else { return "over \(Duration.longest.components.seconds / 3600)h" }
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
        return Self.wholeText(seconds)
    }

    /// The duration for a human message, rounded to the millisecond (to the microsecond below one):
    /// `4.95s`, `200ms`, `2m`, `150us`.
    ///
    /// Every message that names a measured or computed duration (a circuit
    /// breaker's remaining break, a retry delay in the log) uses this form,
    /// never `Duration`'s own `4.949823542 seconds`.
    package var roundedText: String {
        guard self < .longest else { return workflowText }
        let (seconds, attoseconds) = components
        let millisecond: Int64 = 1_000_000_000_000_000  // in attoseconds
        let unit = seconds == 0 && attoseconds < millisecond ? millisecond / 1000 : millisecond
        let units = (attoseconds + unit / 2) / unit
        return (Duration.seconds(seconds) + Duration(secondsComponent: 0, attosecondsComponent: units * unit))
            .workflowText
    }

    /// A whole number of seconds in the largest unit that divides it: `2h`, `90s`.
    private static func wholeText(_ seconds: Int64) -> String {
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
