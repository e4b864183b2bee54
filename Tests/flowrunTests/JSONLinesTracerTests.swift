import FlowTestServer
import Foundation
import Testing
@testable import flowrun

/// `flowrun run --trace-out FILE`: the spans of a real run over HTTP, one JSON object per line,
/// and the `traceparent` header the server receives.
@Suite(.timeLimit(.minutes(2)))
struct JSONLinesTracerTests {
    /// One line of the trace file.
    struct SpanLine {
        var object: [String: Any]
        var name: String { object["name"] as? String ?? "" }
        var spanID: String { object["spanId"] as? String ?? "" }
        var traceID: String { object["traceId"] as? String ?? "" }
        var parentSpanID: String? { object["parentSpanId"] as? String }
        var attributes: [String: Any] { object["attributes"] as? [String: Any] ?? [:] }
        var step: String? { attributes["flowrun.step.id"] as? String }
    }

    private let stale = "stale-token-9c41"
    private let bank = FakeBank(refreshToken: "refresh-token-77aa", freshToken: "fresh-token-b27d")

    private func tracedRun() async throws -> (spans: [SpanLine], requests: [RecordedRequest], server: String) {
        let bank = self.bank
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("trace.jsonl").path
        return try await withTestServer({ bank.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=\(stale)", "--input",
                 "refreshToken=\(bank.refreshToken)", "--trace-out", file],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for secret in [stale, bank.refreshToken, bank.freshToken] {
                #expect(!text.contains(secret), "the trace contains \(secret)")
            }
            let lines = try text.split(separator: "\n").map { line in
                SpanLine(object: try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)"))
            }
            return (lines, server.requests, server.baseURL)
        }
    }

    @Test func aRunIsOneRunSpanWithASpanPerStepAndPerAttempt() async throws {
        let (spans, requests, baseURL) = try await tracedRun()
        let runs = spans.filter { $0.name == "flowrun.run" }
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.object["parentSpanId"] is NSNull)
        #expect(run.attributes["flowrun.workflow.name"] as? String == "banking-overview")
        #expect(run.attributes["flowrun.workflow.path"] as? String == "workflows/banking.yaml")
        #expect(Set(spans.map(\.traceID)) == [run.traceID])
        #expect(run.traceID.count == 32 && run.spanID.count == 16)
        #expect(Set(spans.map(\.spanID)).count == spans.count)

        let steps = spans.filter { $0.name == "flowrun.step" }
        let topLevel = steps.filter { $0.parentSpanID == run.spanID }
        #expect(topLevel.compactMap(\.step) == ["user", "account", "transactions"])
        // The refresh step runs inside the user step's attempt that got the 401.
        let refresh = try #require(steps.first { $0.step == "refresh-token" })
        let refreshParent = try #require(spans.first { $0.spanID == refresh.parentSpanID })
        #expect(refreshParent.name == "HTTP GET")
        #expect(steps.first { $0.spanID == refreshParent.parentSpanID }?.step == "user")

        let attempts = spans.filter { $0.name.hasPrefix("HTTP ") }
        #expect(attempts.count == 4)  // user (401, refresh, replay: one attempt), refresh, account, transactions
        for attempt in attempts {
            let parent = try #require(steps.first { $0.spanID == attempt.parentSpanID }, "\(attempt.object)")
            #expect(attempt.object["kind"] as? String == "client")
            #expect(attempt.attributes["flowrun.attempt"] as? Int == 1)
            #expect(attempt.attributes["http.response.status_code"] as? Int == 200)
            #expect(attempt.attributes["server.address"] as? String == "127.0.0.1")
            let url = try #require(attempt.attributes["url.full"] as? String)
            #expect(url.hasPrefix(baseURL))
            #expect(attempt.name == "HTTP " + (attempt.attributes["http.request.method"] as? String ?? ""))
            #expect(parent.name == "flowrun.step")
        }
        for span in spans {
            let start = try #require(UInt64(span.object["startTimeUnixNano"] as? String ?? ""))
            let end = try #require(UInt64(span.object["endTimeUnixNano"] as? String ?? ""))
            #expect(start <= end)
            #expect((span.object["status"] as? [String: Any])?["code"] as? String != nil)
            #expect(span.object["events"] is [Any])
        }

        // Every request carries its attempt's span as W3C traceparent.
        #expect(requests.count == 5)
        for request in requests {
            let traceparent = try #require(request.values("traceparent").first, "\(request.uri)")
            let context = try #require(TraceContext(traceparent: traceparent))
            #expect(context.traceID == run.traceID)
            #expect(attempts.contains { $0.spanID == context.spanID }, "\(traceparent)")
            #expect(traceparent.hasSuffix("-01"))
        }
    }

    @Test func anUnwritableTraceFileExitsTwoBeforeAnyRequest() async throws {
        try await withTestServer({ FakeBank().reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=t-1234", "--trace-out", "/nonexistent/t.jsonl"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("cannot write the trace to /nonexistent/t.jsonl"))
            #expect(server.requests.isEmpty)
        }
    }

    // MARK: traceparent

    @Test func aTraceparentRoundTrips() throws {
        let context = TraceContext(traceID: TraceContext.randomTraceID(), spanID: TraceContext.randomSpanID())
        #expect(context.traceID.count == 32 && context.spanID.count == 16)
        #expect(TraceContext(traceparent: context.traceparent) == context)
        let parsed = TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")
        #expect(parsed?.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(parsed?.spanID == "00f067aa0ba902b7")
        #expect(parsed?.sampled == false)
    }

    @Test(arguments: [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
    ])
    func malformedTraceparentsAreRejected(value: String) {
        #expect(TraceContext(traceparent: value) == nil)
    }
}
