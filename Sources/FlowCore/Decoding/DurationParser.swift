/// Parses the durations workflow files write: `200ms`, `5s`, `1.5s`, `2m`, `1h`.
package enum DurationParser {
    /// The units a duration may use, longest suffix first so `ms` wins over `s`.
    private static let units: [(suffix: String, nanoseconds: Double)] = [
        ("ms", 1e6), ("us", 1e3), ("s", 1e9), ("m", 60e9), ("h", 3600e9),
    ]

    /// Parses `text` into a duration.
    /// - Parameter text: A number followed by `ms`, `s`, `m` or `h`.
    /// - Returns: The duration, or a message saying what is wrong; a duration longer than
    ///   ``Duration/longest`` is refused.
    package static func parse(_ text: String) -> Result<Duration, DurationSyntaxError> {
        let trimmed = text.trimmingSpaces
        guard let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }) else {
            return .failure(DurationSyntaxError(
                message: "invalid duration '\(text)': expected a number and a unit, such as 200ms, 5s, 2m or 1h"))
        }
        let number = String(trimmed.dropLast(unit.suffix.count)).trimmingSpaces
        guard let value = Double(number), value.isFinite, number.first != "+",
            number.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" })
        else {
            return .failure(DurationSyntaxError(
                message: "invalid duration '\(text)': expected a number and a unit, such as 200ms, 5s, 2m or 1h"))
        }
        guard value > 0 else {
            return .failure(DurationSyntaxError(message: "invalid duration '\(text)': a duration must be positive"))
        }
        // 2^63 ns is the first value that does not fit; Int64(_:) would trap on it.
        let nanoseconds = (value * unit.nanoseconds).rounded()
        guard nanoseconds < 9_223_372_036_854_775_808.0 else {
            return .failure(DurationSyntaxError(
                message: "invalid duration '\(text)': longer than \(Duration.longest.components.seconds / 3600)h "
                    + "(about 292 years), the longest duration flowrun accepts"))
        }
        return .success(.nanoseconds(Int64(nanoseconds)))
    }
}

/// Why a duration did not parse.
package struct DurationSyntaxError: Error {
    /// What is wrong, naming the text.
    package var message: String
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(scalars[first...last])
    }
}
