public import FlowCore

/// One request a ``MockDispatcher`` received, and how it answered.
///
/// ```swift
/// let refreshes = mock.calls.filter { $0.stubName == "refresh-token" }
/// #expect(refreshes.count == 1)
/// #expect(mock.calls.map(\.status) == [401, 200, 200])
/// ```
public struct RecordedCall: Sendable, Hashable {
    /// The request as the dispatcher received it, after every interceptor.
    public var request: StepRequest
    /// The id of the step that sent it.
    public var stepID: String
    /// The one-based attempt of the step.
    public var attempt: Int
    /// The zero-based position in ``MockStubs/stubs`` of the stub that answered, or `nil` when none matched.
    public var stubIndex: Int?
    /// The name of the stub that answered, when it has one.
    public var stubName: String?
    /// The status of the response, or `nil` when no stub matched and the dispatcher threw.
    public var status: Int?
    /// Whether the call was cancelled (its step's timeout, the run's deadline, a cancelled run) during the
    /// stub's delay, so its response, of ``status``, was never delivered.
    public var cancelled = false

    /// How messages name the stub that answered: `stub 'user'`, or `stub #2` by its one-based position; `nil` when
    /// no stub matched.
    public var stubLabel: String? {
        stubIndex.map { MockStub.label(name: stubName, index: $0) }
    }

    /// Creates a record.
    /// - Parameters:
    ///   - request: The request.
    ///   - stepID: The id of the step that sent it.
    ///   - attempt: The one-based attempt.
    ///   - stubIndex: The position of the stub that answered.
    ///   - stubName: The name of the stub that answered.
    ///   - status: The status of the response.
    public init(
        request: StepRequest,
        stepID: String,
        attempt: Int,
        stubIndex: Int? = nil,
        stubName: String? = nil,
        status: Int? = nil
    ) {
        self.request = request
        self.stepID = stepID
        self.attempt = attempt
        self.stubIndex = stubIndex
        self.stubName = stubName
        self.status = status
    }
}
