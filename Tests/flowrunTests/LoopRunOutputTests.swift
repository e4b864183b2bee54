import Foundation
import FoundationXML
import Testing

/// What `flowrun run` shows of loops, fan-out and sub-workflows: one summary line per step, a line per
/// iteration, item or called step with `-v`, and every attempt with its index in the JUnit report.
struct LoopRunOutputTests {
    /// Three pages of issues by the Link header, as paginate-all-pages.test.yaml stubs them.
    private static let pages = """
        flowrun-mock: 1
        stubs:
          - match: { method: GET, path: /repos/acme/api/issues, query: { page: "2" } }
            respond:
              headers: { Link: '<https://tracker.example/repos/acme/api/issues?state=open&per_page=50&page=3>; rel="next"' }
              body: [{ number: 3, title: Flaky test }]
          - match: { method: GET, path: /repos/acme/api/issues, query: { page: "3" } }
            respond: { body: [{ number: 5, title: Docs }] }
          - match: { method: GET, path: /repos/acme/api/issues }
            respond:
              headers: { Link: '<https://tracker.example/repos/acme/api/issues?state=open&per_page=50&page=2>; rel="next"' }
              body: [{ number: 1, title: Crash on start }]
          - match: { method: POST, path: /repos/acme/api/digests }
            respond: { status: 201, body: { id: d-1 } }
        """

    /// Three transactions whose second has no details.
    private static let transactions = """
        flowrun-mock: 1
        stubs:
          - match: { method: GET, path: /accounts/acc-1/transactions }
            respond: { body: [{ id: t1, amount: 1 }, { id: t2, amount: 2 }, { id: t3, amount: 3 }] }
          - match: { method: GET, path: /transactions/t2/details }
            respond: { status: 404, body: { error: not found } }
          - match: { method: GET, path: /transactions/t1/details }
            respond: { body: { id: t1, merchant: Bakery } }
          - match: { method: GET, path: /transactions/t3/details }
            respond: { body: { id: t3, merchant: Books } }
          - match: { method: PUT, path: /accounts/acc-1/merchant-report }
            respond: { body: {} }
        """

    private static let login = """
        flowrun-mock: 1
        stubs:
          - { match: { method: POST, path: /login }, respond: { body: { token: t-1, expiresIn: 60 } } }
          - { match: { method: GET, path: /invoices }, respond: { body: [{ id: inv-1, amount: 3 }] } }
        """

    private static func paginate(_ extra: [String]) async throws -> FlowRunProcess.Outcome {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("pages.mock.yaml", pages)
        return try await FlowRunProcess.run(
            ["run", "workflows/paginate-all-pages.yaml", "--mock", stubs, "--input", "owner=acme", "--input", "repo=api",
             "--input", "token=secret-token-1"] + extra)
    }

    @Test func aLoopPrintsOneSummaryLineWithoutVerbose() async throws {
        let run = try await Self.paginate([])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✓ issues  GET ") && $0.hasSuffix("(3 pages, 3 attempts)") }, "\(run.stderr)")
        #expect(!run.stderr.contains("page 0"), "\(run.stderr)")
    }

    @Test func verbosePrintsALinePerPageUnderTheSummary() async throws {
        let run = try await Self.paginate(["-v"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let summary = try #require(lines.firstIndex { $0.hasPrefix("✓ issues  ") }, "\(run.stderr)")
        // Each page's line, with its exchange under it, further in.
        let pages = lines[(summary + 1)...].filter { $0.hasPrefix("    page ") }
        #expect(pages.count == 3, "\(run.stderr)")
        let base = "https://tracker.example/repos/acme/api/issues?state=open&per_page=50"
        let expected = [
            "    page 0  GET \(base)  200  ", "    page 1  GET \(base)&page=2  200  ",
            "    page 2  GET \(base)&page=3  200  ",
        ]
        #expect(zip(pages, expected).allSatisfy { $0.hasPrefix($1) && $0.hasSuffix(" ms") }, "\(run.stderr)")
        #expect(!run.stderr.contains("secret-token-1"))
    }

    /// An item's error quotes the server: its line escapes the message, so it stays one line and sends the
    /// terminal no escape sequence.
    @Test func verboseEscapesAnItemsErrorMessage() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("tx.mock.yaml", Self.transactions.replacingOccurrences(
            of: "{ status: 404, body: { error: not found } }", with: #"{ status: 404, body: { message: "gone\e[2J\nnow" } }"#))
        let run = try await FlowRunProcess.run(
            ["run", "workflows/fan-out-details.yaml", "--mock", stubs, "--input", "accountId=acc-1",
             "--input", "token=t-1", "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("    item 1  GET https://bank.example/transactions/t2/details  404  ")
            && $0.hasSuffix(#" ms  http: status 404: gone\u{1B}[2J\nnow"#) }, "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains("\u{1B}"), "\(run.stderr)")
    }

    @Test func verbosePrintsEachItemWithItsErrorAndJUnitListsThem() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("tx.mock.yaml", Self.transactions)
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let run = try await FlowRunProcess.run(
            ["run", "workflows/fan-out-details.yaml", "--mock", stubs, "--input", "accountId=acc-1",
             "--input", "token=t-1", "--verbose", "--junit-out", junit])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✓ details  ") && $0.hasSuffix("(3 items, 3 attempts)") }, "\(run.stderr)")
        #expect(lines.contains { $0.hasPrefix("    item 1  GET https://bank.example/transactions/t2/details  404  ") && $0.contains(" ms  http: ") }, "\(run.stderr)")
        #expect(lines.filter { $0.hasPrefix("    item ") }.count == 3, "\(run.stderr)")

        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit))
        let details = try #require(try document.nodes(forXPath: "//testcase[@name='details']").first as? XMLElement)
        let properties = (details.elements(forName: "properties").first?.elements(forName: "property") ?? [])
            .map { "\($0.attribute(forName: "name")?.stringValue ?? "")=\($0.attribute(forName: "value")?.stringValue ?? "")" }
        #expect(properties == ["itemCount=3"])
        let out = details.elements(forName: "system-out").first?.stringValue ?? ""
        #expect(out.contains("item 0: GET https://bank.example/transactions/t1/details → 200 ("), "\(out)")
        #expect(out.contains("item 1: GET https://bank.example/transactions/t2/details → 404 ("), "\(out)")
        #expect(out.contains("(http: "), "\(out)")
    }

    @Test func verbosePrintsTheCalledWorkflowsStepsAndJUnitNamesThem() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("login.mock.yaml", Self.login)
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let run = try await FlowRunProcess.run(
            ["run", "workflows/list-invoices.yaml", "--mock", stubs, "-v", "--junit-out", junit,
             "--input", "username=ada", "--input", "password=correct-horse-battery"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let login = try #require(lines.firstIndex { $0.hasPrefix("✓ login  workflow ./shared-login.yaml (1 step)") }, "\(run.stderr)")
        #expect(lines[login + 1].hasPrefix("    ✓ token  POST https://auth.example/login  200  "), "\(run.stderr)")
        #expect(!run.stderr.contains("correct-horse-battery"))

        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit))
        let step = try #require(try document.nodes(forXPath: "//testcase[@name='login']").first as? XMLElement)
        let out = step.elements(forName: "system-out").first?.stringValue ?? ""
        #expect(out.hasPrefix("step token: succeeded ("), "\(out)")
        #expect(out.contains("  attempt 1: POST https://auth.example/login → 200 ("), "\(out)")
        let names = (step.elements(forName: "properties").first?.elements(forName: "property") ?? [])
            .compactMap { $0.attribute(forName: "name")?.stringValue }
        #expect(names == ["workflow", "subSteps"])
        #expect(!(try String(contentsOfFile: junit, encoding: .utf8)).contains("correct-horse-battery"))
    }

    @Test func withoutVerboseAWorkflowStepPrintsOneLine() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("login.mock.yaml", Self.login)
        let run = try await FlowRunProcess.run(
            ["run", "workflows/list-invoices.yaml", "--mock", stubs, "--input", "username=ada", "--input", "password=pw"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("    ✓ token"), "\(run.stderr)")
    }
}
