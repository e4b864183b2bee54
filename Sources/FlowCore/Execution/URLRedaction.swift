/// Removes credentials from URLs before they are logged or reported.
enum URLRedaction {
    /// Query parameter names whose values are credentials, compared case-insensitively as substrings.
    static let secretParameterNames = ["key", "token", "secret", "password", "signature", "sig", "auth"]

    /// `url` with its user-info removed and the values of credential-like query parameters replaced by `***`.
    static func redact(_ url: String) -> String {
        if hasNothingToRedact(url) { return url }
        var result = url
        if let scheme = result.firstRange(of: "://") {
            let authorityStart = scheme.upperBound
            let authorityEnd = result[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" }
                ?? result.endIndex
            if let at = result[authorityStart..<authorityEnd].lastIndex(of: "@") {
                result.replaceSubrange(authorityStart...at, with: "***@")
            }
        }
        guard let mark = result.firstIndex(of: "?") else { return result }
        let base = result[...mark]
        let fragmentStart = result[mark...].firstIndex(of: "#") ?? result.endIndex
        let query = result[result.index(after: mark)..<fragmentStart]
        let redacted = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals].lowercased()
            return secretParameterNames.contains(where: { name.contains($0) }) ? "\(pair[..<equals])=***" : String(pair)
        }
        return base + redacted.joined(separator: "&") + result[fragmentStart...]
    }

    /// ``secretParameterNames`` as bytes.
    private static let secretParameterNameBytes = secretParameterNames.map { Array($0.utf8) }

    /// Whether `redact` certainly returns `url` unchanged: it is ASCII, has no `@` (so no user-info), and
    /// no secret parameter name occurs anywhere after its `?`, compared case-insensitively.
    ///
    /// Checked on bytes, this spares most URLs `redact`'s Character-level searches, which cost several
    /// microseconds per URL. For ASCII text a Character-level match is also a byte match, so the
    /// shortcut never skips a redaction.
    static func hasNothingToRedact(_ url: String) -> Bool {
        let answer = url.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "@") }) else { return false }
            guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return true }
            let query = UnsafeBufferPointer(rebasing: bytes[mark...])
            return !secretParameterNameBytes.contains { name in
                name.withUnsafeBufferPointer { ASCIISearch.occursIgnoringCase($0, in: query) }
            }
        }
        return answer ?? false
    }
}
