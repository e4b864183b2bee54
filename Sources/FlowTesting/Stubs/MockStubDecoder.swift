import FlowCore
import Foundation

/// Turns the YAML node tree of a stub file into ``MockStub`` values, collecting every problem it finds.
///
/// It follows the workflow decoder: the same ``MappingReader`` for unknown
/// and missing keys, the same codes, and a part that cannot be decoded is
/// left out while the rest is still checked.
struct MockStubDecoder: DiagnosingDecoder {
    /// The problems found so far, in the order found.
    var diagnostics: [Diagnostic] = []

    static let topLevelKeys = ["flowrun-mock", "stubs"]
    static let stubKeys = ["name", "match", "respond"]
    static let matchKeys = ["method", "path", "query", "headers", "body"]
    static let responseKeys = ["status", "headers", "body", "text", "form", "base64", "delay"]
    /// The keys of a response that give its body; a response has at most one.
    static let responseBodyKeys = ["body", "text", "form", "base64"]
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// Decodes the stubs of a file from its root node.
    /// - Parameter root: The document's root node, as ``YAMLLoader`` returns it.
    /// - Returns: The stubs that decoded; check ``diagnostics``.
    mutating func decode(_ root: YAMLNode) -> [MockStub] {
        if root.scalar?.value == .null {
            report(.typeMismatch, "the mock file is empty; expected a mapping that starts with 'flowrun-mock: 1'", root)
            return []
        }
        guard let top = reader(root, "the mock file", Self.topLevelKeys, required: Self.topLevelKeys) else {
            return []
        }
        if let node = top["flowrun-mock"], !Self.isSupportedVersion(node) {
            let found = node.scalar?.text ?? node.kindDescription
            report(.unsupportedVersion,
                   "unsupported mock format version \(found); this flowrun reads 'flowrun-mock: 1'", node)
        }
        guard let stubsNode = top["stubs"] else { return [] }
        return stubList(stubsNode)
    }

    /// Decodes a sequence of stubs, the value of a `stubs:` key in a stub file or a workflow test file.
    ///
    /// Two stubs of one list may not share a name.
    /// - Parameter node: The node that should be a sequence of stubs.
    /// - Returns: The stubs that decoded; check ``diagnostics``.
    mutating func stubList(_ node: YAMLNode) -> [MockStub] {
        guard let elements = node.sequence else {
            report(.typeMismatch, "expected 'stubs' to be a sequence of stubs, found \(node.kindDescription)", node)
            return []
        }
        let stubs = elements.enumerated().compactMap { stub($1, number: $0 + 1) }
        // Tests select recorded calls by stub name, so a name must say which stub answered.
        var seen = Set<String>()
        for stub in stubs {
            guard let name = stub.name, !seen.insert(name).inserted, let location = stub.location else { continue }
            diagnostics.append(Diagnostic(.error, .duplicateName, "two stubs are named '\(name)'", at: location))
        }
        return stubs
    }

    private static func isSupportedVersion(_ node: YAMLNode) -> Bool {
        if case .int(let version)? = node.scalar?.value { return MockStubs.supportedVersions.contains(version) }
        return false
    }

    // MARK: Stubs

    private mutating func stub(_ node: YAMLNode, number: Int) -> MockStub? {
        let declaredName = node.mapping?.first { $0.key.scalar?.text == "name" }?.value.scalar?.text
        let label = declaredName.map { "stub '\($0)'" } ?? "stub #\(number)"
        guard let fields = reader(node, label, Self.stubKeys, required: ["respond"]) else { return nil }
        let name = fields["name"].flatMap { string($0, "the name of \(label)") }
        let match = fields["match"].map { conditions($0, label) } ?? MockStub.Match()
        guard let respondNode = fields["respond"] else { return nil }
        let elements = respondNode.sequence ?? [respondNode]
        if elements.isEmpty {
            report(.invalidValue, "'respond' of \(label) needs at least one response", respondNode)
            return nil
        }
        let responses = elements.compactMap { response($0, label) }
        guard responses.count == elements.count else { return nil }
        return MockStub(name: name, match: match, respond: responses, location: node.location)
    }

    private mutating func conditions(_ node: YAMLNode, _ label: String) -> MockStub.Match {
        guard let fields = reader(node, "'match' of \(label)", Self.matchKeys) else { return MockStub.Match() }
        return conditions(fields)
    }

    /// Decodes request conditions (`method`, `path`, `query`, `headers`, `body`) from a mapping already read.
    ///
    /// Workflow test files describe expected calls with the same keys, plus keys of their own, so the
    /// caller makes the reader with the keys it allows and this reads the ones a stub's `match` has.
    /// - Parameters:
    ///   - fields: The mapping, read with at least ``matchKeys`` allowed.
    ///   - headerMatchers: Whether a header value may carry any tag, for the caller to read (a test file's
    ///     `calls`); a stub's headers take only `!present` and `!absent`.
    /// - Returns: The conditions that decoded; check ``diagnostics``.
    mutating func conditions(_ fields: MappingReader, headerMatchers: Bool = false) -> MockStub.Match {
        var match = MockStub.Match()
        if let node = fields["method"], let method = string(node, "'method'") {
            if Self.methods.contains(method) {
                match.method = method
            } else {
                let upper = method.uppercased()
                let hint = Self.methods.contains(upper)
                    ? "; methods are upper-case: '\(upper)'" : Suggestion.didYouMean(upper, in: Self.methods)
                report(.invalidValue, "unknown HTTP method '\(method)'\(hint)", node)
            }
        }
        if let node = fields["path"], let path = string(node, "'path'") {
            if let problem = PathPattern.problem(in: path) {
                report(.invalidValue, problem, node)
            } else {
                match.path = path
            }
        }
        if let node = fields["query"] {
            for entry in namedEntries(node, "'query'", diagnostics: &diagnostics) ?? [] {
                let values = (entry.value.sequence ?? [entry.value]).compactMap {
                    scalarText($0, "the value of query parameter '\(entry.name.value)'")
                }
                match.query[entry.name.value] = values
            }
        }
        if let node = fields["headers"] {
            // `!present` and `!absent` stand for a field's presence; every other value is compared exactly.
            var valued: [YAMLPair] = []
            for pair in node.mapping ?? [] {
                switch pair.value.scalar?.tag {
                case let tag where headerMatchers && Self.isLocal(tag):
                    continue
                case Self.presentTag?: if let name = pair.key.scalar { match.presentHeaders.insert(name.text) }
                case Self.absentTag?: if let name = pair.key.scalar { match.absentHeaders.insert(name.text) }
                default: valued.append(pair)
                }
            }
            let rest = node.mapping == nil ? node : YAMLNode(.mapping(valued), at: node.location)
            for field in headers(rest) { match.headers[field.name] = field.value }
        }
        if let node = fields["query"] { refuseTags(in: node) }
        if let node = fields["body"] {
            refuseTags(in: node)
            match.body = json(node)
        }
        return match
    }

    private mutating func response(_ node: YAMLNode, _ label: String) -> MockStub.Response? {
        refuseTags(in: node)
        guard let fields = reader(node, "a response of \(label)", Self.responseKeys) else { return nil }
        var response = MockStub.Response()
        if let node = fields["status"] {
            guard case .int(let status)? = node.scalar?.value else {
                report(.typeMismatch,
                       "expected 'status' to be a status code such as 200, found \(node.kindDescription)", node)
                return nil
            }
            guard (100...599).contains(status) else {
                report(.invalidValue, "'status' must be from 100 to 599, found \(status)", node)
                return nil
            }
            response.status = status
        }
        if let node = fields["headers"] { response.headers = headers(node) }
        responseBody(fields, into: &response)
        if let node = fields["delay"] {
            guard case .string(let text)? = node.scalar?.value else {
                let found = node.kindDescription
                report(.typeMismatch,
                       "expected 'delay' to be a duration, found \(found); write a unit, such as 50ms or 2s", node)
                return nil
            }
            switch DurationParser.parse(text) {
            case .success(let delay): response.delay = delay
            case .failure(let error):
                report(.invalidValue, "\(error.message) (in 'delay')", node)
                return nil
            }
        }
        return response
    }

    /// Reads the body of a response, `body`, `text`, `form` or `base64`, and the `Content-Type` that the last
    /// three imply when the response's `headers` set none.
    private mutating func responseBody(_ fields: MappingReader, into response: inout MockStub.Response) {
        let present = Self.responseBodyKeys.filter { fields.contains($0) }
        for extra in present.dropFirst() {
            report(.invalidValue,
                   "a response has one body: 'body', 'text', 'form' or 'base64'; found '\(present[0])' and '\(extra)'",
                   fields.keyNode(extra) ?? fields[extra]!)
        }
        guard let kind = present.first, let node = fields[kind] else { return }
        var impliedType: String?
        switch kind {
        case "body":
            if case .string(let text)? = node.scalar?.value {
                response.body = .text(text)
            } else {
                response.body = .json(json(node))
            }
        case "text":
            guard let text = string(node, "'text'") else { return }
            response.body = .text(text)
            impliedType = "text/plain; charset=utf-8"
        case "form":
            var pairs: [(String, String)] = []
            for entry in namedEntries(node, "'form'", diagnostics: &diagnostics) ?? [] {
                for value in entry.value.sequence ?? [entry.value] {
                    guard let text = scalarText(value, "form field '\(entry.name.value)'") else { continue }
                    pairs.append((entry.name.value, text))
                }
            }
            response.body = .text(URLEncoding.formURLEncode(pairs))
            impliedType = "application/x-www-form-urlencoded"
        default:
            guard let text = string(node, "'base64'") else { return }
            let compact = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else {
                report(.invalidValue, "'base64' is not base64 (RFC 4648: A-Z, a-z, 0-9, '+', '/' and '=' padding)",
                       node)
                return
            }
            response.body = .bytes([UInt8](data))
            impliedType = "application/octet-stream"
        }
        if let impliedType, response.headers["Content-Type"] == nil {
            response.headers.add("Content-Type", impliedType)
        }
    }

    // MARK: Values

    /// The tag of a `match` header that the request must have, with any value.
    static let presentTag = "!present"
    /// The tag of a `match` header that the request must not have.
    static let absentTag = "!absent"
    /// The local tags a stub file may use, as the YAML loader must accept them.
    static let tags: Set<String> = [presentTag, absentTag]

    /// Whether `tag` is a local tag (`!present`), not a core one (`!!str`) or the non-specific `!`.
    private static func isLocal(_ tag: String?) -> Bool {
        guard let tag else { return false }
        return tag.hasPrefix("!") && !tag.hasPrefix("!!") && tag != "!"
    }

    /// Reports every scalar under `node` that carries a local tag: in a stub, `!present` and `!absent` mean
    /// something only as a value of `match.headers` (a test file's matchers, `!anystr` and others, are for its
    /// expectations).
    private mutating func refuseTags(in node: YAMLNode) {
        switch node.content {
        case .scalar(let scalar):
            guard Self.isLocal(scalar.tag), let tag = scalar.tag else { return }
            report(.invalidValue,
                   "'\(tag)' cannot be used here: in a stub, '!present' and '!absent' are values of 'match.headers'",
                   node)
        case .sequence(let elements):
            for element in elements { refuseTags(in: element) }
        case .mapping(let pairs):
            for pair in pairs { refuseTags(in: pair.value) }
        }
    }

    /// Header fields from a mapping of names to scalars; values may not carry CR or LF.
    private mutating func headers(_ node: YAMLNode) -> HeaderFields {
        var fields = HeaderFields()
        for entry in namedEntries(node, "'headers'", diagnostics: &diagnostics) ?? [] {
            refuseTags(in: entry.value)
            guard let value = scalarText(entry.value, "header '\(entry.name.value)'") else { continue }
            if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
                report(.invalidValue, "header '\(entry.name.value)' may not contain a line break", entry.value)
                continue
            }
            fields.add(entry.name.value, value)
        }
        return fields
    }
}
