import FlowCore

/// A compiled ``MockStub/Match/path``: literal segments, `{name}` parameters and a final `**`.
struct PathPattern: Sendable {
    enum Segment: Sendable, Equatable {
        /// A segment that must be equal, percent-decoded.
        case literal(String)
        /// `{name}`: any one non-empty segment.
        case parameter
        /// A final `**`: the rest of the path, possibly nothing.
        case rest
    }

    let text: String
    let segments: [Segment]

    /// Compiles `text`; a segment that is not a whole `{name}` or a final `**` is literal.
    init(_ text: String) {
        self.text = text
        let parts = Self.split(text)
        segments = parts.enumerated().map { position, part in
            if part == "**" && position == parts.count - 1 { return .rest }
            if part.count > 2 && part.hasPrefix("{") && part.hasSuffix("}") { return .parameter }
            return .literal(URLEncoding.percentDecode(part))
        }
    }

    /// What is wrong with `text` as a path pattern, for the stub file decoder; `nil` when it is fine.
    static func problem(in text: String) -> String? {
        guard text.hasPrefix("/") else { return "a stub path starts with '/', found '\(text)'" }
        if text.contains("?") { return "a stub path has no query; list query parameters under 'query'" }
        if text.contains("#") { return "a stub path has no fragment ('#'), found '\(text)'" }
        let parts = split(text)
        for (position, part) in parts.enumerated() {
            if part.contains("**") && !(part == "**" && position == parts.count - 1) {
                return "'**' matches the rest of a path, so it is allowed only as the whole last segment: '/prefix/**'"
            }
            let isParameter = part.count > 2 && part.hasPrefix("{") && part.hasSuffix("}")
                && !part.dropFirst().dropLast().contains(where: { $0 == "{" || $0 == "}" })
            if (part.contains("{") || part.contains("}")) && !isParameter {
                return "a path parameter fills a whole segment, such as '/user/{id}'; found '\(part)'"
            }
        }
        return nil
    }

    /// The segments of a path after its leading `/`: `/a/b/` gives `a`, `b` and an empty last segment.
    static func split(_ path: String) -> [Substring] {
        path.dropFirst(path.hasPrefix("/") ? 1 : 0).split(separator: "/", omittingEmptySubsequences: false)
    }

    /// Whether the decoded `path` segments match.
    func matches(_ path: [String]) -> Bool {
        if segments.last == .rest {
            return path.count >= segments.count - 1 && matchingCount(path) == segments.count - 1
        }
        return path.count == segments.count && matchingCount(path) == segments.count
    }

    /// How many segments match position by position, to rank stubs for an "unmatched" message.
    func matchingCount(_ path: [String]) -> Int {
        zip(segments, path).reduce(0) { count, pair in
            switch pair.0 {
            case .literal(let literal): count + (literal == pair.1 ? 1 : 0)
            case .parameter: count + (pair.1.isEmpty ? 0 : 1)
            case .rest: count
            }
        }
    }
}
