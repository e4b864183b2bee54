/// Byte-level substring checks that let the redactors skip Character-level searches.
///
/// `String.contains(_:)` and friends compare Characters through the string-processing searcher, which
/// costs about a microsecond per call even on short strings. For ASCII strings a Character-level match is
/// also a match of the bytes, so when the bytes do not match, the Character-level search cannot match
/// either and can be skipped; for anything else these helpers answer "not certain".
enum ASCIISearch {
    /// Whether `needle` certainly does not occur in `text`: both are ASCII and `needle`'s bytes do not
    /// occur in `text`'s. When this is `true`, `text.contains(needle)` is `false`.
    static func certainlyAbsent(_ needle: String, in text: String) -> Bool {
        let answer = text.utf8.withContiguousStorageIfAvailable { haystack in
            needle.utf8.withContiguousStorageIfAvailable { pattern in
                isASCII(haystack) && isASCII(pattern) && !occurs(pattern, in: haystack)
            }
        }
        return answer.flatMap { $0 } ?? false
    }

    /// Whether `text` contains `character`, an ASCII character: `text.contains(character)`.
    ///
    /// Answered on the bytes when the byte does not occur or `text` is ASCII (where every ASCII
    /// character other than CR and LF is a Character of its own); otherwise Character by Character.
    static func contains(_ character: Unicode.Scalar, in text: String) -> Bool {
        let byte = UInt8(ascii: character)
        let answer = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard bytes.contains(byte) else { return false }
            return isASCII(bytes) && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n") ? true : nil
        }
        if let answer = answer.flatMap({ $0 }) { return answer }
        return text.contains(Character(character))
    }

    /// Whether `pattern`, lower-case ASCII, occurs in `bytes` with `A`–`Z` read as lower case.
    static func occursIgnoringCase(_ pattern: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard let first = pattern.first else { return true }
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count) where lowercased(bytes[start]) == first {
            var index = 1
            while index < pattern.count && lowercased(bytes[start + index]) == pattern[index] { index += 1 }
            if index == pattern.count { return true }
        }
        return false
    }

    /// An ASCII byte with `A`–`Z` lower-cased; other bytes as they are.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
    }

    /// Whether some byte of `text`'s UTF-8 satisfies `predicate`.
    ///
    /// Read from the string's contiguous storage when it has one, which is several times faster
    /// than iterating `text.utf8`.
    static func containsByte(in text: String, where predicate: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(where: predicate) }
            ?? text.utf8.contains(where: predicate)
    }

    /// Where the first `?` of a URL's bytes is (their count when there is none), or `nil` when a byte is not
    /// ASCII or is an `@`: the one pass ``URLRedaction/hasNothingToRedact(_:)`` makes over every URL a run sends.
    ///
    /// Eight bytes at a time: a word has a non-ASCII byte when a high bit is set, and, its bytes being ASCII,
    /// a byte equal to `b` when `(w ^ b…b) - 0x01…01` borrows into a high bit that `w ^ b…b` does not have.
    static func queryMarkOfPlainURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        func has(_ byte: UInt8, in word: UInt64) -> Bool {
            let difference = word ^ (ones &* UInt64(byte))
            return (difference &- ones) & ~difference & highBits != 0
        }
        var mark: Int?
        var offset = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while offset + 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                if word & highBits != 0 || has(UInt8(ascii: "@"), in: word) { return nil }
                if mark == nil, has(UInt8(ascii: "?"), in: word) {
                    mark = bytes[offset..<offset + 8].firstIndex(of: UInt8(ascii: "?"))
                }
                offset += 8
            }
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte >= 0x80 || byte == UInt8(ascii: "@") { return nil }
            if mark == nil, byte == UInt8(ascii: "?") { mark = offset }
            offset += 1
        }
        return mark ?? bytes.count
    }

    /// Whether every byte is ASCII.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { $0 >= 0x80 }
    }

    /// Whether `pattern` occurs in `bytes`; an empty pattern occurs everywhere.
    static func occurs(_ pattern: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = pattern.first else { return true }
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == first {
            var index = 1
            while index < pattern.count && bytes[start + index] == pattern[index] { index += 1 }
            if index == pattern.count { return true }
        }
        return false
    }
}
