import FlowTestServer
import Foundation
import Testing

/// Issue 13 item 1, "Record": `flowrun run --record` and `--record-test` against a real loopback server, then
/// the recording replayed with the server gone.
struct RunRecordTests {
    private let bank = FakeBank()

    /// The arguments of a banking run that starts with an expired token, so it refreshes.
    private var bankingRun: [String] {
        ["run", "workflows/banking.yaml", "--input", "token=stale-token-9f3a", "--input", "refreshToken=\(bank.refreshToken)"]
    }

    /// The outputs of a `--format json` run.
    private func outputs(_ outcome: FlowRunProcess.Outcome) throws -> NSDictionary {
        let report = try #require(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        return try #require(report["outputs"] as? NSDictionary)
    }

    @Test func aRecordedRunReplaysOfflineWithIdenticalOutputsAndItsTestPasses() async throws {
        let folder = try TemporaryFolder()
        let mock = folder.url.appendingPathComponent("banking.mock.yaml").path
        let test = folder.url.appendingPathComponent("banking.test.yaml").path
        let bank = bank
        let (recorded, baseURL) = try await withTestServer({ bank.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                bankingRun + ["--record", mock, "--record-test", test, "--format", "json"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(server.requests.count == 5)
            return (outcome, server.baseURL)
        }
        let recordedOutputs = try outputs(recorded)
        #expect(recordedOutputs["username"] as? String == "ada")

        // The server is gone: the replay answers from the recording alone.
        let replayed = try await FlowRunProcess.run(
            bankingRun + ["--mock", mock, "--format", "json"], environment: ["BANK_URL": baseURL])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(try outputs(replayed) == recordedOutputs)

        let stubs = try String(contentsOfFile: mock, encoding: .utf8)
        #expect(stubs.contains("path: /account/{userId}"), "\(stubs)")
        #expect(stubs.contains("Authorization: !present"), "\(stubs)")
        for secret in [bank.freshToken, bank.refreshToken, "stale-token-9f3a"] {
            #expect(!stubs.contains(secret), "the recording holds \(secret)")
        }

        let testFile = try String(contentsOfFile: test, encoding: .utf8)
        #expect(testFile.contains("mock: banking.mock.yaml"), "\(testFile)")
        #expect(testFile.contains("- GET /account/u-1001"), "\(testFile)")
        #expect(!testFile.contains(bank.refreshToken) && !testFile.contains("stale-token-9f3a"), "\(testFile)")
        let tested = try await FlowRunProcess.run(["test", test])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stdout.contains("1 passed, 0 failed"), "\(tested.stdout)")
    }

    @Test func aTestFileWithoutARecordingHoldsItsStubsAndReplaysARecoveredStep() async throws {
        let folder = try TemporaryFolder()
        let test = folder.url.appendingPathComponent("new-account.test.yaml").path
        var bank = bank
        bank.transactions = nil  // a 404, which banking.yaml's catch rule turns into an empty list
        let noTransactions = bank
        try await withTestServer({ noTransactions.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=\(noTransactions.freshToken)", "--input",
                 "refreshToken=r-1234", "--record-test", test],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let testFile = try String(contentsOfFile: test, encoding: .utf8)
        #expect(testFile.contains("stubs:") && !testFile.contains("mock:"), "\(testFile)")
        #expect(testFile.contains("status: 404"), "\(testFile)")
        let tested = try await FlowRunProcess.run(["test", test])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
    }

    @Test func aFailedRunIsRecordedWithItsFailureAsTheExpectedOutcome() async throws {
        let folder = try TemporaryFolder()
        let test = folder.url.appendingPathComponent("refused.test.yaml").path
        let bank = bank
        try await withTestServer({ bank.reply(to: $0) }) { server in
            // The bank refuses this refresh token with a 400, so the refresh, and with it the run, fails.
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=stale-token-9f3a", "--input", "refreshToken=r-wrong-1",
                 "--record-test", test],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 1, "\(outcome.stderr)")
        }
        let testFile = try String(contentsOfFile: test, encoding: .utf8)
        #expect(testFile.contains("outcome:") && testFile.contains("kind: interceptor"), "\(testFile)")
        #expect(!testFile.contains("r-wrong-1"), "\(testFile)")
        let tested = try await FlowRunProcess.run(["test", test])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
    }

    @Test func aRecordingPathThatCannotBeWrittenFailsBeforeTheFirstRequest() async throws {
        let bank = bank
        try await withTestServer({ bank.reply(to: $0) }) { server in
            for option in ["--record", "--record-test"] {
                let outcome = try await FlowRunProcess.run(
                    bankingRun + [option, "/nonexistent-folder/x.yaml"], environment: ["BANK_URL": server.baseURL])
                #expect(outcome.status == 2)
                #expect(outcome.stderr.contains("\(option): cannot write /nonexistent-folder/x.yaml"), "\(outcome.stderr)")
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aRecordingDescribesOneRunSoASeriesRefusesIt() async throws {
        let outcome = try await FlowRunProcess.run(
            bankingRun + ["--repeat", "2", "--record", "/tmp/never.mock.yaml"], environment: ["BANK_URL": "http://127.0.0.1:9"])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("--record describes one run"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("(record one run)") && !outcome.stderr.contains("--format json"), "\(outcome.stderr)")
    }
}
