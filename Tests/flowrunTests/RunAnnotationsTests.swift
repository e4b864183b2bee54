import FlowTestServer
import Foundation
import Testing

/// `flowrun run --format github`: GitHub Actions annotations on standard output.
@Suite(.timeLimit(.minutes(2)))
struct RunAnnotationsTests {
    @Test func aFailedRunIsOneErrorNamingTheStepAndAttempt() async throws {
        let forbidden = FakeBank.json(#"{"code":"forbidden","message":"no access"}"#, status: 403)
        try await withTestServer({ _ in forbidden }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--format", "github", "--input", "token=t-1234"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 1)
            let lines = outcome.stdout.split(separator: "\n").map(String.init)
            #expect(lines == [
                "::error title=flowrun run (http)::step 'user', attempt 1: status 403 (ApiError): no access"
                    + "%0Arequest: GET \(server.baseURL)/user",
            ])
            // The step lines still go to the log.
            #expect(outcome.stderr.contains("✗ user"))
        }
    }

    @Test func aSuccessfulRunIsANoticeWithTheOutputNamesAndARecoveryIsAWarning() async throws {
        let bank = FakeBank(accountID: "acc-new", transactions: nil)
        try await withTestServer({ bank.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--format", "github", "--input", "token=\(bank.freshToken)"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let lines = outcome.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(outcome.stdout)")
            #expect(lines.first == "::warning title=flowrun run (http)::step 'transactions' recovered from: "
                + "status 404 (ApiError): no transactions yet (Bearer ***)")
            let notice = try #require(lines.last)
            #expect(notice.hasPrefix("::notice title=flowrun run::banking-overview succeeded in "), "\(notice)")
            #expect(notice.hasSuffix(": 3 steps; outputs: balance, transactions, username"), "\(notice)")
            #expect(!outcome.stdout.contains(bank.freshToken))
        }
    }

    @Test func anInvalidWorkflowIsAnnotatedAtItsLines() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.yaml", WorkflowTexts.clean.replacingOccurrences(of: "GET", with: "GOT"))
        let outcome = try await FlowRunProcess.run(["run", "--format", "github", path])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.hasPrefix("::error file=\(path),line=6,col=24,title=flowrun run (invalid-value)::"))
        #expect(outcome.stderr.contains("\(path):6:24: error:"))
    }
}
