package import Foundation

/// What the fault-injecting server does with one request: answer, fail, stall or break the connection.
///
/// A ``FaultScript`` lists faults per path and serves one per request. Each
/// case is one way a real API misbehaves, and each maps to the failure kind
/// the engine must see:
///
/// | Fault | The client sees | Kind |
/// |---|---|---|
/// | ``fail(_:body:headers:)`` | an error status | `http` |
/// | ``ok(_:)`` | `200` with a JSON body | success |
/// | ``retryAfter(_:status:)`` | `429` (by default) with `Retry-After` | `http` |
/// | ``slow(_:then:)`` | the other fault, late | `timeout.attempt` when later than the limit |
/// | ``resetMidBody`` | the head, part of the body, then a TCP reset | `transport` |
/// | ``stallMidBody`` | the head, part of the body, then nothing | `timeout.attempt` at the limit |
/// | ``truncatedJSON`` | `200`, a complete response whose JSON is cut off | `decode` |
/// | ``closeWithoutAnswer`` | the connection closed, no response | `transport` |
package enum Fault: Sendable {
    /// How long a ``retryAfter(_:status:)`` response asks the client to wait.
    package enum Wait: Sendable {
        /// `Retry-After: <seconds>`.
        case seconds(Int)
        /// `Retry-After: <IMF-fixdate>`, the date form of RFC 9110.
        case date(Date)
    }

    /// Answers with `status`; a non-empty `body` gets `Content-Type: application/json` unless `headers` set one.
    case fail(_ status: Int, body: String = "", headers: [(String, String)] = [])
    /// Answers `200` with `json` as an `application/json` body.
    case ok(_ json: String = "{}")
    /// Answers `status` (429 by default) with a `Retry-After` header and an empty body.
    case retryAfter(_ wait: Wait, status: Int = 429)
    /// Waits `delay`, then does what `then` says.
    indirect case slow(_ delay: Duration, then: Fault)
    /// Sends `200` with the full `Content-Length` and the first bytes of the body, then resets the connection.
    case resetMidBody
    /// Sends `200` with the full `Content-Length` and the first bytes of the body, then nothing more.
    case stallMidBody
    /// Sends `200` with a JSON body cut in the middle and a `Content-Length` that matches the cut, so the
    /// response is complete but its body is not valid JSON.
    case truncatedJSON
    /// Closes the connection without sending a byte.
    case closeWithoutAnswer

    /// The body that ``resetMidBody`` starts and ``truncatedJSON`` cuts: 200-odd bytes of valid JSON.
    package static let sampleJSON =
        #"{"id":"item-1","name":"A sample item","tags":["alpha","beta","gamma"],"#
        + #""details":{"weight":12.5,"colour":"blue","notes":"padding so the body is a few hundred bytes"},"#
        + #""history":[1,2,3,4,5,6,7,8,9,10]}"#

    /// The reply that carries out the fault.
    package var reply: TestReply {
        let json = [("Content-Type", "application/json")]
        switch self {
        case .fail(let status, let body, let headers):
            let needsType = !body.isEmpty && !headers.contains { $0.0.lowercased() == "content-type" }
            return TestReply(status: status, headers: (needsType ? json : []) + headers, body: Array(body.utf8))
        case .ok(let body):
            return TestReply(status: 200, headers: json, body: Array(body.utf8))
        case .retryAfter(let wait, let status):
            return TestReply(status: status, headers: [("Retry-After", wait.headerValue)])
        case .slow(let delay, let then):
            var reply = then.reply
            reply.delay += delay
            return reply
        case .resetMidBody:
            return TestReply(status: 200, headers: json, body: Array(Self.sampleJSON.utf8), ending: .resetAfter(bytes: 40))
        case .stallMidBody:
            return TestReply(status: 200, headers: json, body: Array(Self.sampleJSON.utf8), ending: .truncateAndStall(afterBytes: 10))
        case .truncatedJSON:
            return TestReply(status: 200, headers: json, body: Array(Self.sampleJSON.utf8.prefix(Self.sampleJSON.utf8.count / 2)))
        case .closeWithoutAnswer:
            return .closeWithoutAnswer
        }
    }
}

extension Fault.Wait {
    /// The `Retry-After` field value.
    var headerValue: String {
        switch self {
        case .seconds(let seconds):
            return String(seconds)
        case .date(let date):
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: date)
        }
    }
}
