/// The URL rules of ``SecretRedactor``: removes the credential-shaped parts of a URL, whatever their value.
///
/// FlowCore's reports and FlowHTTP's log lines and errors both go through ``SecretRedactor/redact(url:)``,
/// so they apply these same rules.
enum URLRedaction {
    /// The words that make a query parameter's value a secret when its name contains one, compared
    /// case-insensitively: `api_key`, `access_token`, `client_secret`, `X-Amz-Signature`, `PASSWORD`.
    static let secretNameFragments = ["key", "token", "secret", "password", "signature"]

    /// The words that make a query parameter's value a secret when its name has one as a whole word
    /// (between non-alphanumerics), so that `sig` and `auth` match but `design` and `author` do not.
    static let secretNameWords = ["sig", "auth"]

    /// Every word that can make a name secret, for the byte shortcut: a superset of what ``isSecretName(_:)``
    /// matches.
    static let secretParameterNames = secretNameFragments + secretNameWords

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
            return isSecretName(pair[..<equals]) ? "\(pair[..<equals])=\(SecretRedactor.replacement)" : String(pair)
        }
        return base + redacted.joined(separator: "&") + result[fragmentStart...]
    }

    /// Whether a query parameter named `name` probably carries a secret: its name contains one of
    /// ``secretNameFragments`` or has one of ``secretNameWords`` as a word.
    static func isSecretName(_ name: Substring) -> Bool {
        let lowered = name.lowercased()
        if secretNameFragments.contains(where: { lowered.contains($0) }) { return true }
        return lowered.split { !$0.isLetter && !$0.isNumber }.contains { secretNameWords.contains(String($0)) }
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
            guard let mark = ASCIISearch.queryMarkOfPlainURL(bytes) else { return false }
            guard mark < bytes.count else { return true }
            let query = UnsafeBufferPointer(rebasing: bytes[mark...])
            return !secretParameterNameBytes.contains { name in
                name.withUnsafeBufferPointer { ASCIISearch.occursIgnoringCase($0, in: query) }
            }
        }
        return answer ?? false
    }
}
