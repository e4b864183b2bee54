/// Where the next page of a paginated step is: the target of a `Link` header's `rel="next"` (RFC 8288), or a
/// next-page URL from the body, resolved against the URL of the page that gave it (RFC 3986, section 5.2).
enum NextPageLink {
    /// The target of the first link with relation `relation` in `header`, a `Link` field value such as
    /// `<https://api.example.com/items?page=2>; rel="next", <…>; rel="last"`; `nil` when there is none.
    static func target(in header: String, relation: String = "next") -> String? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return nil }
            let target = rest[rest.index(after: open)..<close]
            // The parameters run to the next link, which starts at a comma outside a quoted string.
            var index = rest.index(after: close)
            var quoted = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "\"" { quoted.toggle() } else if character == ",", !quoted { break }
                index = rest.index(after: index)
            }
            let parameters = rest[rest.index(after: close)..<index]
            if relations(in: parameters).contains(relation.lowercased()) { return String(target) }
            rest = rest[index...]
        }
        return nil
    }

    /// The relation types of a link's parameters (`; rel="next prev"` gives `next` and `prev`), lower-cased.
    private static func relations(in parameters: Substring) -> [String] {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                parts[0].trimmingWhitespace().lowercased() == "rel"
            else { continue }
            var value = parts[1].trimmingWhitespace()
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                value = value.dropFirst().dropLast()
            }
            return value.split(separator: " ").map { $0.lowercased() }
        }
        return []
    }

    /// `reference` resolved against the absolute URL `base`: an absolute URL as it is, `//host/x` with the base's
    /// scheme, `/x` on the base's origin, `?q` on the base's path, and `x` beside the base's last segment.
    static func resolve(_ reference: String, against base: String) -> String {
        if reference.contains("://") { return reference }
        guard let schemeEnd = base.firstRange(of: "://") else { return reference }
        let scheme = base[..<schemeEnd.lowerBound]
        if reference.hasPrefix("//") { return scheme + ":" + reference }
        let afterScheme = base[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.firstIndex { $0 == "?" || $0 == "#" }
            ?? afterScheme.endIndex
        let origin = base[..<pathStart]
        if reference.hasPrefix("/") { return origin + reference }
        let end = afterScheme[pathStart...].firstIndex { $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let path = base[pathStart..<end]
        if reference.hasPrefix("?") { return origin + (path.isEmpty ? "/" : path) + reference }
        if reference.hasPrefix("#") || reference.isEmpty { return String(base[..<end]) + reference }
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return origin + directory + reference
    }

    /// The origin of an absolute URL, `scheme://host[:port]`, lower-cased, with the scheme's default port left
    /// out; `nil` when the URL is not absolute.
    static func origin(of url: String) -> String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let afterScheme = url[schemeEnd.upperBound...]
        var authority = afterScheme[..<(afterScheme.firstIndex { "/?#".contains($0) } ?? afterScheme.endIndex)]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority.lowercased()
        for (name, port) in [("http", ":80"), ("https", ":443")] where scheme == name && host.hasSuffix(port) {
            host.removeLast(port.count)
        }
        return scheme + "://" + host
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
