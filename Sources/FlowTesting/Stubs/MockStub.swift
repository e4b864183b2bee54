public import FlowCore

/// One canned answer of a ``MockDispatcher``: which requests it matches and what it responds.
///
/// Stubs usually come from a `*.mock.yaml` file through
/// ``MockStubs/load(yaml:path:)``; Swift tests can build them in code:
///
/// ```swift
/// let user = MockStub(
///     name: "user",
///     match: .init(method: "GET", path: "/user/{id}", headers: ["Authorization": "Bearer t-1"]),
///     respond: [
///         .init(status: 401),
///         .init(status: 200, body: .json(.object(["userId": .string("u-1")]))),
///     ]
/// )
/// ```
///
/// When a stub has several responses, successive matching calls get them in
/// order; after the last one, the last one repeats.
public struct MockStub: Sendable, Hashable {
    /// The name used in messages and in ``RecordedCall/stubName``, if the stub has one.
    public var name: String?
    /// The conditions a request must meet for this stub to answer it.
    public var match: Match
    /// The responses for successive matching calls; never empty. After the last, the last repeats.
    public var responses: [Response]
    /// Where the stub is written in its file, for messages; `nil` for stubs built in code.
    public var location: SourceLocation?

    /// Creates a stub with a sequence of responses.
    /// - Parameters:
    ///   - name: The name used in messages.
    ///   - match: The conditions a request must meet; the default matches every request.
    ///   - responses: The responses for successive calls; after the last, the last repeats. Must not be empty.
    ///   - location: Where the stub is written, for messages.
    public init(
        name: String? = nil,
        match: Match = Match(),
        respond responses: [Response],
        location: SourceLocation? = nil
    ) {
        precondition(!responses.isEmpty, "a mock stub needs at least one response")
        self.name = name
        self.match = match
        self.responses = responses
        self.location = location
    }

    /// Creates a stub that always gives the same response.
    /// - Parameters:
    ///   - name: The name used in messages.
    ///   - match: The conditions a request must meet; the default matches every request.
    ///   - response: The response to every matching call.
    ///   - location: Where the stub is written, for messages.
    public init(
        name: String? = nil,
        match: Match = Match(),
        respond response: Response,
        location: SourceLocation? = nil
    ) {
        self.init(name: name, match: match, respond: [response], location: location)
    }

    /// How messages name a stub: `stub 'user'`, or `stub #2` by its one-based position when it has no name.
    static func label(name: String?, index: Int) -> String {
        name.map { "stub '\($0)'" } ?? "stub #\(index + 1)"
    }

    /// The conditions of a ``MockStub``; a request must meet every one that is set.
    public struct Match: Sendable, Hashable {
        /// The method, upper-case; `nil` matches any method.
        public var method: String?
        /// The path pattern; `nil` matches any path.
        ///
        /// Segments are compared after percent-decoding. `{name}` matches any one
        /// non-empty segment, and a final `/**` matches the rest of the path,
        /// including nothing: `/files/**` matches `/files`, `/files/a` and
        /// `/files/a/b`. Every other segment must be equal.
        public var path: String?
        /// Query parameters the request must have, by name.
        ///
        /// The request's values for the name, decoded and in order, must equal the
        /// listed values; list several for a repeated parameter. Other parameters
        /// of the request are ignored.
        public var query: [String: [String]]
        /// Header fields the request must have: names compared case-insensitively, values exactly.
        ///
        /// A field matches when any of the request's fields of that name has the value.
        public var headers: [String: String]
        /// Header fields the request must have, whatever their values: a stub file's `Authorization: !present`.
        ///
        /// A recorded stub (`flowrun run --record`) matches a credential this way, so the file never holds it.
        public var presentHeaders: Set<String>
        /// Header fields the request must not have: a stub file's `X-Debug: !absent`.
        public var absentHeaders: Set<String>
        /// A JSON value the request body must contain; `nil` matches any body.
        ///
        /// Every member listed in an object must be present and match; the
        /// request may have more. Arrays must have the same length and match
        /// element by element. Numbers compare by value, so `1` matches `1.0`.
        /// The request body is read by its `Content-Type` as a workflow reads a
        /// response (``BodyFormat``): a form as an object of strings, text as one
        /// string (so `.string("ping")` matches the text body `ping`), other bytes
        /// as `{ contentType, length, base64 }`, and `multipart/form-data` as an
        /// object of its parts by name, a file part as
        /// `{ filename, contentType, length, text }` (`base64` for binary content).
        public var body: JSONValue?

        /// Creates conditions; those left out match anything.
        /// - Parameters:
        ///   - method: The method, upper-case.
        ///   - path: The path pattern, such as `/user/{id}` or `/files/**`.
        ///   - query: Query parameters the request must have.
        ///   - headers: Header fields the request must have.
        ///   - presentHeaders: Header fields the request must have, with any value; names compared
        ///     case-insensitively.
        ///   - absentHeaders: Header fields the request must not have.
        ///   - body: A JSON value the request body must contain.
        public init(
            method: String? = nil,
            path: String? = nil,
            query: [String: [String]] = [:],
            headers: [String: String] = [:],
            presentHeaders: Set<String> = [],
            absentHeaders: Set<String> = [],
            body: JSONValue? = nil
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.presentHeaders = presentHeaders
            self.absentHeaders = absentHeaders
            self.body = body
        }
    }

    /// One response of a ``MockStub``.
    public struct Response: Sendable, Hashable {
        /// The status code.
        public var status: Int
        /// The header fields.
        ///
        /// When the body is ``Body/json(_:)`` and no `Content-Type` is set, the
        /// dispatcher adds `Content-Type: application/json`.
        public var headers: HeaderFields
        /// The body, if any.
        public var body: Body?
        /// How long to wait, on the dispatcher's clock, before responding.
        public var delay: Duration?

        /// Creates a response.
        /// - Parameters:
        ///   - status: The status code.
        ///   - headers: The header fields.
        ///   - body: The body.
        ///   - delay: How long to wait before responding.
        public init(status: Int = 200, headers: HeaderFields = [:], body: Body? = nil, delay: Duration? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }
    }

    /// The body of a ``Response``.
    public enum Body: Sendable, Hashable {
        /// A JSON value, sent serialized with sorted keys.
        case json(JSONValue)
        /// Text, sent as its UTF-8 bytes exactly; set `Content-Type` yourself.
        ///
        /// A stub file's `text:` and `form:` bodies are text with a `Content-Type` set.
        case text(String)
        /// Any bytes, sent as they are; set `Content-Type` yourself (a stub file's `base64:` sets
        /// `application/octet-stream` unless its headers name one).
        case bytes([UInt8])

        /// The bytes sent on the wire.
        public var bytes: [UInt8] {
            switch self {
            case .json(let value): value.serializedBytes()
            case .text(let text): Array(text.utf8)
            case .bytes(let bytes): bytes
            }
        }
    }
}
