extension Duration {
    /// The duration in whole milliseconds, rounded down: the unit of the `…Ms` fields of flowrun's JSON and of the
    /// durations its lines print.
    package var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
