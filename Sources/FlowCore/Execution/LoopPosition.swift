/// Where in a `forEach`, `repeat` or `paginate` loop an attempt runs.
struct LoopPosition: Sendable {
    /// The zero-based index of the `forEach` item.
    var item: Int?
    /// The zero-based index of the `repeat` iteration or `paginate` page.
    var iteration: Int?
    /// For a page after the first: where it is.
    var page: PageRequest?
}

/// How the request of a page after the first differs from the step's request as written.
enum PageRequest: Sendable, Equatable, Codable {
    /// The whole URL, from a `Link` header or a next-page URL in the body.
    case url(String)
    /// The step's URL with this query parameter set (replacing any it had): a cursor or a page number.
    case query(name: String, value: String)

    /// `url` (the step's request URL, as built) changed for this page.
    func applied(to url: String) -> String {
        switch self {
        case .url(let next):
            return next
        case .query(let name, let value):
            let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
            let beforeFragment = url[..<fragmentStart]
            let queryStart = beforeFragment.firstIndex(of: "?")
            let base = beforeFragment[..<(queryStart ?? beforeFragment.endIndex)]
            var fields = queryStart.map { beforeFragment[beforeFragment.index(after: $0)...] }?
                .split(separator: "&", omittingEmptySubsequences: true)
                .filter { field in
                    let rawName = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    return URLEncoding.percentDecode(rawName, plusAsSpace: true) != name
                }
                .map(String.init) ?? []
            fields.append(
                URLEncoding.percentEncodeQueryComponent(name) + "=" + URLEncoding.percentEncodeQueryComponent(value))
            return base + "?" + fields.joined(separator: "&") + url[fragmentStart...]
        }
    }
}
