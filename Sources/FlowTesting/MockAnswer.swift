public import FlowCore

/// How a ``MockDispatcher`` answered one request: a stub's response, or the closest stub when none matched.
///
/// ``MockDispatcher/answer(_:context:)`` returns it for callers that need to know which stub answered
/// each request even when many run at once, such as `flowrun mock serve`'s request log; engines use
/// ``MockDispatcher/dispatch(_:context:)``, which throws for an unmatched request instead.
public enum MockAnswer: Sendable {
    /// A stub matched: its response, delivered after the response's delay, and the call as recorded.
    case matched(StepResponse, RecordedCall)
    /// No stub matched: the closest stub and what differed, and the call as recorded (without a stub).
    case unmatched(MockMismatch, RecordedCall)

    /// The call as ``MockDispatcher/calls`` records it.
    public var call: RecordedCall {
        switch self {
        case .matched(_, let call), .unmatched(_, let call): call
        }
    }
}
