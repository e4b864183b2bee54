/// Builds the ``StepRequest`` of a step from its declared request and the values bound into it.
///
/// Values bound into a path segment or a query value are percent-encoded;
/// header values may not carry CR or LF; a JSON body is checked against the
/// step's `bodyType` before it leaves the machine.
struct RequestBuilder: Sendable {
    let plan: Plan
    let validator: JSONSchemaValidator

    func build(_ planned: PlannedStep, in scope: RunScope) throws(FlowError) -> StepRequest {
        let lowered = planned.loweredRequest
        var startsWithServer = false
        var url = try self.url(of: lowered, planned, in: scope, startsWithServer: &startsWithServer)
        var separator: Character = lowered.pathHasQuery ? "&" : "?"
        for item in lowered.query {
            let values: [String] =
                switch item.value {
                case .encoded(let values): values
                case .bound(let template) where item.isJSON:
                    try [URLEncoding.percentEncodeQueryComponent(scope.evaluate(template).interpolationText)]
                case .bound(let template):
                    try Self.queryValues(of: scope.evaluate(template), named: item.name)
                        .map(URLEncoding.percentEncodeQueryComponent)
                }
            let sent = item.commaSeparated ? Self.joinedQueryValue(values) : values
            for value in sent {
                url.append(separator)
                url += item.encodedName
                url.append("=")
                url += value
                separator = "&"
            }
        }

        var headers = lowered.initialHeaders
        // Room for what may be added, so the list is copied and grown once; a step that declares no header, sends
        // no `Idempotency-Key` and has no interceptor sends the initial list itself (a traceparent, when traced,
        // then copies it).
        if !lowered.headers.isEmpty || !planned.interceptors.isEmpty || planned.step.idempotencyKey {
            headers.reserveCapacity(lowered.headerCapacity)
        }
        for header in lowered.headers {
            switch header.value {
            case .fixed(let value?):
                headers.set(header.name, value)
            case .fixed(nil):
                continue
            case .bound(let template):
                // A null value leaves the header out, as it leaves a query parameter out.
                let evaluated = try scope.evaluate(template)
                if evaluated == .null { continue }
                let value = header.commaSeparated
                    ? try Self.listHeaderValue(evaluated, named: header.name) : evaluated.interpolationText
                try Self.checkHeaderValue(value, name: header.name)
                headers.set(header.name, value)
            }
        }
        var request = StepRequest(method: lowered.method, url: url, headers: headers)
        if startsWithServer {
            switch lowered.network {
            case .none: break
            case .fixed(let network): request.network = network
            case .bound(let server):
                request.network = try server.network.resolved(server: server.name.value, environment: scope.environment)
            }
        }
        switch planned.step.request.body {
        case .json(let template, _)?:
            let body = try scope.evaluate(template)
            if let type = planned.step.request.bodyType {
                let failures = validator.validate(body, against: type)
                if !failures.isEmpty {
                    throw FlowError(
                        .validation,
                        "the request body does not match its declared type, so it was not sent: "
                            + failures.map(\.description).joined(separator: "; "))
                }
            }
            request.body = body.serializedBytes()
            if request.headers["Content-Type"] == nil { request.headers.set("Content-Type", "application/json") }
        case .form(let fields, _)?:
            var formPairs: [(String, String)] = []
            for field in fields {
                for value in try Self.queryValues(of: scope.evaluate(field.value), named: field.name.value) {
                    formPairs.append((field.name.value, value))
                }
            }
            request.body = Array(URLEncoding.formURLEncode(formPairs).utf8)
            if request.headers["Content-Type"] == nil {
                request.headers.set("Content-Type", "application/x-www-form-urlencoded")
            }
        case .text(let template, let contentType, _)?:
            try setTextBody(template, contentType: contentType, on: &request, in: scope)
        case .multipart(let parts, _)?:
            try setMultipartBody(parts, of: planned, on: &request, in: scope)
        case nil:
            break
        }
        return request
    }

    /// The URL up to the declared query: the base and the path, with bound values percent-encoded as
    /// path-segment text and literal text kept as written.
    ///
    /// A leading expression gives the start of the URL and is inserted as written, once
    /// ``RequestPath/checkBase(_:)`` accepts it. A bound value that makes a whole segment `.`, `..` or empty is
    /// refused: servers and proxies resolve dot-segments away, so data from an earlier step could send this
    /// request (a `DELETE` included) to another resource.
    /// - Parameter startsWithServer: Set when the URL starts with the server's URL, so the server's network
    ///   settings apply.
    private func url(
        of lowered: LoweredRequest, _ planned: PlannedStep, in scope: RunScope, startsWithServer: inout Bool
    ) throws(FlowError) -> String {
        if let error = lowered.pathError { throw error }
        // A fixed server and no leading expression: the base and the path's literal start are written out already.
        if let prefix = lowered.urlPrefix {
            startsWithServer = true
            if lowered.fixedPath != nil { return prefix }
            var url = prefix
            url.reserveCapacity(prefix.utf8.count + lowered.capacityHint)
            try appendBoundPath(of: lowered, planned, to: &url, in: scope)
            return url
        }
        // A leading expression whose value is an absolute URL needs no server.
        var start: String?
        if let expression = lowered.start {
            var base = try scope.value(of: expression).interpolationText
            if let problem = RequestPath.checkBase(base) {
                throw FlowError(
                    .binding,
                    "the start of the path of step '\(planned.id)', {\(expression)}, is '\(base)': \(problem)",
                    at: planned.step.request.pathLocation)
            }
            while base.hasSuffix("/") { base.removeLast() }
            start = base
        }
        var url: String
        switch lowered.base {
        case .none:
            url = ""
        case _ where start.map(RequestPath.isAbsoluteURL) == true:
            url = ""
        case .fixed(let base):
            url = base
            startsWithServer = true
            // Room for the path and the query, so appending does not grow the string step by step.
            url.reserveCapacity(base.utf8.count + lowered.capacityHint)
        case .server(let server):
            url = try scope.evaluateText(server.url)
            while url.hasSuffix("/") { url.removeLast() }
            guard RequestPath.isAbsoluteURL(url) else {
                throw FlowError(
                    .binding, "server '\(server.name.value)' has URL '\(url)', which is not an absolute http(s) URL",
                    at: server.name.location)
            }
            startsWithServer = true
        case .missing:
            var path = start ?? ""
            try appendPath(of: lowered, planned, to: &path, in: scope)
            throw FlowError(
                .binding, "step '\(planned.id)' has a relative path ('\(path)') and no server",
                at: planned.step.request.pathLocation)
        }
        if let start { url += start }
        try appendPath(of: lowered, planned, to: &url, in: scope)
        return url
    }

    /// Appends the path after its leading expression, if any, to `url`.
    private func appendPath(
        of lowered: LoweredRequest, _ planned: PlannedStep, to url: inout String, in scope: RunScope
    ) throws(FlowError) {
        if let fixedPath = lowered.fixedPath {
            url += fixedPath
            return
        }
        url += lowered.leadingPath
        try appendBoundPath(of: lowered, planned, to: &url, in: scope)
    }

    /// Appends the path from its first bound segment on (``LoweredRequest/firstBoundSegment``), and its tail, to
    /// `url`, which ends with the path's ``LoweredRequest/leadingPath``.
    private func appendBoundPath(
        of lowered: LoweredRequest, _ planned: PlannedStep, to url: inout String, in scope: RunScope
    ) throws(FlowError) {
        let segments = lowered.segments
        for index in lowered.firstBoundSegment..<segments.count {
            let segment = segments[index]
            if index > lowered.firstBoundSegment { url.append("/") }
            guard segment.isBound else {
                for case .literal(let text) in segment.parts { url += text }
                continue
            }
            let segmentStart = url.utf8.count
            for part in segment.parts { url += try text(of: part, in: scope) }
            // Only a segment of at most two bytes can be empty or a dot-segment: longer ones are not looked at.
            if url.utf8.count - segmentStart <= 2, Self.isEmptyOrDotSegment(url.utf8.dropFirst(segmentStart)) {
                let written = url.utf8.dropFirst(segmentStart)
                let found = written.isEmpty
                    ? "is empty, which leaves an empty path segment"
                    : "makes the path segment '\(String(decoding: written, as: UTF8.self))', a dot-segment that servers "
                        + "resolve away"
                let expression = segment.parts.lazy.compactMap { part -> RuntimeExpression? in
                    if case .bound(let expression) = part { expression } else { nil }
                }.first!
                throw FlowError(
                    .binding,
                    "the value of {\(expression)} in the path of step '\(planned.id)' \(found), so the request "
                        + "could reach another resource; it was not sent",
                    at: planned.step.request.pathLocation)
            }
        }
        for part in lowered.tail { url += try text(of: part, in: scope) }
    }

    /// Whether a path segment of at most two bytes is empty, `.` or `..`: whether every byte is a dot.
    private static func isEmptyOrDotSegment(_ bytes: Substring.UTF8View) -> Bool {
        bytes.allSatisfy { $0 == UInt8(ascii: ".") }
    }

    /// The text of one piece of a path: literal text as written, a bound value percent-encoded as a segment.
    private func text(of part: LoweredRequest.PathPart, in scope: RunScope) throws(FlowError) -> String {
        switch part {
        case .literal(let text): text
        case .bound(let expression): URLEncoding.percentEncodePathSegment(try scope.value(of: expression).interpolationText)
        }
    }

    /// The values a query parameter or form field sends, as text: a list sends one per element, `null` none.
    static func queryValues(
        of value: JSONValue, named name: String, what: String = "query parameter"
    ) throws(FlowError) -> [String] {
        switch value {
        case .null: return []
        case .array(let elements):
            var values: [String] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                if element.isContainer {
                    throw FlowError(
                        .binding,
                        "\(what) '\(name)' is bound to a list that holds \(element.typeName == "array" ? "a list" : "an object"), "
                            + "which has no query form; a \(what) takes a scalar or a list of scalars")
                }
                if element != .null { values.append(element.interpolationText) }
            }
            return values
        case .object:
            throw FlowError(.binding, "\(what) '\(name)' is bound to an object, which has no query form")
        default: return [value.interpolationText]
        }
    }

    /// The value of a header that sends a list as its elements separated by commas (OpenAPI's `simple` style):
    /// `a,b`; a scalar as itself.
    /// - Throws: ``FlowError`` with code `binding` for an object or a list that holds a list or an object.
    static func listHeaderValue(_ value: JSONValue, named name: String) throws(FlowError) -> String {
        try queryValues(of: value, named: name, what: "header").joined(separator: ",")
    }

    /// Encoded query values sent as one value, separated by unencoded commas (OpenAPI's `form` style with
    /// `explode: false`: `ids=1,2,3`); no values send no parameter.
    static func joinedQueryValue(_ encoded: [String]) -> [String] {
        encoded.isEmpty ? [] : [encoded.joined(separator: ",")]
    }

    /// The `User-Agent` every request sends.
    static let userAgent = "flowrun/\(FlowCoreVersion.current)"

    /// Refuses a header value that would split the header (CR or LF) or carry other control characters.
    static func checkHeaderValue(_ value: String, name: String) throws(FlowError) {
        guard let problem = headerValueProblem(value) else { return }
        throw FlowError(.binding, "the value bound into header \(name) \(problem)")
    }

    /// What makes `value` unfit for a header: "contains a line feed (U+000A), which would split the header", or
    /// `nil` when it is fit.
    static func headerValueProblem(_ value: String) -> String? {
        // On the bytes: in UTF-8, these three scalars are exactly these three bytes.
        let isLineBreakOrNUL: (UInt8) -> Bool = { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
        guard ASCIISearch.containsByte(in: value, where: isLineBreakOrNUL) else { return nil }
        let found = value.unicodeScalars.first { $0 == "\r" || $0 == "\n" || $0 == "\0" }!
        let why = found == "\0" ? "which no header may carry" : "which would split the header"
        return "contains \(CharacterName.describe(found)), \(why)"
    }
}

/// The version of the FlowCore library, sent in `User-Agent`.
public enum FlowCoreVersion {
    /// The version string.
    public static let current = "0.1.0"
}
