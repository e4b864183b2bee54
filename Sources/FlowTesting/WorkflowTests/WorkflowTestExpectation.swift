public import FlowCore

/// What a run of a ``WorkflowTestCase`` must do: its outcome, outputs, calls, attempts, step statuses and time.
///
/// Every part except ``outcome`` is optional; a part left out is not checked. In a test file:
///
/// ```yaml
/// expect:
///   outcome: success                    # the default; or failure, or { failure: { kind, step, status, message } }
///   outputs: { username: ada }          # a subset; `outputs-exact:` for exactly these
///   calls: [GET /user, POST /oauth/token, { method: GET, path: /user, headers: { Authorization: Bearer fresh } }]
///   attempts: { user: 1 }               # attempts per step, over every run of the step
///   iterations: { poll: 3 }             # iterations (pages) of a repeat or paginate step
///   items: { details: 12 }              # items of a forEach step
///   steps: { transactions: recovered }  # each step's last status
///   elapsed: 1.4s                       # virtual time, exactly; or { min: 1s, max: 2s }
/// ```
public struct WorkflowTestExpectation: Sendable {
    /// How the run must end.
    public enum Outcome: Sendable, Hashable {
        /// The run succeeds (a `catch` rule's fallback or `end` counts as success).
        case success
        /// The run fails with an error that fits the description.
        case failure(Failure)
    }

    /// Which failure a run must end with; a field left `nil` matches anything.
    public struct Failure: Sendable, Hashable {
        /// The error kind (``FlowError/Code`` name); a kind covers its sub-kinds, as in `catch` rules:
        /// `timeout` covers `timeout.attempt`.
        public var kind: Located<String>?
        /// The step the error belongs to.
        public var step: Located<String>?
        /// The response status of the failed attempt.
        public var status: Int?
        /// Text the error message must contain.
        public var message: String?

        /// Creates a failure description.
        /// - Parameters:
        ///   - kind: The error kind.
        ///   - step: The step the error belongs to.
        ///   - status: The response status.
        ///   - message: Text the error message must contain.
        public init(
            kind: Located<String>? = nil, step: Located<String>? = nil, status: Int? = nil, message: String? = nil
        ) {
            self.kind = kind
            self.step = step
            self.status = status
            self.message = message
        }
    }

    /// The workflow outputs a successful run must produce.
    public struct Outputs: Sendable, Hashable {
        /// The expected outputs by name.
        public var values: [String: JSONValue]
        /// Whether the outputs must be exactly these; otherwise each listed output must contain its value
        /// (objects as subsets, arrays element by element, numbers by value) and others may exist.
        public var exact: Bool
        /// Where each output name is written, for lint.
        public var locations: [String: SourceLocation]
        /// The ``ValueMatcher``s written in place of values, by JSON pointer from the outputs (`/orderId`,
        /// `/order/items/0/id`); the value at such a place is checked by its matcher instead of compared.
        public var matchers: [String: ValueMatcher] = [:]

        /// Creates an outputs expectation.
        /// - Parameters:
        ///   - values: The expected outputs by name.
        ///   - exact: Whether the outputs must be exactly these.
        ///   - locations: Where each name is written.
        public init(_ values: [String: JSONValue], exact: Bool = false, locations: [String: SourceLocation] = [:]) {
            self.values = values
            self.exact = exact
            self.locations = locations
        }
    }

    /// One expected call to the dispatcher.
    ///
    /// The conditions compare as a mock stub's ``MockStub/Match`` does: the path is a pattern
    /// (`{name}` matches one segment), and query parameters, headers and body are subsets of the request's.
    public struct Call: Sendable, Hashable {
        /// The method, path, query, headers and body the call must have.
        public var match: MockStub.Match
        /// The step that must have sent it.
        public var step: Located<String>?
        /// Where the expectation is written.
        public var location: SourceLocation?
        /// The ``ValueMatcher``s written in place of header values, by header name; such a header is
        /// checked by its matcher instead of compared.
        public var headerMatchers: [String: ValueMatcher] = [:]

        /// Creates a call expectation.
        /// - Parameters:
        ///   - match: The conditions the call must meet.
        ///   - step: The step that must have sent it.
        ///   - location: Where the expectation is written.
        public init(_ match: MockStub.Match, step: Located<String>? = nil, location: SourceLocation? = nil) {
            self.match = match
            self.step = step
            self.location = location
        }
    }

    /// The virtual time the run must take.
    public enum Elapsed: Sendable, Hashable {
        /// Exactly this long.
        case exactly(Duration)
        /// At least `min` and at most `max`, each when set.
        case within(min: Duration?, max: Duration?)
    }

    /// How the run must end; ``Outcome/success`` by default.
    public var outcome: Outcome
    /// The outputs, if checked.
    public var outputs: Outputs?
    /// The exact sequence of calls the run makes, if checked.
    public var calls: [Call]?
    /// The number of attempts of each listed step, added up over every time it ran (a `goto` can run a step again).
    public var attempts: [Located<String>: Int]
    /// The number of iterations (pages) of each listed `repeat` or `paginate` step, added up over every time it ran.
    public var iterations: [Located<String>: Int] = [:]
    /// The number of items of each listed `forEach` step, added up over every time it ran.
    public var items: [Located<String>: Int] = [:]
    /// The status each listed step ended with, the last time it ran.
    public var steps: [Located<String>: StepReport.Status]
    /// The virtual time the run takes, if checked.
    public var elapsed: Elapsed?

    /// Where the parts of an expectation are written, so a failed check points at the part that failed.
    public struct Locations: Sendable, Hashable {
        /// The `expect:` mapping (or the case, when the case has none): where a default expectation fails.
        public var expect: SourceLocation?
        /// The `outcome:` value.
        public var outcome: SourceLocation?
        /// The `outputs:` (or `outputs-exact:`) mapping.
        public var outputs: SourceLocation?
        /// The `calls:` sequence.
        public var calls: SourceLocation?
        /// The `elapsed:` value.
        public var elapsed: SourceLocation?

        /// Creates locations; every part is unknown by default.
        public init(
            expect: SourceLocation? = nil, outcome: SourceLocation? = nil, outputs: SourceLocation? = nil,
            calls: SourceLocation? = nil, elapsed: SourceLocation? = nil
        ) {
            self.expect = expect
            self.outcome = outcome
            self.outputs = outputs
            self.calls = calls
            self.elapsed = elapsed
        }
    }

    /// Where the parts of this expectation are written.
    public var locations = Locations()

    /// Creates an expectation.
    /// - Parameters:
    ///   - outcome: How the run must end.
    ///   - outputs: The outputs, if checked.
    ///   - calls: The exact sequence of calls, if checked.
    ///   - attempts: Attempts per step.
    ///   - steps: The status of each listed step.
    ///   - elapsed: The virtual time, if checked.
    public init(
        outcome: Outcome = .success,
        outputs: Outputs? = nil,
        calls: [Call]? = nil,
        attempts: [Located<String>: Int] = [:],
        steps: [Located<String>: StepReport.Status] = [:],
        elapsed: Elapsed? = nil
    ) {
        self.outcome = outcome
        self.outputs = outputs
        self.calls = calls
        self.attempts = attempts
        self.steps = steps
        self.elapsed = elapsed
    }
}
