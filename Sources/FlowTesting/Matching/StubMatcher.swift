import FlowCore
import Foundation

/// What matching needs to know about one request, worked out once per dispatch rather than once per stub.
struct RequestFacts {
    let method: String
    /// The raw path, still percent-encoded.
    let path: String
    /// The raw path and query, as `GET /path?query` messages show them.
    let target: String
    /// The path segments, percent-decoded.
    let segments: [String]
    /// The query parameters, decoded, in order.
    let query: [(name: String, value: String)]
    let headers: HeaderFields
    /// The body as JSON, a form as an object of strings, other text as a string; `nil` without a body.
    let body: JSONValue?

    /// - Parameters:
    ///   - request: The request.
    ///   - readBody: Whether some stub matches on the body, so it is worth parsing.
    init(_ request: StepRequest, readBody: Bool) {
        let path = request.path
        let rawQuery = request.query
        self.path = path
        method = request.method
        target = path + (rawQuery.map { "?" + $0 } ?? "")
        segments = PathPattern.split(path).map { URLEncoding.percentDecode($0) }
        query = rawQuery.map { URLEncoding.parseQuery($0).map { (name: $0.0, value: $0.1) } } ?? []
        headers = request.headers
        body = readBody ? Self.bodyValue(request) : nil
    }

    /// The request body as a stub's `body:` compares with it: read by its `Content-Type` as a workflow reads a
    /// response (JSON, text as a string, a form as an object of strings, other bytes as
    /// `{ contentType, length, base64 }`), and a multipart body as an object of its parts by name.
    private static func bodyValue(_ request: StepRequest) -> JSONValue? {
        guard let bytes = request.body, !bytes.isEmpty else { return nil }
        let contentType = request.headers["Content-Type"]
        if let parts = MultipartFormData.parse(bytes, contentType: contentType) {
            var object: [String: JSONValue] = [:]
            for part in parts { object[part.name] = multipartValue(part) }
            return .object(object)
        }
        return (try? BodyFormat.read(bytes, contentType: contentType)) ?? .string(String(decoding: bytes, as: UTF8.self))
    }

    /// A field's value (its JSON when its `Content-Type` is JSON, else its text), or for a file part
    /// `{ filename, contentType, length, text }` (`base64` in place of `text` when the content is not UTF-8).
    private static func multipartValue(_ part: MultipartFormData.Part) -> JSONValue {
        guard let filename = part.filename else {
            if BodyFormat(contentType: part.contentType) == .json, let value = try? JSONValue(parsing: part.body) {
                return value
            }
            return .string(String(decoding: part.body, as: UTF8.self))
        }
        var file: [String: JSONValue] = ["filename": .string(filename), "length": .int(part.body.count)]
        if let contentType = part.contentType { file["contentType"] = .string(contentType) }
        if let text = String(validating: part.body, as: UTF8.self) {
            file["text"] = .string(text)
        } else {
            file["base64"] = .string(Data(part.body).base64EncodedString())
        }
        return .object(file)
    }
}

/// A ``MockStub`` ready to match: its path compiled and its responses built.
struct StubMatcher: Sendable {
    /// How well a stub fits a request.
    struct Evaluation {
        /// What differs, in words that never show header values, credential query values or body content.
        var mismatches: [String] = []
        /// Higher for a closer stub: the method counts most, then the path, then each other condition.
        var score = 0
    }

    let stub: MockStub
    /// The stub's zero-based position in its ``MockStubs``.
    let index: Int
    let path: PathPattern?
    let responses: [(response: StepResponse, delay: Duration?)]

    init(_ stub: MockStub, index: Int) {
        self.stub = stub
        self.index = index
        path = stub.match.path.map(PathPattern.init)
        responses = stub.responses.map { response in
            var headers = response.headers
            if case .json = response.body, headers["Content-Type"] == nil {
                headers.add("Content-Type", "application/json")
            }
            return (StepResponse(status: response.status, headers: headers, body: response.body?.bytes ?? []),
                    response.delay)
        }
    }

    /// Compares the stub's conditions with `request`.
    /// - Parameters:
    ///   - request: The request.
    ///   - stopAtFirst: Whether to stop at the first mismatch, when only "does it match" is asked.
    /// - Returns: What differs (nothing when the stub matches) and how close the stub is.
    func evaluate(_ request: RequestFacts, stopAtFirst: Bool) -> Evaluation {
        var result = Evaluation()
        let match = stub.match
        if let method = match.method {
            if method == request.method {
                result.score += 1000
            } else {
                result.mismatches.append("method is \(request.method), stub expects \(method)")
                if stopAtFirst { return result }
            }
        }
        if let path {
            if path.matches(request.segments) {
                result.score += 500
            } else {
                result.score += 10 * path.matchingCount(request.segments)
                result.mismatches.append("path \(request.path) does not match \(path.text)")
                if stopAtFirst { return result }
            }
        }
        for (name, expected) in match.query.sorted(by: { $0.key < $1.key }) {
            let actual = request.query.filter { $0.name == name }.map(\.value)
            if actual == expected {
                result.score += 1
                continue
            }
            let found = actual.joined(separator: ","), wanted = expected.joined(separator: ",")
            // A credential's value (`api_key`, `access_token`) is never shown, as header values are not.
            result.mismatches.append(
                actual.isEmpty ? "query parameter \(name) is missing"
                    : SecretRedactor.isCredentialParameter(name) ? "query parameter \(name) differs"
                    : "query parameter \(name) is \(found), stub expects \(wanted)")
            if stopAtFirst { return result }
        }
        for (name, expected) in match.headers.sorted(by: { $0.key < $1.key }) {
            let actual = request.headers.values(name)
            if actual.contains(expected) {
                result.score += 1
                continue
            }
            result.mismatches.append("header \(name) " + (actual.isEmpty ? "is missing" : "differs"))
            if stopAtFirst { return result }
        }
        for name in match.presentHeaders.sorted() {
            if request.headers.values(name).isEmpty {
                result.mismatches.append("header \(name) is missing")
                if stopAtFirst { return result }
            } else {
                result.score += 1
            }
        }
        for name in match.absentHeaders.sorted() {
            if request.headers.values(name).isEmpty {
                result.score += 1
            } else {
                result.mismatches.append("header \(name) is present, stub expects it absent")
                if stopAtFirst { return result }
            }
        }
        if let expected = match.body {
            if let actual = request.body {
                if let tokens = Self.difference(expected, actual, at: []) {
                    result.mismatches.append(
                        "body differs" + (tokens.isEmpty ? "" : " at \(JSONPointer(tokens: tokens))"))
                } else {
                    result.score += 1
                }
            } else {
                result.mismatches.append("the request has no body")
            }
        }
        return result
    }

    /// Where `actual` first fails to contain `expected`, as JSON pointer tokens; `nil` when it contains it.
    static func difference(_ expected: JSONValue, _ actual: JSONValue, at path: [String]) -> [String]? {
        switch (expected, actual) {
        case (.object(let expected), .object(let actual)):
            for key in expected.keys.sorted() {
                guard let member = actual[key] else { return path + [key] }
                if let tokens = difference(expected[key]!, member, at: path + [key]) { return tokens }
            }
            return nil
        case (.array(let expected), .array(let actual)):
            guard expected.count == actual.count else { return path }
            for (position, pair) in zip(expected, actual).enumerated() {
                if let tokens = difference(pair.0, pair.1, at: path + [String(position)]) { return tokens }
            }
            return nil
        case (.int, .double), (.double, .int), (.double, .double):
            return expected.doubleValue == actual.doubleValue ? nil : path
        default:
            return expected == actual ? nil : path
        }
    }
}
