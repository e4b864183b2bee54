public import FlowCore
public import Foundation

/// One request a ``MockServer`` answered: what was asked, who answered, with what status and how fast.
///
/// Secrets never reach it: the target's credential query values (`api_key`, `access_token`, …) and the values
/// of credential headers (`Authorization`, `Cookie`, `X-Api-Key`, …) are replaced by `***` when it is made, so
/// its ``logLine`` and ``json`` can be printed and served as they are.
public struct ServedCall: Sendable {
    /// Who answered a request.
    public enum Responder: Sendable, Hashable {
        /// A stub: its name, when it has one, how messages name it (`stub 'user'`, `stub #2`), and where it is
        /// written.
        case stub(name: String?, label: String, location: SourceLocation?)
        /// No stub matched: the answer was a 404 naming the closest stub.
        case unmatched
        /// One of the admin endpoints under ``MockServer/adminPrefix``.
        case admin
        /// Nobody: the request was refused before matching (its body was too large).
        case refused
    }

    /// The method.
    public var method: String
    /// The path and query as sent, with credential query values redacted: `/quote?api_key=***&q=oslo`.
    public var target: String
    /// The header fields as sent, with credential values redacted (`Bearer ***`).
    public var headers: HeaderFields
    /// Who answered.
    public var responder: Responder
    /// The response status.
    public var status: Int
    /// When the request arrived.
    public var receivedAt: Date
    /// How long the answer took, a stub's delay included.
    public var duration: Duration

    /// Creates a record, redacting the secrets of the target and headers.
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The path and query as sent.
    ///   - headers: The header fields as sent.
    ///   - responder: Who answered.
    ///   - status: The response status.
    ///   - receivedAt: When the request arrived.
    ///   - duration: How long the answer took.
    public init(
        method: String, target: String, headers: HeaderFields, responder: Responder, status: Int, receivedAt: Date,
        duration: Duration
    ) {
        self.method = method
        self.target = Self.redact(target: target)
        self.headers = HeaderFields(headers.map {
            HeaderFields.Field(name: $0.name, value: SecretRedactor.redact(headerValue: $0.value, named: $0.name))
        })
        self.responder = responder
        self.status = status
        self.receivedAt = receivedAt
        self.duration = duration
    }

    /// The request log's line for the call: `GET /user → 401 stub 'user' (3 ms)`, `GET /usr → 404 unmatched (0 ms)`.
    public var logLine: String {
        let who = switch responder {
        case .stub(_, let label, _): label
        case .unmatched: "unmatched"
        case .admin: "admin"
        case .refused: "refused"
        }
        return "\(method) \(target) → \(status) \(who) (\(duration.milliseconds) ms)"
    }

    /// The call as `GET /__flowrun/calls` lists it:
    ///
    /// ```json
    /// {"durationMs": 3, "headers": {"accept": "*/*", "authorization": "Bearer ***"}, "method": "GET",
    ///  "path": "/user", "status": 401, "stub": {"location": "banking.mock.yaml:9:5", "name": "user"},
    ///  "time": "2026-05-04T09:15:02.118Z"}
    /// ```
    ///
    /// `query` is there when the request had one; `stub` is `null` when no stub matched. A header sent more than
    /// once has its values joined with `, `.
    public var json: JSONValue {
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        var headerValues: [String: [String]] = [:]
        for field in headers { headerValues[field.name.lowercased(), default: []].append(field.value) }
        var object: [String: JSONValue] = [
            "method": .string(method),
            "path": .string(String(target[..<pathEnd])),
            "headers": .object(headerValues.mapValues { .string($0.joined(separator: ", ")) }),
            "status": .int(status),
            "time": .string(receivedAt.formatted(Self.timeFormat)),
            "durationMs": .int(duration.milliseconds),
        ]
        if pathEnd < target.endIndex { object["query"] = .string(String(target[target.index(after: pathEnd)...])) }
        if case .stub(let name, _, let location) = responder {
            var stub: [String: JSONValue] = [:]
            if let name { stub["name"] = .string(name) }
            if let location { stub["location"] = .string(location.description) }
            object["stub"] = .object(stub)
        } else {
            object["stub"] = .null
        }
        return .object(object)
    }

    /// A path and query with the values of credential query parameters replaced by `***`.
    static func redact(target: String) -> String {
        urlRedactor.redact(url: target)
    }

    /// A redactor that knows no secret, so applies only the URL rules; one for all calls.
    private static let urlRedactor = SecretRedactor()

    /// UTC, to the millisecond: `2026-05-04T09:15:02.118Z`.
    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
