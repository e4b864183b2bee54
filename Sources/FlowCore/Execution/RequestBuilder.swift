/// Builds the ``StepRequest`` of a step from its declared request and the values bound into it.
///
/// Values bound into a path segment or a query value are percent-encoded;
/// header values may not carry CR or LF; a JSON body is checked against the
/// step's `bodyType` before it leaves the machine.
struct RequestBuilder: Sendable {
    let plan: Plan
    let validator: JSONSchemaValidator

    func build(_ planned: PlannedStep, in scope: RunScope) throws(FlowError) -> StepRequest {
        let declared = planned.step.request
        var url = try path(declared.path, of: planned, in: scope)
        if !RequestPath.isAbsoluteURL(url) {
            guard let server = planned.server else {
                throw FlowError(
                    .binding, "step '\(planned.id)' has a relative path ('\(url)') and no server",
                    at: declared.pathLocation)
            }
            var base = try scope.evaluateText(server.url)
            while base.hasSuffix("/") { base.removeLast() }
            guard RequestPath.isAbsoluteURL(base) else {
                throw FlowError(
                    .binding, "server '\(server.name.value)' has URL '\(base)', which is not an absolute http(s) URL",
                    at: server.name.location)
            }
            url = base + url
        }
        var pairs: [(String, String)] = []
        for binding in declared.query {
            try appendQueryValue(scope.evaluate(binding.value), named: binding.name.value, to: &pairs)
        }
        if !pairs.isEmpty {
            let query = pairs.map {
                URLEncoding.percentEncodeQueryComponent($0.0) + "=" + URLEncoding.percentEncodeQueryComponent($0.1)
            }.joined(separator: "&")
            url += (ASCIISearch.contains("?", in: url) ? "&" : "?") + query
        }

        // Room for the declared headers and the few the engine and the usual interceptors add, so
        // the list is allocated once.
        var fields: [HeaderFields.Field] = []
        fields.reserveCapacity(declared.headers.count + 8)
        fields.append(HeaderFields.Field(name: "Accept", value: "application/json"))
        fields.append(HeaderFields.Field(name: "User-Agent", value: Self.userAgent))
        var request = StepRequest(method: declared.method.value, url: url, headers: HeaderFields(fields))
        for binding in declared.headers {
            // A null value leaves the header out, as it leaves a query parameter out.
            let evaluated = try scope.evaluate(binding.value)
            if evaluated == .null { continue }
            let value = evaluated.interpolationText
            try Self.checkHeaderValue(value, name: binding.name.value)
            request.headers.set(binding.name.value, value)
        }
        switch declared.body {
        case .json(let template, _)?:
            let body = try scope.evaluate(template)
            if let type = declared.bodyType {
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
                try appendQueryValue(scope.evaluate(field.value), named: field.name.value, to: &formPairs)
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

    /// The path with bound values percent-encoded as path-segment text; literal text is kept as written.
    ///
    /// A leading expression gives the start of the URL and is inserted as written, once
    /// ``RequestPath/checkBase(_:)`` accepts it. A bound value that makes a whole segment `.`, `..` or empty is
    /// refused: servers and proxies resolve dot-segments away, so data from an earlier step could send this
    /// request (a `DELETE` included) to another resource.
    private func path(_ template: ValueTemplate, of planned: PlannedStep, in scope: RunScope) throws(FlowError)
        -> String
    {
        let location = planned.step.request.pathLocation
        let segments: [StringTemplate.Segment]
        switch template {
        case .literal(let value):
            return value.stringValue ?? ""
        case .expression(let expression, _):
            segments = [.expression(expression, offset: 0)]
        case .string(let stringTemplate, _):
            segments = stringTemplate.segments
        default:
            throw FlowError(.binding, "a request path must be a string", at: location)
        }
        var text = ""
        var check = PathSegmentCheck()
        for (position, segment) in segments.enumerated() {
            switch segment {
            case .literal(let literal):
                text += literal
                check.append(literal, bound: nil)
            case .expression(let expression, _) where position == 0:
                var base = try scope.value(of: expression).interpolationText
                if let problem = RequestPath.checkBase(base) {
                    throw FlowError(
                        .binding,
                        "the start of the path of step '\(planned.id)', {\(expression)}, is '\(base)': \(problem)",
                        at: location)
                }
                while base.hasSuffix("/") { base.removeLast() }
                text += base
            case .expression(let expression, _):
                let value = URLEncoding.percentEncodePathSegment(try scope.value(of: expression).interpolationText)
                text += value
                check.append(value, bound: expression)
            }
        }
        check.finish()
        if let (expression, segmentText) = check.refused {
            let found = segmentText.isEmpty
                ? "is empty, which leaves an empty path segment"
                : "makes the path segment '\(segmentText)', a dot-segment that servers resolve away"
            throw FlowError(
                .binding,
                "the value of {\(expression)} in the path of step '\(planned.id)' \(found), so the request "
                    + "could reach another resource; it was not sent",
                at: location)
        }
        return text
    }

    /// Adds a query or form value: arrays become repeated parameters, `null` is left out.
    private func appendQueryValue(_ value: JSONValue, named name: String, to pairs: inout [(String, String)])
        throws(FlowError)
    {
        switch value {
        case .null: break
        case .array(let elements):
            for element in elements {
                if element.isContainer {
                    throw FlowError(
                        .binding,
                        "query parameter '\(name)' is bound to a list that holds \(element.typeName == "array" ? "a list" : "an object"), "
                            + "which has no query form; a query parameter takes a scalar or a list of scalars")
                }
                try appendQueryValue(element, named: name, to: &pairs)
            }
        case .object:
            throw FlowError(.binding, "query parameter '\(name)' is bound to an object, which has no query form")
        default: pairs.append((name, value.interpolationText))
        }
    }

    /// The `User-Agent` every request sends.
    static let userAgent = "flowrun/\(FlowCoreVersion.current)"

    /// Refuses a header value that would split the header (CR or LF) or carry other control characters.
    static func checkHeaderValue(_ value: String, name: String) throws(FlowError) {
        // On the bytes: in UTF-8, these three scalars are exactly these three bytes.
        let isLineBreakOrNUL: (UInt8) -> Bool = { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
        guard ASCIISearch.containsByte(in: value, where: isLineBreakOrNUL) else { return }
        let found = value.unicodeScalars.first { $0 == "\r" || $0 == "\n" || $0 == "\0" }!
        let why = found == "\0" ? "which no header may carry" : "which would split the header"
        throw FlowError(
            .binding, "the value bound into header \(name) contains \(CharacterName.describe(found)), \(why)")
    }
}

/// The version of the FlowCore library, sent in `User-Agent`.
public enum FlowCoreVersion {
    /// The version string.
    public static let current = "0.1.0"
}
