public import FlowCore

/// A request that no stub of a ``MockDispatcher`` matches, with the stub that came closest and what differed.
///
/// ``MockDispatcher/dispatch(_:context:)`` throws it as a ``FlowError`` with code
/// ``FlowError/Code/mockUnmatched`` and ``message`` as its message; ``MockDispatcher/answer(_:context:)``
/// returns it, so a server can answer with its parts:
///
/// ```swift
/// if case .unmatched(let mismatch, _) = try await mock.answer(request, context: context) {
///     print(mismatch.closestStub?.differences ?? [])   // ["path /usr does not match /user"]
/// }
/// ```
public struct MockMismatch: Sendable, Hashable {
    /// The request's method.
    public var method: String
    /// The request's path and query as sent (still percent-encoded), with the values of credential query
    /// parameters redacted: `/users/1?page=3`, `/quote?api_key=***`.
    public var target: String
    /// The stub that came closest, or `nil` when there are no stubs.
    public var closestStub: ClosestStub?

    /// The stub that came closest to matching a request, and what differed.
    ///
    /// Closest means the method agrees before anything else, then the path, then each other condition; of
    /// equally close stubs, the first in file order.
    public struct ClosestStub: Sendable, Hashable {
        /// The stub's zero-based position in ``MockStubs/stubs``.
        public var index: Int
        /// The stub's name, when it has one.
        public var name: String?
        /// Where the stub is written, for stubs loaded from a file.
        public var location: SourceLocation?
        /// What differs, one phrase a condition, in words that never show header values, the values of
        /// credential query parameters (``SecretRedactor/isCredentialParameter(_:)``) or body content:
        /// `path /usr does not match /user`, `header Authorization differs`.
        public var differences: [String]

        /// Creates a description of the closest stub.
        /// - Parameters:
        ///   - index: The stub's zero-based position.
        ///   - name: The stub's name.
        ///   - location: Where the stub is written.
        ///   - differences: What differs.
        public init(index: Int, name: String?, location: SourceLocation?, differences: [String]) {
            self.index = index
            self.name = name
            self.location = location
            self.differences = differences
        }

        /// How messages name the stub: `stub 'user'`, or `stub #2` by its one-based position.
        public var label: String { MockStub.label(name: name, index: index) }
    }

    /// Creates a mismatch.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - target: The request's path and query.
    ///   - closestStub: The stub that came closest, if there are stubs.
    public init(method: String, target: String, closestStub: ClosestStub?) {
        self.method = method
        self.target = target
        self.closestStub = closestStub
    }

    /// The sentence an error shows: `no mock stub matches GET /usr; the closest is stub 'user'
    /// (banking.mock.yaml:9:5): path /usr does not match /user`.
    public var message: String {
        let text = "no mock stub matches \(method) \(target)"
        guard let closestStub else { return text + "; there are no stubs" }
        let place = closestStub.location.map { " (\($0))" } ?? ""
        return text + "; the closest is \(closestStub.label)\(place): "
            + closestStub.differences.joined(separator: "; ")
    }
}
