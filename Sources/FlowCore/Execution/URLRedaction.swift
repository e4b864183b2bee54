/// Removes credentials from URLs before they are logged or reported.
enum URLRedaction {
    /// Query parameter names whose values are credentials, compared case-insensitively as substrings.
    static let secretParameterNames = ["key", "token", "secret", "password", "signature", "sig", "auth"]

    /// `url` with its user-info removed and the values of credential-like query parameters replaced by `***`.
    static func redact(_ url: String) -> String {
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
}
