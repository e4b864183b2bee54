import Foundation

/// Reads how long a server asks a client to wait: `Retry-After` (seconds or an HTTP date) or `RateLimit-Reset`.
enum RetryAfter {
    /// The delay the headers ask for, if any.
    static func delay(in headers: HeaderFields, now: Date = Date()) -> Duration? {
        if let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
            if let date = httpDate(value) { return .seconds(max(0, date.timeIntervalSince(now))) }
        }
        // The IETF RateLimit headers draft: `RateLimit-Reset: 30`, or `RateLimit: limit=10, remaining=0, reset=30`.
        if let reset = headers["RateLimit-Reset"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            return .seconds(max(0, reset))
        }
        if let combined = headers["RateLimit"] {
            for part in combined.split(separator: ",") {
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0] == "reset" || pair[0] == "t", let seconds = Int(pair[1]) {
                    return .seconds(max(0, seconds))
                }
            }
        }
        return nil
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form RFC 9110 requires senders to use.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
