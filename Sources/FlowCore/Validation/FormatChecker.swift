/// The `format` values the validator can assert, checked byte by byte on the string's UTF-8.
///
/// JSON Schema 2020-12 makes `format` an annotation unless a validator opts in; a workflow opts in with
/// `validation: { formats: enforce }`, and then flowrun asserts the formats below, whose meaning is exact enough
/// to reject data by. Every other format, and `password` (which marks a secret), stays an annotation. The checks
/// scan UTF-8 by hand so that they allocate nothing.
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

    /// An RFC 5321 mailbox: a dot-atom or quoted-string local part (at most 64 bytes), `@`, and a host name or
    /// an address literal (`[127.0.0.1]`, `[IPv6:::1]`). Internationalized addresses (`idn-email`) are not
    /// `email`.
    static func isEmail(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let at = localPartEnd(bytes), at > 0, at <= 64, at + 1 < bytes.count else { return false }
        let domain = bytes[(at + 1)...]
        guard domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]") else { return isHostName(domain) }
        let literal = UnsafeBufferPointer(rebasing: domain.dropFirst().dropLast())
        let ipv6Tag = Array("IPv6:".utf8)
        if literal.starts(with: ipv6Tag) {
            return isIPv6(UnsafeBufferPointer(rebasing: literal[(literal.startIndex + ipv6Tag.count)...]))
        }
        return isIPv4(literal)
    }

    /// Where the local part of an address ends (the index of its `@`), or `nil` when it is malformed.
    static func localPartEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.first == UInt8(ascii: "\"") else {
            // A dot-atom: atext runs separated by single dots.
            var previous = UInt8(ascii: ".")
            for (index, byte) in bytes.enumerated() {
                if byte == UInt8(ascii: "@") { return previous == UInt8(ascii: ".") ? nil : index }
                if byte == UInt8(ascii: ".") {
                    guard previous != UInt8(ascii: ".") else { return nil }
                } else if !isAtext(byte) {
                    return nil
                }
                previous = byte
            }
            return nil
        }
        // A quoted string: printable ASCII and spaces, with `\` quoting any printable character.
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                return index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "@") ? index + 1 : nil
            }
            if byte == UInt8(ascii: "\\") { index += 1 }
            guard index < bytes.count, (0x20...0x7E).contains(bytes[index]) else { return nil }
            index += 1
        }
        return nil
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

    /// An RFC 3986 `URI`: a scheme, `:`, an optional `//authority` (userinfo, a host name, IPv4 or bracketed IPv6
    /// address, and a numeric port), then a path, query and fragment of the characters URIs allow, where every `%`
    /// starts a two-digit escape. Relative references (`/path`, `//host/path`) are not URIs.
    static func isURI(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]) else { return false }
        for byte in bytes[1..<colon] {
            guard isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            else { return false }
        }
        var index = colon + 1
        if bytes.count - index >= 2, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
            let start = index + 2
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
                bytes[end] != UInt8(ascii: "#")
            {
                end += 1
            }
            guard isAuthority(bytes[start..<end]) else { return false }
            index = end
        }
        var inFragment = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                guard !inFragment else { return false }
                inFragment = true
            } else if !(isPathCharacter(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")) {
                return false
            }
            index += 1
        }
        return true
    }

    /// An RFC 3986 `authority`: `[userinfo "@"] host [":" port]`.
    static func isAuthority(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var hostStart = bytes.startIndex
        if let at = bytes.lastIndex(of: UInt8(ascii: "@")) {
            guard isEscapedRun(bytes[bytes.startIndex..<at], allowing: { isUnreservedOrSubDelim($0) || $0 == 0x3A })
            else { return false }
            hostStart = at + 1
        }
        var hostEnd = bytes.endIndex
        if hostStart < bytes.endIndex, bytes[hostStart] == UInt8(ascii: "[") {
            guard let close = bytes[hostStart...].firstIndex(of: UInt8(ascii: "]")),
                isIPv6(UnsafeBufferPointer(rebasing: bytes[(hostStart + 1)..<close]))
            else { return false }
            hostEnd = close + 1
            guard hostEnd == bytes.endIndex || bytes[hostEnd] == UInt8(ascii: ":") else { return false }
        } else {
            hostEnd = bytes[hostStart...].firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            guard isEscapedRun(bytes[hostStart..<hostEnd], allowing: isUnreservedOrSubDelim) else { return false }
        }
        return bytes[hostEnd...].dropFirst().allSatisfy(isDigit)
    }

    /// Whether every byte is allowed by `allowed` or starts a `%XX` escape.
    static func isEscapedRun(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, allowing allowed: (UInt8) -> Bool) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
            } else {
                guard allowed(bytes[index]) else { return false }
                index += 1
            }
        }
        return true
    }

    /// RFC 3986 `pchar` without `%`: unreserved characters, sub-delimiters, `:` and `@`.
    static func isPathCharacter(_ byte: UInt8) -> Bool {
        isUnreservedOrSubDelim(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }

    /// RFC 3986 `unreserved` (letters, digits, `-._~`) and `sub-delims` (`!$&'()*+,;=`).
    static func isUnreservedOrSubDelim(_ byte: UInt8) -> Bool {
        if isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
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

    /// An RFC 4291 IPv6 address: eight groups of 1 to 4 hex digits, one `::` standing for one or more zero
    /// groups, and optionally an IPv4 address in place of the last two groups.
    static func isIPv6(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        var groups = 0
        var compressed = false
        var index = 0
        if bytes[0] == UInt8(ascii: ":") {
            guard bytes[1] == UInt8(ascii: ":") else { return false }
            compressed = true
            index = 2
            if index == bytes.count { return true }
        }
        while index < bytes.count {
            var end = index
            while end < bytes.count, end - index < 5, isHexDigit(bytes[end]) { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
                // The rest is an embedded IPv4 address, worth two groups.
                guard isIPv4(UnsafeBufferPointer(rebasing: bytes[index...])) else { return false }
                groups += 2
                break
            }
            guard end > index, end - index <= 4 else { return false }
            groups += 1
            index = end
            guard index < bytes.count else { break }
            guard bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                guard !compressed else { return false }
                compressed = true
                index += 1
                if index == bytes.count { break }
            } else if index == bytes.count {
                return false
            }
        }
        return compressed ? groups < 8 : groups == 8
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
