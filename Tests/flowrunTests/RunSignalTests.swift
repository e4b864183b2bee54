import FlowTestServer
import Foundation
import Synchronization
import Testing

/// Issue 9 item 9: a signal cancels the run, which still prints its report and exits with 128 + the signal.
struct RunSignalTests {
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129)), (SIGINT, Int32(130))])
    func aSignalCancelsTheRunWhichReportsAndExitsWithItsCode(signal: Int32, status: Int32) async throws {
        let folder = try TemporaryFolder.withSlowWorkflow()
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let pid = Mutex<Int32>(0)
        let outcome = try await withTestServer({ _ in
            // The request is in flight: signal the run, then answer too late for it.
            FlowRunProcess.signal(pid, signal)
            return TestReply(status: 200, body: Array("{}".utf8), delay: .seconds(5))
        }) { server in
            try await FlowRunProcess.run(
                ["run", "slow.yaml", "--format", "json", "--junit-out", junit], in: folder.url,
                environment: ["API": server.baseURL], timeout: .seconds(30)
            ) { started in pid.withLock { $0 = started } }
        }
        #expect(outcome.status == status, "\(outcome.stderr)")
        // The report still reaches standard output and the JUnit file.
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stdout)")
        #expect(report["status"] as? String == "failed")
        #expect((report["error"] as? [String: Any])?["code"] as? String == "cancelled")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<testsuite"))
    }
}
