public import FlowCore

/// One way a ``WorkflowTestCase`` failed: a short message and the lines of its diff.
///
/// ```
/// calls differ at call 3
///   expected: GET /user  with header Authorization: Bearer fresh
///   actual:   GET /user  (step user, attempt 1): header Authorization is 'Bearer stale'
/// ```
public struct WorkflowTestFailure: Sendable, Hashable, CustomStringConvertible {
    /// What part of the expectation a ``WorkflowTestFailure`` is about.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's stable name, as JSON and JUnit reports show it.
        public let name: String

        /// Creates a kind.
        /// - Parameter name: A kebab-case name.
        public init(_ name: String) { self.name = name }

        /// The kind's stable name.
        public var description: String { name }

        /// The run succeeded or failed when it should not have, or failed differently.
        public static let outcome = Kind("outcome")
        /// The workflow outputs differ.
        public static let outputs = Kind("outputs")
        /// The sequence of calls differs.
        public static let calls = Kind("calls")
        /// A step made a different number of attempts.
        public static let attempts = Kind("attempts")
        /// A `repeat` or `paginate` step ran a different number of iterations.
        public static let iterations = Kind("iterations")
        /// A `forEach` step had a different number of items.
        public static let items = Kind("items")
        /// A step ended with a different status.
        public static let steps = Kind("steps")
        /// The run took a different virtual time.
        public static let elapsed = Kind("elapsed")
        /// The case's virtual clock passed its limit, so the case was cancelled.
        public static let virtualTimeout = Kind("virtual-timeout")
        /// The case ran longer than its real-time limit, so it was cancelled.
        public static let wallTimeout = Kind("wall-timeout")
    }

    /// What part of the expectation failed.
    public var kind: Kind
    /// A one-line summary.
    public var message: String
    /// The diff: expected and actual values, one line each, without indentation.
    public var details: [String]
    /// Where the expectation that failed is written: the output, call or step entry, or the part of `expect`;
    /// `nil` for failures that no expectation states (a timeout of the case).
    public var location: SourceLocation?

    /// Creates a failure.
    /// - Parameters:
    ///   - kind: What part of the expectation failed.
    ///   - message: A one-line summary.
    ///   - details: The lines of the diff.
    ///   - location: Where the expectation that failed is written.
    public init(_ kind: Kind, _ message: String, details: [String] = [], location: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.details = details
        self.location = location
    }

    /// The message, then the details indented by two spaces, one per line.
    public var description: String {
        ([message] + details.map { "  " + $0 }).joined(separator: "\n")
    }
}
