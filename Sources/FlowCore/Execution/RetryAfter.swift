import Foundation

/// Reads how long a server asks a client to wait: `Retry-After` (seconds or an HTTP date) or `RateLimit-Reset`.
///
/// Every value saturates at ``Swift/Duration/longest``: a number of seconds
/// too large for any integer type and a date thousands of years ahead are a
/// very long wait, which `retryAfter.max` then caps, never a crash or a
/// header that is silently ignored.
enum RetryAfter {
    /// The delay the headers ask for, if any.
    static func delay(in headers: HeaderFields, now: Date = Date()) -> Duration? {
        if let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) {
            if let seconds = seconds(value) { return seconds }
            if let date = httpDate(value, now: now) { return .saturating(seconds: date - now.timeIntervalSince1970) }
        }
        // The IETF RateLimit headers draft: `RateLimit-Reset: 30`, or `RateLimit: limit=10, remaining=0, reset=30`.
        if let reset = headers["RateLimit-Reset"].flatMap({ seconds($0.trimmingCharacters(in: .whitespaces)) }) {
            return reset
        }
        if let combined = headers["RateLimit"] {
            for part in combined.split(separator: ",") {
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0] == "reset" || pair[0] == "t", let seconds = seconds(pair[1]) {
                    return seconds
                }
            }
        }
        return nil
    }

    /// A delay in whole seconds (`120`), saturating however many digits it has.
    static func seconds(_ text: String) -> Duration? {
        guard isDigits(text) else { return nil }
        guard let seconds = Int64(text), seconds <= Duration.longest.components.seconds else { return .longest }
        return .seconds(seconds)
    }

    private static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The time an HTTP date names, in seconds since 1970, in any of the three forms RFC 9110 §5.6.7 says
    /// recipients must accept:
    ///
    /// - IMF-fixdate, the one senders use: `Sun, 06 Nov 1994 08:49:37 GMT`;
    /// - the obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`, a two-digit year that would be more than
    ///   50 years ahead of `now` naming the most recent past year with those digits;
    /// - the obsolete asctime form: `Sun Nov  6 08:49:37 1994`.
    static func httpDate(_ text: String, now: Date = Date()) -> Double? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let day: String, month: String, year: String, time: String
        switch fields.count {
        case 6 where fields[0].hasSuffix(",") && fields[5] == "GMT":
            (day, month, year, time) = (fields[1], fields[2], fields[3], fields[4])
        case 4 where fields[0].hasSuffix(",") && fields[3] == "GMT":
            let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[2].count == 2 else { return nil }
            (day, month, year, time) = (parts[0], parts[1], parts[2], fields[2])
        case 5 where !fields[0].hasSuffix(","):
            (day, month, year, time) = (fields[2], fields[1], fields[4], fields[3])
        default:
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard let monthNumber = months.firstIndex(of: month), year.count == 2 || year.count == 4, isDigits(year),
            var yearNumber = Int(year),
            let dayNumber = Int(day), (1...31).contains(dayNumber), day.count <= 2,
            clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        if year.count == 2 {
            let current = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: now)
                .year ?? 1970
            yearNumber += current - current % 100
            if yearNumber > current + 50 { yearNumber -= 100 }
        }
        let days = daysSince1970(year: yearNumber, month: monthNumber + 1, day: dayNumber)
        return Double(days) * 86400 + Double(clock[0] * 3600 + clock[1] * 60 + clock[2])
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}
