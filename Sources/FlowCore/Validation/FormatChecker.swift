/// The `format` values the validator asserts, checked byte by byte on the string's UTF-8.
///
/// JSON Schema 2020-12 makes `format` an annotation unless a validator opts in; flowrun asserts the formats
/// below, whose meaning is exact enough to reject data by. Every other format, and `password` (which marks a
/// secret), is an annotation only. The checks scan UTF-8 by hand so that they allocate nothing.
enum FormatChecker {
    /// What a format's failure message calls a valid value, or `nil` when flowrun does not assert the format.
    static func noun(for format: String) -> String? {
        switch format {
        case "date-time": "date-time (RFC 3339, such as 2024-05-01T12:30:00Z)"
        case "date": "date (YYYY-MM-DD)"
        case "email": "email address"
        case "uuid": "UUID"
        case "uri": "URI with a scheme"
        case "ipv4": "IPv4 address"
        default: nil
        }
    }

    /// Whether `string` is a valid value of `format`; `nil` when the format is only an annotation.
    static func check(_ string: String, format: String) -> Bool? {
        let check: (UnsafeBufferPointer<UInt8>) -> Bool
        switch format {
        case "date-time": check = isDateTime
        case "date": check = { isFullDate($0[...]) }
        case "email": check = isEmail
        case "uuid": check = isUUID
        case "uri": check = isURI
        case "ipv4": check = isIPv4
        default: return nil
        }
        var string = string
        return string.withUTF8(check)
    }

    // MARK: Dates and times

    /// RFC 3339 `date-time`: `full-date "T" full-time`, with `T` and `Z` in either case.
    static func isDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 20, bytes[10] | 0x20 == UInt8(ascii: "t") else { return false }
        return isFullDate(bytes[..<10]) && isFullTime(bytes[11...])
    }

    /// RFC 3339 `full-date`: `YYYY-MM-DD` with a day that exists in that month.
    static func isFullDate(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let start = bytes.startIndex
        guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = number(bytes, start, 4), let month = number(bytes, start + 5, 2),
            let day = number(bytes, start + 8, 2)
        else { return false }
        return (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    /// RFC 3339 `full-time`: `HH:MM:SS`, an optional fraction, then `Z` or a `+HH:MM`/`-HH:MM` offset.
    ///
    /// A leap second (`:60`) is valid only where it falls on 23:59 UTC, as RFC 3339 section 5.7 requires.
    static func isFullTime(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var index = bytes.startIndex
        guard bytes.count >= 9, bytes[index + 2] == UInt8(ascii: ":"), bytes[index + 5] == UInt8(ascii: ":"),
            let hour = number(bytes, index, 2), let minute = number(bytes, index + 3, 2),
            let second = number(bytes, index + 6, 2), hour <= 23, minute <= 59, second <= 60
        else { return false }
        index += 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digitsStart = index
            while index < bytes.endIndex, isDigit(bytes[index]) { index += 1 }
            guard index > digitsStart, index < bytes.endIndex else { return false }
        }
        var offsetMinutes = 0
        if bytes[index] | 0x20 == UInt8(ascii: "z") {
            guard index + 1 == bytes.endIndex else { return false }
        } else {
            let sign = bytes[index]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 == bytes.endIndex,
                bytes[index + 3] == UInt8(ascii: ":"), let offsetHour = number(bytes, index + 1, 2),
                let offsetMinute = number(bytes, index + 4, 2), offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (sign == UInt8(ascii: "+") ? 1 : -1)
        }
        guard second == 60 else { return true }
        let utcMinuteOfDay = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
        return utcMinuteOfDay == 23 * 60 + 59
    }

    /// The number of days in a month of the proleptic Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // MARK: Identifiers and addresses

    /// A simple email check: a dot-atom local part, `@`, and a host name of letters, digits and hyphens.
    ///
    /// Quoted local parts, IP-literal domains and internationalized addresses are rejected; they are legal but
    /// rare enough in API data that a typo is the likelier explanation.
    static func isEmail(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0, at <= 64 else { return false }
        var previous = UInt8(ascii: ".")
        for byte in bytes[..<at] {
            if byte == UInt8(ascii: ".") {
                guard previous != UInt8(ascii: ".") else { return false }
            } else if !isAtext(byte) {
                return false
            }
            previous = byte
        }
        return previous != UInt8(ascii: ".") && isHostName(bytes[(at + 1)...])
    }

    /// The characters RFC 5322 allows unquoted in the local part of an address, other than `.`.
    static func isAtext(_ byte: UInt8) -> Bool {
        if isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"),
            UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Dot-separated labels of letters, digits and inner hyphens, each 1 to 63 bytes long.
    static func isHostName(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        var labelLength = 0
        var previous = UInt8(ascii: ".")
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0, previous != UInt8(ascii: "-") else { return false }
                labelLength = 0
            } else if isAlphanumeric(byte) || (byte == UInt8(ascii: "-") && labelLength > 0) {
                labelLength += 1
                guard labelLength <= 63 else { return false }
            } else {
                return false
            }
            previous = byte
        }
        return labelLength > 0 && previous != UInt8(ascii: "-")
    }

    /// `8-4-4-4-12` hexadecimal digits, in either case.
    static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            let isHyphenPosition = index == 8 || index == 13 || index == 18 || index == 23
            guard isHyphenPosition ? byte == UInt8(ascii: "-") : isHexDigit(byte) else { return false }
        }
        return true
    }

    /// An RFC 3986 URI in the loose sense of "has a scheme": `scheme ":" rest`, where the rest holds only
    /// printable ASCII that URIs allow, and every `%` starts a two-digit escape.
    static func isURI(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]) else { return false }
        for byte in bytes[1..<colon] {
            guard isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            else { return false }
        }
        var index = colon + 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
                UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
                return false
            default:
                guard byte > 0x20, byte < 0x7F else { return false }
            }
            index += 1
        }
        return true
    }

    /// Four dot-separated decimal numbers from 0 to 255, without leading zeros.
    static func isIPv4(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parts = 0
        var value = 0
        var digits = 0
        var leadingZero = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts < 3 else { return false }
                parts += 1
                value = 0
                digits = 0
            } else if isDigit(byte) {
                if digits == 0 { leadingZero = byte == UInt8(ascii: "0") } else if leadingZero { return false }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= 255 else { return false }
            } else {
                return false
            }
        }
        return parts == 3 && digits > 0
    }

    // MARK: Bytes

    /// The decimal number in `count` digits from `start`, or `nil` when one of them is not a digit.
    static func number(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            guard index < bytes.endIndex, isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        }
        return value
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }
}
