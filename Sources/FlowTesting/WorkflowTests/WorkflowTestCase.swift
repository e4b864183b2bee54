public import FlowCore

/// One case of a workflow test file: the inputs, environment and stubs of a run, and what the run must do.
///
/// A case usually comes from a `*.test.yaml` file (see ``WorkflowTestFile``):
///
/// ```yaml
/// - name: refreshes an expired token and replays
///   inputs: { token: stale, refreshToken: r-1 }
///   env: { BANK_URL: https://bank.test }
///   stubs:
///     - { match: { method: GET, path: /user, headers: { Authorization: Bearer stale } }, respond: { status: 401 } }
///     - { match: { method: POST, path: /oauth/token }, respond: { body: { access_token: fresh } } }
///     - { match: { method: GET, path: /user }, respond: { body: { userId: u-1, username: ada } } }
///   expect:
///     outputs: { username: ada }
///     calls: [GET /user, POST /oauth/token, GET /user]
/// ```
///
/// ``WorkflowTestRunner`` runs a case on a ``MockDispatcher`` that answers from ``stubs``
/// and a ``VirtualClock``, then compares the run with ``expectation``.
public struct WorkflowTestCase: Sendable {
    /// The case's name, unique in its file.
    public var name: String
    /// Where the case is written (its `- name:` entry), for messages and annotations.
    public var location: SourceLocation?
    /// The run's inputs: the file's `inputs`, overridden member by member by the case's.
    public var inputs: [String: JSONValue]
    /// The values `$env.NAME` reads: the file's `env`, overridden by the case's. The process environment is not read.
    public var environment: [String: String]
    /// The stubs the mock dispatcher answers from, in the order tried: the case's `stubs`, the case's `mock`
    /// file, then the file's `stubs` and `mock`.
    public var stubs: MockStubs
    /// How many times the workflow runs, one after the other, on the same engine, mock and clock.
    ///
    /// Earlier runs prepare state that outlives a run — a circuit breaker's failure count, a stub's
    /// position in its response sequence — and the expectation checks the last run.
    public var runs: Int
    /// What the (last) run must do.
    public var expectation: WorkflowTestExpectation

    /// Creates a case.
    /// - Parameters:
    ///   - name: The case's name.
    ///   - location: Where the case is written.
    ///   - inputs: The run's inputs.
    ///   - environment: The values `$env.NAME` reads.
    ///   - stubs: The stubs the mock dispatcher answers from.
    ///   - runs: How many times the workflow runs; the expectation checks the last run.
    ///   - expectation: What the run must do; by default, succeed.
    public init(
        name: String,
        location: SourceLocation? = nil,
        inputs: [String: JSONValue] = [:],
        environment: [String: String] = [:],
        stubs: MockStubs = MockStubs(stubs: []),
        runs: Int = 1,
        expectation: WorkflowTestExpectation = WorkflowTestExpectation()
    ) {
        self.name = name
        self.location = location
        self.inputs = inputs
        self.environment = environment
        self.stubs = stubs
        self.runs = max(1, runs)
        self.expectation = expectation
    }
}
