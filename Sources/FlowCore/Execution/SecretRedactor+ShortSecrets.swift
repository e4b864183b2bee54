import Synchronization

/// Secrets under 4 characters (a password `abc`, a one-letter key): replaced only where a whole value equals
/// them, since replacing every `a` in every text would destroy it.
extension SecretRedactor {
    /// Adds `text`, a secret under 4 characters, and the forms a request or an echo carries it in
    /// (percent-encoded in a query or a path, form-encoded, JSON-escaped) as whole-value secrets.
    func addShort(_ text: String) {
        guard added.withLock({ $0.insert(text).inserted }) else { return }
        var forms = [text]
        for form in Self.escapedForms(of: text) where !forms.contains(form) { forms.append(form) }
        shortSecrets.withLock { list in
            list.append(contentsOf: forms.filter { !list.contains($0) })
            list.sort { $0.utf8.count > $1.utf8.count }
        }
        knowsSecrets.store(true, ordering: .releasing)
    }

    /// `text` with every whole value that equals a short secret replaced by `***`: the whole text (a header
    /// value, an output), a JSON string value (`"pw": "abc"`, not a member name), a query parameter or form
    /// field value (`=abc&`), a path segment (`/abc/`), a header line's value (`X-Token: abc`) and a
    /// credential after `Bearer ` or `Basic `. Secrets of 4 characters or more are replaced wherever they
    /// occur by ``redact(_:)-(String)``, which calls this too.
    /// - Parameter text: Any text that may be shown.
    /// - Returns: `text`, its short secrets replaced.
    public func redactWholeValues(_ text: String) -> String {
        guard knowsSecrets.load(ordering: .acquiring) else { return text }
        // Copied out only when there is something to copy: nearly every run has no short secret.
        guard let list = shortSecrets.withLock({ $0.isEmpty ? nil : $0 }) else { return text }
        return Self.wholeValuesRedacted(text, removing: list) ?? text
    }

    /// `text` with the whole values in `list` replaced, or `nil` when it holds none.
    static func wholeValuesRedacted(_ text: String, removing list: [String]) -> String? {
        var result: String?
        for secret in list {
            let current = result ?? text
            if current == secret { return replacement }
            guard current.contains(secret) else { continue }
            var output = ""
            var last = current.startIndex
            for range in current.ranges(of: secret) where isWholeValue(range, in: current) {
                output += current[last..<range.lowerBound]
                output += replacement
                last = range.upperBound
            }
            if last != current.startIndex {
                output += current[last...]
                result = output
            }
        }
        return result
    }

    /// Whether the text at `range` is a whole value by what surrounds it; see ``redactWholeValues(_:)``.
    private static func isWholeValue(_ range: Range<String.Index>, in text: String) -> Bool {
        let before = text[..<range.lowerBound]
        let after = text[range.upperBound...]
        let next = after.first
        func ends(_ closers: String) -> Bool {
            guard let next else { return true }
            return next.isWhitespace || closers.contains(next)
        }
        switch before.last {
        case "\"":
            // A string value, not a member name.
            return next == "\"" && after.dropFirst().first(where: { !$0.isWhitespace }) != ":"
        case "=": return ends("&#;\"',)")
        case "/": return ends("/?#;\"',)")
        case " ":
            if before.hasSuffix(": ") { return next == nil || next!.isNewline }
            let word = before.dropLast().reversed().prefix { $0.isLetter }
            let scheme = String(word.reversed()).lowercased()
            return (scheme == "bearer" || scheme == "basic") && ends("\",")
        default: return false
        }
    }
}
