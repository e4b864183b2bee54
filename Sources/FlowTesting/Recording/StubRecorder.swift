public import FlowCore
import Foundation
import Synchronization

/// Records the exchanges of real runs and turns them into stubs that replay them offline:
/// `flowrun run wf.yaml --record wf.mock.yaml`.
///
/// Set it as the engine's ``Engine/exchangeObserver``, run, then ask for ``stubs(for:)``:
///
/// ```swift
/// let recorder = StubRecorder()
/// engine.exchangeObserver = recorder
/// let report = await engine.run(plan, inputs: inputs)
/// let file = recorder.stubs(for: plan).yaml(comments: ["Recorded from a run of wf.yaml"])
/// ```
///
/// Each stub matches a method, a path and a query, and answers with the responses those requests got, in
/// the order they were sent (a list when the path was called more than once, so a `401` then its replay's `200`, or the pages of
/// a paginated list, come back as they came). How a request becomes a match:
/// - **The path**: a segment that a binding filled becomes a `{name}` parameter (``RecordedPathPattern``), so
///   the stub still answers when the values change; a path that did not come from the step's template (a next
///   page's URL) stays as requested. When requests with one pattern went to several paths (a
///   `forEach` over ids), each path gets a stub of its own instead, so that every item gets its own answer
///   whatever order the items run in.
/// - **The query**: every parameter, except credentials (`api_key`, `access_token`, …) and values that hold a
///   secret, which are left out.
/// - **Credentials**: a credential header field (`Authorization`, `Cookie`, `X-Api-Key`, …) or one holding a
///   secret is matched by its presence (`Authorization: !present`); its value never lands in the file.
/// - **Not matched**: other header fields and the body, which change from run to run (signatures,
///   timestamps, idempotency keys).
///
/// Responses are redacted with the run's secrets (a token a refresh returned reads `***`), and keep their
/// header fields but those of the transport (`Content-Length`, `Transfer-Encoding`, `Connection`, `Date`, and
/// `Content-Encoding`, as the body is kept decoded). A request the dispatcher followed redirects for is
/// answered by the last hop's response. An attempt that got no response (a refused connection, a timeout) is
/// left out: a stub cannot answer with a transport failure.
public final class StubRecorder: ExchangeObserver {
    private let exchanges = Mutex<[Exchange]>([])

    /// Creates a recorder with nothing recorded.
    public init() {}

    public func exchangeFinished(_ exchange: Exchange) {
        exchanges.withLock { $0.append(exchange) }
    }

    /// The run's secret redactor, from the first exchange; `nil` before any.
    public var redactor: SecretRedactor? {
        exchanges.withLock { $0.first?.redactor }
    }

    /// The requests that got a response, redacted, in the order they were sent: one per attempt, replay
    /// and refresh call, with a redirected request answered by its last hop.
    public func calls() -> [Call] {
        var calls: [Call] = []
        for exchange in exchanges.withLock({ $0 }).map({ (original: $0, redacted: $0.redacted()) }) {
            let redacted = exchange.redacted
            if redacted.redirect > 0 {
                // A hop answers the request that started the chain, or leaves it unanswered when it failed.
                guard let index = calls.lastIndex(where: { $0.continues(redacted) }) else { continue }
                if let response = redacted.response { calls[index].response = response } else { calls.remove(at: index) }
                continue
            }
            guard let response = redacted.response else { continue }
            calls.append(Call(exchange: redacted, original: exchange.original.request, response: response))
        }
        // Exchanges are heard as they finish; requests of steps that ran at once were sent in another order.
        return calls.enumerated().sorted { left, right in
            left.element.start != right.element.start
                ? left.element.start < right.element.start : left.offset < right.offset
        }.map(\.element)
    }

    /// The stubs that answer the recorded requests as they were answered.
    /// - Parameter plan: The plan that ran, whose path templates say which segments were bound.
    /// - Returns: The stubs, most specific first: literal paths before patterns, more conditions before fewer.
    public func stubs(for plan: Plan) -> MockStubs {
        stubs(for: plan, answering: calls())
    }

    /// The stubs that answer `calls` as they were answered, for a caller that also needs the calls themselves
    /// (a recorded test file lists them): ``calls()`` redacts every exchange, so it is worth doing once.
    /// - Parameters:
    ///   - plan: The plan that ran, whose path templates say which segments were bound.
    ///   - calls: What ``calls()`` returned.
    /// - Returns: The stubs, most specific first: literal paths before patterns, more conditions before fewer.
    public func stubs(for plan: Plan, answering calls: [Call]) -> MockStubs {
        let patterns = RecordedPathPattern(plan: plan)
        let groups = Self.group(calls) { call in
            call.match(path: patterns.pattern(for: call.request.path, stepID: call.stepID, iteration: call.iteration))
        }
        // A pattern that several paths were requested with gets a stub per path, answered in that path's order.
        let split = groups.flatMap { group in
            Set(group.calls.map { URLEncoding.percentDecode($0.request.path) }).count == 1
                ? [group] : Self.group(group.calls) { $0.match(path: RecordedPathPattern.literal($0.request.path)) }
        }
        let ordered = split.enumerated().sorted { left, right in
            let (l, r) = (left.element.match, right.element.match)
            let key = { (match: MockStub.Match) in
                (match.path?.filter { $0 == "{" }.count ?? 0, -match.query.count, -match.presentHeaders.count)
            }
            return key(l) != key(r) ? key(l) < key(r) : left.offset < right.offset
        }.map(\.element)
        var names: [String: Int] = [:]
        return MockStubs(stubs: ordered.map { group in
            let stepID = group.calls[0].stepID
            names[stepID, default: 0] += 1
            let name = names[stepID]! == 1 ? stepID : "\(stepID)-\(names[stepID]!)"
            return MockStub(name: name, match: group.match, respond: group.calls.map { $0.stubResponse })
        })
    }

    /// `calls` grouped by the stub conditions `match` gives each, groups in the order of their first call.
    private static func group(
        _ calls: [Call], by match: (Call) -> MockStub.Match
    ) -> [(match: MockStub.Match, calls: [Call])] {
        var groups: [(match: MockStub.Match, calls: [Call])] = []
        for call in calls {
            let conditions = match(call)
            if let index = groups.firstIndex(where: { $0.match == conditions }) {
                groups[index].calls.append(call)
            } else {
                groups.append((conditions, [call]))
            }
        }
        return groups
    }

    /// One recorded request and the response that answered it, redacted.
    public struct Call: Sendable {
        /// The step that sent it.
        public var stepID: String
        /// The one-based attempt.
        public var attempt: Int
        /// The `forEach` item's index, if any.
        public var item: Int?
        /// The `repeat` iteration's or `paginate` page's index, if any.
        public var iteration: Int?
        /// The request as sent, redacted.
        public var request: StepRequest
        /// The response, redacted: for a redirected request, the last hop's.
        public var response: StepResponse
        /// The names of the request's header fields that carried a credential or a secret.
        public var credentialHeaders: Set<String>
        /// When the request was sent, as the time since 1970.
        var start: Duration

        init(exchange: Exchange, original: StepRequest, response: StepResponse) {
            stepID = exchange.stepID
            attempt = exchange.attempt
            item = exchange.item
            iteration = exchange.iteration
            request = exchange.request
            self.response = response
            start = exchange.timing.start
            let redactedValues = Dictionary(
                exchange.request.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
            credentialHeaders = Set(original.headers.compactMap { field in
                let name = field.name.lowercased()
                let isCredential = SecretRedactor.credentialHeaderNames.contains(name)
                return isCredential || redactedValues[name] != field.value ? field.name : nil
            })
        }

        /// Whether `hop`, a redirect, follows the request of this call.
        func continues(_ hop: Exchange) -> Bool {
            stepID == hop.stepID && attempt == hop.attempt && item == hop.item && iteration == hop.iteration
        }

        /// The query parameters a stub can match: neither credentials nor values holding a secret.
        public var matchableQuery: [(name: String, value: String)] {
            (request.query.map(URLEncoding.parseQuery) ?? []).filter { name, value in
                !SecretRedactor.isCredentialParameter(name) && !value.contains(SecretRedactor.replacement)
            }.map { (name: $0.0, value: $0.1) }
        }

        /// The conditions of a stub that answers this request, with `path` as its path pattern.
        func match(path: String) -> MockStub.Match {
            var query: [String: [String]] = [:]
            for parameter in matchableQuery { query[parameter.name, default: []].append(parameter.value) }
            return MockStub.Match(method: request.method, path: path, query: query, presentHeaders: credentialHeaders)
        }

        /// The response as a stub gives it: the transport's header fields left out, the body as JSON when it
        /// is JSON, else as text or bytes.
        var stubResponse: MockStub.Response {
            let transport: Set<String> = [
                "content-length", "transfer-encoding", "connection", "keep-alive", "date", "content-encoding",
            ]
            let headers = HeaderFields(response.headers.filter { !transport.contains($0.name.lowercased()) })
            let bytes = response.body
            let contentType = response.headers["Content-Type"]
            let body: MockStub.Body?
            if bytes.isEmpty {
                body = nil
            } else if BodyFormat(contentType: contentType) == .json, let value = try? JSONValue(parsing: bytes) {
                body = .json(value)
            } else if let text = String(validating: bytes, as: UTF8.self) {
                body = .text(text)
            } else {
                body = .bytes(bytes)
            }
            return MockStub.Response(status: response.status, headers: headers, body: body)
        }
    }
}
