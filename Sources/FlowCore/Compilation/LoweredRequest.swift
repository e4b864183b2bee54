/// A step's request, lowered once when the plan is made: everything about it that does not depend on the run
/// is worked out here, so that building the request at every attempt only evaluates the bound values and puts
/// the pieces together.
///
/// The declared request (``Request``) keeps the file's shape, for lint, graphs and messages. The lowered one
/// has the shape of what goes out:
///
/// - the base URL of a server whose `url` binds nothing, checked and without its trailing `/`;
/// - where the URL starts (``RequestPath/Origin``), known from the path as written, so no built URL is parsed
///   again to find out whether it is absolute;
/// - the path split at its literal `/` into segments, each knowing whether a bound value is part of it (only
///   those are checked for `.`, `..` and empty segments), and the literal text after a `?` or `#`;
/// - query names percent-encoded, literal query values encoded, literal header values as they are sent;
/// - the headers every request starts with (`Accept`, `User-Agent`).
///
/// ``RequestBuilder`` turns it into a ``StepRequest``, writing the URL once.
///
/// A class, as immutable as the plan that holds it: the builder reads it at every attempt, and a struct of this
/// many arrays and strings was copied field by field, a reference count each, for every request.
final class LoweredRequest: Sendable {
    /// Where the URL of the request starts.
    enum Base: Sendable {
        /// The path is an absolute URL. (A path that starts with an expression takes the server's base unless
        /// the expression's value is an absolute URL.)
        case none
        /// The URL of a server that binds nothing: absolute, without a trailing `/`.
        case fixed(String)
        /// The URL of a server that binds a value (`{$env.BANK_URL}`), evaluated at every request.
        case server(BoundServerURL)
        /// No server, for a relative path: lint refuses this; a request of it fails with a binding error.
        case missing
    }

    /// The name and URL template of a server whose URL binds a value: an object, so that reading a request's
    /// ``base`` at every request copies one reference rather than the whole server, its network settings
    /// included.
    final class BoundServerURL: Sendable {
        let name: Located<String>
        let url: ValueTemplate

        init(name: Located<String>, url: ValueTemplate) {
            self.name = name
            self.url = url
        }
    }

    /// The network settings of the server whose URL the request starts with.
    enum Network: Sendable {
        /// The URL starts with no server's, or the server sets none.
        case none
        /// Settings that read no `$env`, resolved once.
        case fixed(ServerNetwork)
        /// Settings that read `$env`, resolved at every request.
        case bound(Server)
    }

    /// One piece of a path: text as written, or a bound value, percent-encoded as path-segment text.
    enum PathPart: Sendable {
        case literal(String)
        case bound(RuntimeExpression)
    }

    /// The text between two literal `/` of a path.
    struct PathSegment: Sendable {
        var parts: [PathPart]
        /// Whether a bound value is part of the segment: only such a segment is refused when it comes out
        /// empty, `.` or `..`.
        var isBound: Bool
    }

    /// One query parameter: its name, encoded, and its value.
    struct QueryItem: Sendable {
        var name: String
        var encodedName: String
        var value: Value
        /// Whether a list is sent as one comma-separated value (OpenAPI's `form` with `explode: false`).
        var commaSeparated = false
        /// Whether the value is sent as its JSON text, whatever its type (OpenAPI's `content` parameters).
        var isJSON = false

        enum Value: Sendable {
            /// A value that binds nothing, already encoded: one entry per parameter it sends (a list sends
            /// several, `null` none).
            case encoded([String])
            /// A value evaluated at every request.
            case bound(ValueTemplate)
        }
    }

    /// One declared header: its name and value.
    struct Header: Sendable {
        var name: String
        var value: Value
        /// Whether a list is sent as its elements separated by commas (an OpenAPI `simple` list header).
        var commaSeparated = false

        enum Value: Sendable {
            /// A value that binds nothing, checked: `nil` for a `null` value, which leaves the header out.
            case fixed(String?)
            /// A value evaluated at every request.
            case bound(ValueTemplate)
        }
    }

    /// The method, upper-case.
    let method: String
    let base: Base
    /// The network settings of the server in ``base``; they apply when the URL does start with the server's.
    let network: Network
    /// An expression at the very start of the path, whose value gives the start of the URL.
    let start: RuntimeExpression?
    /// The path after ``start``, up to a literal `?` or `#`, split at its literal `/`.
    let segments: [PathSegment]
    /// The literal text from the path's first literal `?` or `#` on, with its bound values; not checked.
    let tail: [PathPart]
    /// The whole path when it binds nothing, for ``segments`` and ``tail`` written out once.
    let fixedPath: String?
    /// The position in ``segments`` of the first segment that binds a value; `segments.count` when none does.
    let firstBoundSegment: Int
    /// The segments before ``firstBoundSegment`` written out once, with the `/` that follows them when a bound
    /// segment does: what every URL of the step has after its base (and ``start``) before the first bound value.
    let leadingPath: String
    /// For a fixed base (``Base/fixed(_:)``) and no ``start``: the base followed by the path up to its first bound
    /// value, or by the whole path when it binds nothing (``fixedPath``). Every URL of the step begins with it, so
    /// a request writes only what its bound values add.
    let urlPrefix: String?
    /// Whether the path as written carries a query (a literal `?`), so declared query parameters join it with `&`.
    let pathHasQuery: Bool
    let query: [QueryItem]
    let headers: [Header]
    /// The header fields every request of the step starts with.
    let initialHeaders: HeaderFields
    /// How many header fields to make room for: the initial ones, the declared ones and a few the engine and
    /// the usual interceptors add, so the list is allocated once.
    let headerCapacity: Int
    /// The path is not a string (lint refuses this): every request fails with this error.
    let pathError: FlowError?
    /// About how many bytes the path and query take: their literal text, and 24 for each bound value.
    let capacityHint: Int

    /// Lowers `request`, sent to `server` (`nil` when the path needs none or the step has none).
    init(_ request: Request, server: Server?) {
        method = request.method.value
        let origin = RequestPath.origin(of: request.path)
        switch origin {
        case .absolute: base = .none
        case .relative, .boundBase:
            if let server {
                if case .literal(let value) = server.url, var url = value.stringValue, RequestPath.isAbsoluteURL(url) {
                    while url.hasSuffix("/") { url.removeLast() }
                    base = .fixed(url)
                } else {
                    base = .server(BoundServerURL(name: server.name, url: server.url))
                }
            } else {
                base = .missing
            }
        }

        network = Self.network(of: server, base: base)

        var parts: [PathPart] = []
        var pathError: FlowError?
        switch request.path {
        case .literal(let value): parts = [.literal(value.stringValue ?? "")]
        case .expression(let expression, _): parts = [.bound(expression)]
        case .string(let template, _):
            parts = template.segments.map { segment in
                switch segment {
                case .literal(let text): .literal(text)
                case .expression(let expression, _): .bound(expression)
                }
            }
        default:
            pathError = FlowError(.binding, "a request path must be a string", at: request.pathLocation)
        }
        self.pathError = pathError
        if case .bound(let expression)? = parts.first, origin == .boundBase {
            start = expression
            parts.removeFirst()
        } else {
            start = nil
        }
        (segments, tail) = Self.split(parts)
        pathHasQuery = tail.contains { part in
            if case .literal(let text) = part { ASCIISearch.contains("?", in: text) } else { false }
        }
        if start == nil, !segments.contains(where: \.isBound), tail.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            fixedPath = Self.text(of: segments) + tail.map { if case .literal(let text) = $0 { text } else { "" } }.joined()
        } else {
            fixedPath = nil
        }
        let firstBoundSegment = segments.firstIndex(where: \.isBound) ?? segments.count
        self.firstBoundSegment = firstBoundSegment
        // The `/` after the leading segments belongs to them when a bound segment follows.
        leadingPath = Self.text(of: Array(segments[..<firstBoundSegment]))
            + (firstBoundSegment > 0 && firstBoundSegment < segments.count ? "/" : "")
        if case .fixed(let base) = base, start == nil {
            urlPrefix = base + (fixedPath ?? leadingPath)
        } else {
            urlPrefix = nil
        }

        query = request.query.map { binding in
            let name = binding.name.value
            let encodedName = URLEncoding.percentEncodeQueryComponent(name)
            let commaSeparated = request.commaSeparatedQuery.contains(name)
            if request.jsonQuery.contains(name) {
                var item = QueryItem(name: name, encodedName: encodedName, value: .bound(binding.value))
                item.isJSON = true
                return item
            }
            guard case .literal(let value) = binding.value,
                let values = try? RequestBuilder.queryValues(of: value, named: name)
            else {
                return QueryItem(
                    name: name, encodedName: encodedName, value: .bound(binding.value), commaSeparated: commaSeparated)
            }
            let encoded = values.map(URLEncoding.percentEncodeQueryComponent)
            return QueryItem(
                name: name, encodedName: encodedName,
                value: .encoded(commaSeparated ? RequestBuilder.joinedQueryValue(encoded) : encoded))
        }
        headers = request.headers.map { binding in
            let name = binding.name.value
            let commaSeparated = request.commaSeparatedHeaders.contains(name)
            guard case .literal(let value) = binding.value else {
                return Header(name: name, value: .bound(binding.value), commaSeparated: commaSeparated)
            }
            // The compiler refused a literal value no header may carry.
            let text = commaSeparated ? try? RequestBuilder.listHeaderValue(value, named: name) : value.interpolationText
            return Header(name: name, value: .fixed(value == .null ? nil : text))
        }
        var capacityHint = 0
        for part in segments.flatMap(\.parts) + tail {
            if case .literal(let text) = part { capacityHint += text.utf8.count + 1 } else { capacityHint += 24 }
        }
        for item in query {
            if case .encoded(let values) = item.value {
                capacityHint += values.reduce(0) { $0 + item.encodedName.utf8.count + $1.utf8.count + 2 }
            } else {
                capacityHint += item.encodedName.utf8.count + 24
            }
        }
        self.capacityHint = capacityHint
        initialHeaders = HeaderFields([
            HeaderFields.Field(name: "Accept", value: "application/json"),
            HeaderFields.Field(name: "User-Agent", value: RequestBuilder.userAgent),
        ])
        headerCapacity = request.headers.count + 8
    }

    /// The network settings of `server` when the request's URL may start with its URL.
    private static func network(of server: Server?, base: Base) -> Network {
        guard let server, !server.network.isEmpty else { return .none }
        switch base {
        case .none, .missing: return .none
        case .fixed, .server: break
        }
        let readsNothing = server.network.templates.allSatisfy { if case .literal = $0.value.value { true } else { false } }
        guard readsNothing, let resolved = try? server.network.resolved(server: server.name.value, environment: [:])
        else { return .bound(server) }
        return .fixed(resolved)
    }

    /// Splits path parts at their literal `/` into segments, up to the first literal `?` or `#`; the rest is the
    /// tail.
    private static func split(_ parts: [PathPart]) -> (segments: [PathSegment], tail: [PathPart]) {
        var segments: [PathSegment] = []
        var current = PathSegment(parts: [], isBound: false)
        var tail: [PathPart] = []
        var inPath = true
        for part in parts {
            guard inPath else {
                tail.append(part)
                continue
            }
            switch part {
            case .bound:
                current.parts.append(part)
                current.isBound = true
            case .literal(let text):
                var piece = Substring(text)
                while let separator = piece.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
                    if separator > piece.startIndex { current.parts.append(.literal(String(piece[..<separator]))) }
                    segments.append(current)
                    current = PathSegment(parts: [], isBound: false)
                    if piece[separator] == "/" {
                        piece = piece[piece.index(after: separator)...]
                    } else {
                        inPath = false
                        tail.append(.literal(String(piece[separator...])))
                        piece = ""
                        break
                    }
                }
                if inPath, !piece.isEmpty { current.parts.append(.literal(String(piece))) }
            }
        }
        if inPath { segments.append(current) }
        return (segments, tail)
    }

    /// The literal segments joined by `/`.
    private static func text(of segments: [PathSegment]) -> String {
        segments.map { segment in
            segment.parts.map { if case .literal(let text) = $0 { text } else { "" } }.joined()
        }.joined(separator: "/")
    }
}
