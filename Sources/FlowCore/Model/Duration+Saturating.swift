extension Duration {
    /// The longest duration flowrun works with: `Int64.max` nanoseconds, about 292 years (2562047h).
    ///
    /// The parser refuses longer durations in files and options, and every
    /// computed duration (a backoff delay, a server's `Retry-After`, a sum of
    /// delays) saturates at it instead of overflowing.
    package static let longest = Duration.nanoseconds(Int64.max)

    /// `seconds` as a duration, clamped to `0 … longest`; NaN is zero.
    package static func saturating(seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        let nanoseconds = seconds * 1e9
        // Int64.max is not a Double; 2^63 is the first Double that does not fit.
        guard nanoseconds < 9_223_372_036_854_775_808.0 else { return longest }
        return .nanoseconds(Int64(nanoseconds.rounded()))
    }

    /// `self + other`, no longer than ``longest``.
    package func saturatingAdd(_ other: Duration) -> Duration {
        min(self + other, .longest)
    }

    /// `self × count`, no longer than ``longest``.
    package func saturatingMultiply(_ count: Int) -> Duration {
        guard count > 0, self > .zero else { return .zero }
        return self > .longest / count ? .longest : self * count
    }
}
