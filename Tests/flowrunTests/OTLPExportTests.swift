import FlowTestServer
import Foundation
import Synchronization
import Testing
@testable import flowrun

/// Issue 13 item 6: `flowrun run --otlp-endpoint URL` reads the collector's URL as OpenTelemetry's
/// `OTEL_EXPORTER_OTLP_ENDPOINT` does.
struct OTLPEndpointTests {
    @Test(arguments: [
        ("http://127.0.0.1:4318", "http://127.0.0.1:4318/v1/traces"),
        ("http://127.0.0.1:4318/", "http://127.0.0.1:4318/v1/traces"),
        ("https://collector.example/otlp", "https://collector.example/otlp/v1/traces"),
        ("https://collector.example/otlp/", "https://collector.example/otlp/v1/traces"),
        ("http://localhost:4318/v1/traces", "http://localhost:4318/v1/traces"),
        ("HTTP://localhost:4318?tenant=a", "HTTP://localhost:4318/v1/traces?tenant=a"),
    ])
    func theBaseURLGetsTheTracesPath(base: String, traces: String) {
        #expect(OTLPEndpoint(base)?.tracesURL == traces)
    }

    @Test(arguments: ["127.0.0.1:4318", "localhost", "ftp://collector.example", "http://", "http:///v1/traces", "", "http://a/#f"])
    func aValueThatIsNotAnHTTPURLIsRefused(value: String) {
        #expect(OTLPEndpoint(value) == nil)
    }
}

#if OTLP
/// Issue 13 item 6: `flowrun run --otlp-endpoint URL` posts the run's spans to a collector over OTLP/HTTP
/// (protobuf): the same spans, with the same redacted attributes, as `--trace-out` writes.
@Suite(.timeLimit(.minutes(2)))
struct OTLPExportTests {
    private let stale = "stale-token-9c41"
    private let bank = FakeBank(refreshToken: "refresh-token-77aa", freshToken: "fresh-token-b27d")

    /// A collector's answer to an export: 200 with an empty `ExportTraceServiceResponse`.
    private static let accepted = TestReply(headers: [("Content-Type", "application/x-protobuf")])

    /// `flowrun run` of the banking example with the stale token and ``bank``'s refresh token, then `arguments`.
    private func bankingRun(_ arguments: [String]) -> [String] {
        ["run", "workflows/banking.yaml", "--input", "token=\(stale)", "--input", "refreshToken=\(bank.refreshToken)"]
            + arguments
    }

    /// What the collector received, and the run that sent it.
    struct Export {
        var outcome: FlowRunProcess.Outcome
        var posts: [RecordedRequest]
        var apiRequests: [RecordedRequest]
        var spans: [OTLPTraceRequest.Span]
        var resources: [[String: String]]
    }

    /// Runs the banking example against `api` (``bank`` by default) with `arguments` added, and a collector
    /// that answers 200.
    private func exportedRun(_ arguments: [String], api bank: FakeBank? = nil) async throws -> Export {
        let bank = bank ?? self.bank
        return try await withTestServer({ _ in Self.accepted }) { collector in
            try await withTestServer({ bank.reply(to: $0) }) { api in
                let outcome = try await FlowRunProcess.run(
                    bankingRun(["--otlp-endpoint", collector.baseURL] + arguments),
                    environment: ["BANK_URL": api.baseURL],
                    removing: ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SERVICE_NAME",
                               "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_TRACES_SAMPLER"])
                let requests = try collector.requests.map { ($0, try OTLPTraceRequest($0.body)) }
                return Export(
                    outcome: outcome, posts: collector.requests, apiRequests: api.requests,
                    spans: requests.flatMap(\.1.spans), resources: requests.flatMap(\.1.resources))
            }
        }
    }

    @Test func theRunStepAndAttemptSpansReachTheCollectorInTheTraceTheServerSaw() async throws {
        let export = try await exportedRun([])
        #expect(export.outcome.status == 0, "\(export.outcome.stderr)")
        #expect(!export.posts.isEmpty)
        for post in export.posts {
            #expect(post.method == "POST")
            #expect(post.path == "/v1/traces")
            #expect(post.values("Content-Type") == ["application/x-protobuf"])
            for secret in [stale, bank.refreshToken, bank.freshToken] {
                #expect(!String(decoding: post.body, as: UTF8.self).contains(secret), "the export contains \(secret)")
            }
        }
        #expect(export.resources.allSatisfy { $0["service.name"] == "flowrun" }, "\(export.resources)")
        let spans = export.spans
        let run = try #require(spans.first { $0.name == "flowrun.run" }, "\(spans.map(\.name))")
        #expect(spans.filter { $0.name == "flowrun.run" }.count == 1)
        #expect(run.parentSpanID == nil)
        #expect(run.attributes["flowrun.workflow.name"] == "banking-overview")
        #expect(Set(spans.map(\.traceID)) == [run.traceID])
        #expect(Set(spans.map(\.spanID)).count == spans.count)

        let steps = spans.filter { $0.name == "flowrun.step" }
        #expect(Set(steps.filter { $0.parentSpanID == run.spanID }.compactMap { $0.attributes["flowrun.step.id"] })
            == ["user", "account", "transactions"])
        let refresh = try #require(steps.first { $0.attributes["flowrun.step.id"] == "refresh-token" })
        #expect(spans.first { $0.spanID == refresh.parentSpanID }?.name == "HTTP GET")

        let attempts = spans.filter { $0.name.hasPrefix("HTTP ") }
        #expect(attempts.count == 4)
        for attempt in attempts {
            #expect(steps.contains { $0.spanID == attempt.parentSpanID }, "\(attempt)")
            #expect(attempt.kind == 3)  // client
            #expect(attempt.attributes["http.response.status_code"] == "200")
            #expect(attempt.attributes["flowrun.attempt"] == "1")
        }
        // Every request the API received carries its attempt's span, in the exported trace.
        #expect(export.apiRequests.count == 5)
        for request in export.apiRequests {
            let context = try #require(request.values("traceparent").first.flatMap(TraceContext.init(traceparent:)))
            #expect(context.traceID == run.traceID)
            #expect(attempts.contains { $0.spanID == context.spanID }, "\(context)")
        }
    }

    @Test func withTraceOutTooTheFileHoldsTheSameSpansAndAttributes() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("trace.jsonl").path
        let export = try await exportedRun(["--trace-out", file])
        #expect(export.outcome.status == 0, "\(export.outcome.stderr)")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(lines.count == export.spans.count)
        for span in export.spans {
            let line = try #require(lines.first { $0["spanId"] as? String == span.spanID }, "\(span.name) \(span.spanID)")
            #expect(line["traceId"] as? String == span.traceID)
            #expect(line["parentSpanId"] as? String == span.parentSpanID)
            #expect(line["name"] as? String == span.name)
            let attributes = try #require(line["attributes"] as? [String: Any])
            #expect(Set(attributes.keys) == Set(span.attributes.keys), "\(span.name)")
            for (key, value) in span.attributes {
                if value == "true" || value == "false" {
                    #expect(attributes[key] as? Bool == (value == "true"), "\(span.name) \(key)")
                } else {
                    #expect("\(attributes[key] ?? "")" == value, "\(span.name) \(key)")
                }
            }
        }
    }

    @Test func aFailedRunIsExportedWithItsErrorAndKeepsItsExitStatus() async throws {
        var refusing = bank
        refusing.refreshToken = "another-refresh-token-31f0"
        let export = try await exportedRun([], api: refusing)
        #expect(export.outcome.status == 1, "\(export.outcome.stderr)")
        let run = try #require(export.spans.first { $0.name == "flowrun.run" })
        #expect(run.statusCode == 2)
        #expect(export.spans.contains { $0.events.contains("exception") })
    }

    @Test(arguments: [0, 1])
    func aCollectorThatIsDownIsAWarningAndTheRunKeepsItsExitStatus(failing: Int) async throws {
        var refusing = bank
        refusing.refreshToken = "another-refresh-token-31f0"
        let api = failing == 1 ? refusing : bank
        let started = ContinuousClock.now
        let outcome = try await withRefusingPort { port in
            try await withTestServer({ api.reply(to: $0) }) { api in
                try await FlowRunProcess.run(
                    bankingRun(["--otlp-endpoint", "http://127.0.0.1:\(port)"]),
                    environment: ["BANK_URL": api.baseURL], timeout: .seconds(30))
            }
        }
        #expect(outcome.status == Int32(failing), "\(outcome.stderr)")
        let warnings = outcome.stderr.split(separator: "\n").filter { $0.contains("warning: the trace was not exported") }
        #expect(warnings.count == 1, "\(outcome.stderr)")
        #expect(warnings.first?.contains("http://127.0.0.1:") == true)
        #expect(warnings.first?.hasSuffix("/v1/traces: connection refused") == true, "\(outcome.stderr)")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aCollectorThatNeverAnswersDelaysTheExitByTheExportTimeoutAtMost() async throws {
        let started = ContinuousClock.now
        let outcome = try await withTestServer({ _ in
            TestReply(status: 200, headers: [("Content-Type", "application/x-protobuf")], body: Array(repeating: 0, count: 10),
                      ending: .truncateAndStall(afterBytes: 0))
        }) { collector in
            try await withTestServer({ bank.reply(to: $0) }) { api in
                try await FlowRunProcess.run(
                    bankingRun(["--otlp-endpoint", collector.baseURL]),
                    environment: ["BANK_URL": api.baseURL], timeout: .seconds(40))
            }
        }
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("warning: the trace was not exported"), "\(outcome.stderr)")
        #expect(ContinuousClock.now - started < .seconds(25))
    }

    @Test func anInterruptedRunIsExportedBeforeItExits() async throws {
        let folder = try TemporaryFolder.withSlowWorkflow()
        let pid = Mutex<Int32>(0)
        let spans = try await withTestServer({ _ in Self.accepted }) { collector in
            let outcome = try await withTestServer({ _ in
                FlowRunProcess.signal(pid, SIGINT)
                return TestReply(status: 200, body: Array("{}".utf8), delay: .seconds(5))
            }) { api in
                try await FlowRunProcess.run(
                    ["run", "slow.yaml", "--otlp-endpoint", collector.baseURL], in: folder.url,
                    environment: ["API": api.baseURL], timeout: .seconds(30)
                ) { started in pid.withLock { $0 = started } }
            }
            #expect(outcome.status == 130, "\(outcome.stderr)")
            return try collector.requests.flatMap { try OTLPTraceRequest($0.body).spans }
        }
        #expect(Set(spans.map(\.name)) == ["flowrun.run", "flowrun.step", "HTTP GET"])
    }

    @Test func aRepeatedRunExportsATracePerRun() async throws {
        let export = try await exportedRun(["--repeat", "2"])
        #expect(export.outcome.status == 0, "\(export.outcome.stderr)")
        let runs = export.spans.filter { $0.name == "flowrun.run" }
        #expect(runs.count == 2)
        #expect(Set(runs.map(\.traceID)).count == 2)
        #expect(Set(export.spans.map(\.traceID)) == Set(runs.map(\.traceID)))
    }

    @Test(arguments: ["127.0.0.1:4318", "ftp://collector.example", "not a url"])
    func anEndpointThatIsNotAnHTTPURLExitsTwoNamingItBeforeAnyRequest(endpoint: String) async throws {
        try await withTestServer({ FakeBank().reply(to: $0) }) { api in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=t-1", "--otlp-endpoint", endpoint],
                environment: ["BANK_URL": api.baseURL])
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("--otlp-endpoint: '\(endpoint)' is not an http or https URL"), "\(outcome.stderr)")
            #expect(api.requests.isEmpty)
        }
    }
}
#else
/// Issue 13 item 6: a flowrun built without the `OTLP` trait knows `--otlp-endpoint` and says how to get it.
struct OTLPExportWithoutTheTraitTests {
    @Test func otlpEndpointExitsTwoSayingHowToBuildWithIt() async throws {
        try await withTestServer({ FakeBank().reply(to: $0) }) { api in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=t-1", "--otlp-endpoint", "http://127.0.0.1:4318"],
                environment: ["BANK_URL": api.baseURL])
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("this flowrun was built without OTLP export"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("--disable-default-traits"), "\(outcome.stderr)")
            #expect(api.requests.isEmpty)
        }
    }

    @Test func helpSaysTheBuildHasNoOTLPExport() async throws {
        let outcome = try await FlowRunProcess.run(["run", "--help"])
        #expect(outcome.status == 0)
        let help = outcome.stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(help.contains("--otlp-endpoint <url>"), "\(outcome.stdout)")
        #expect(help.contains("Not in this build"), "\(outcome.stdout)")
    }
}
#endif
