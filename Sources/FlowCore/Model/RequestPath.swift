/// Where a request path's URL starts: the one place that decides whether a path is absolute.
///
/// The decoder, the compiler and the request builder all ask this type, so lint and a run never disagree:
///
/// - `"/users/{$inputs.id}"` is ``Origin/relative``: it is appended to the step's server URL.
/// - `"https://api.example/users"` is ``Origin/absolute``: the server is not used.
/// - `"{$inputs.base}/users"` is ``Origin/boundBase``: the leading expression's value is inserted as
///   written (not encoded as a segment) and decides at run time: an absolute `http(s)` URL, or a path that
///   starts with `/` and goes after the server URL. See ``RequestPath/checkBase(_:)``.
package enum RequestPath {
    /// Where a path's URL starts.
    package enum Origin: Sendable, Equatable {
        /// The path is an absolute `http://` or `https://` URL.
        case absolute
        /// The path starts with `/` and is appended to the server URL.
        case relative
        /// The path starts with an expression whose value gives the start of the URL.
        case boundBase
    }

    /// The origin of a path template.
    /// - Parameter path: The request's `path`.
    /// - Returns: `.boundBase` when the template starts with an embedded expression, `.absolute` when its
    ///   literal start is an `http(s)` URL, `.relative` otherwise.
    package static func origin(of path: ValueTemplate) -> Origin {
        switch path {
        case .string(let template, _):
            switch template.segments.first {
            case .expression?: return .boundBase
            case .literal(let text)?: return isAbsoluteURL(text) ? .absolute : .relative
            case nil: return .relative
            }
        case .literal(.string(let text)):
            return isAbsoluteURL(text) ? .absolute : .relative
        case .expression:
            return .boundBase
        default:
            return .relative
        }
    }

    /// Whether `text` starts with `http://` or `https://` (the scheme in any case, as RFC 3986 allows).
    /// - Parameter text: A URL or path.
    /// - Returns: Whether it is an absolute HTTP URL.
    ///
    /// Read byte by byte, without copying: every request whose URL is built at run time asks.
    package static func isAbsoluteURL(_ text: some StringProtocol) -> Bool {
        var bytes = text.utf8.makeIterator()
        // A letter of the scheme, in either case (`| 0x20` lower-cases an ASCII letter).
        func letter(_ expected: Unicode.Scalar) -> Bool {
            bytes.next().map { $0 | 0x20 == UInt8(ascii: expected) } ?? false
        }
        guard letter("h"), letter("t"), letter("t"), letter("p") else { return false }
        var next = bytes.next()
        if let byte = next, byte | 0x20 == UInt8(ascii: "s") { next = bytes.next() }
        return next == UInt8(ascii: ":") && bytes.next() == UInt8(ascii: "/") && bytes.next() == UInt8(ascii: "/")
    }

    /// Checks the value of a leading expression: an absolute `http(s)` URL, or a path starting with `/`,
    /// without a query, a fragment, white space, control characters or dot-segments.
    /// - Parameter base: The expression's value.
    /// - Returns: A sentence saying what is wrong with it, or `nil` when it can start a URL.
    package static func checkBase(_ base: String) -> String? {
        if isAbsoluteURL(base) {
            let afterScheme = base[base.index(after: base.firstIndex(of: ":")!)...].dropFirst(2)
            if afterScheme.prefix(while: { $0 != "/" }).isEmpty { return "it has no host" }
        } else if !base.hasPrefix("/") {
            return "it is neither an absolute http(s) URL nor a path starting with '/'"
        }
        if let found = base.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "it contains \(CharacterName.describe(found))"
        }
        if base.contains("?") || base.contains("#") {
            return "it contains a query or fragment ('?' or '#'), which a path prefix cannot carry"
        }
        if let dot = firstDotSegment(in: base) {
            return "it contains the dot-segment '\(dot)', which servers resolve away"
        }
        return nil
    }

    /// The first `.` or `..` segment of the path of `url` (an absolute URL or a path), before any query.
    /// - Parameter url: The text to search.
    /// - Returns: The dot-segment, or `nil` when the path has none.
    package static func firstDotSegment(in url: some StringProtocol) -> Substring? {
        var path = Substring(url).prefix { $0 != "?" && $0 != "#" }
        if isAbsoluteURL(path) {
            let afterScheme = path[path.index(after: path.firstIndex(of: ":")!)...].dropFirst(2)
            path = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        }
        return path.split(separator: "/", omittingEmptySubsequences: false).first(where: isDotSegment)
    }

    /// Whether a path segment is `.` or `..`, which servers and proxies resolve away (RFC 3986, 5.2.4),
    /// written plainly or percent-encoded (`%2e`, `%2E`): `%2E` is the same character to a server, which
    /// decodes it before it resolves dot-segments.
    /// - Parameter segment: One segment of a path, as sent.
    /// - Returns: Whether it is a dot-segment.
    package static func isDotSegment(_ segment: some StringProtocol) -> Bool {
        var dots = 0
        var rest = Substring(segment)
        while !rest.isEmpty, dots < 3 {
            if rest.first == "." {
                rest = rest.dropFirst()
            } else if rest.hasPrefix("%2e") || rest.hasPrefix("%2E") {
                rest = rest.dropFirst(3)
            } else {
                return false
            }
            dots += 1
        }
        return rest.isEmpty && (dots == 1 || dots == 2)
    }
}
