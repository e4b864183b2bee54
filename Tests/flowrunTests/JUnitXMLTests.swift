import FlowTestServer
import Foundation
import FoundationXML
import Testing
@testable import flowrun

/// The JUnit writer itself, `flowrun lint --format junit`, and `flowrun run --format junit` / `--junit-out`;
/// every document is parsed back with Foundation's `XMLDocument`.
@Suite(.timeLimit(.minutes(2)))
struct JUnitXMLTests {
    // MARK: The writer

    @Test func countsAndTimesAreComputedFromTheCases() throws {
        let xml = JUnitXML.render([
            .init(name: "a", cases: [
                .init(name: "passes", className: "c", time: 0.25),
                .init(name: "fails", className: "c", time: 1.5, failure: .init(message: "m", type: "t", text: "x")),
                .init(name: "skipped", className: "c", skipped: ""),
            ]),
            .init(name: "empty", cases: [], time: 2),
        ])
        let root = try #require(try XMLDocument(xmlString: xml).rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "3")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        #expect(root.attribute(forName: "time")?.stringValue == "3.750")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "time")?.stringValue } == ["1.750", "2.000"])
        #expect(suites[1].attribute(forName: "tests")?.stringValue == "0")
        let cases = suites[0].elements(forName: "testcase")
        #expect(cases[1].elements(forName: "failure").first?.stringValue == "x")
        #expect(cases[2].elements(forName: "skipped").count == 1)
        #expect(cases[2].attribute(forName: "time") == nil)
    }

    @Test func markupCharactersAreEscapedAndForbiddenCharactersRemoved() throws {
        let nasty = "a & b < c > d \"e\" 'f'\u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}\u{FFFE}\u{FFFF} g\u{1F600}"
        let multiline = "line 1\nline 2\ttab"
        let xml = JUnitXML.render([
            .init(name: nasty, cases: [
                .init(name: multiline, className: nasty, failure: .init(message: nasty, type: nasty, text: nasty),
                      systemOut: multiline),
            ]),
        ])
        // Only line breaks and tabs of element content remain of the control characters.
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        let document = try XMLDocument(xmlString: xml)
        let testCase = try #require(try document.nodes(forXPath: "//testcase").first as? XMLElement)
        let clean = "a & b < c > d \"e\" 'f' g\u{1F600}"
        #expect(testCase.attribute(forName: "classname")?.stringValue == clean)
        // Attribute values keep their line breaks and tabs.
        #expect(testCase.attribute(forName: "name")?.stringValue == multiline)
        let failure = try #require(testCase.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == clean)
        #expect(failure.stringValue == clean)
        #expect(testCase.elements(forName: "system-out").first?.stringValue == multiline)
    }

    // MARK: flowrun lint --format junit

    @Test func lintWritesATestCasePerFileFailingWithItsErrors() throws {
        let folder = try TemporaryFolder()
        try folder.write("ok.yaml", WorkflowTexts.clean)
        try folder.write("warn.yaml", WorkflowTexts.clean + "\ntypes: { Unused: { type: string } }\n")
        try folder.write("bad.yaml", WorkflowTexts.clean.replacingOccurrences(of: "GET", with: "GOT"))
        let outcome = try FlowRunProcess.run(
            ["lint", "--quiet", "--format", "junit", "ok.yaml", "warn.yaml", "bad.yaml"], in: folder.url)
        #expect(outcome.status == 1)
        let root = try XMLDocument(xmlString: outcome.stdout).rootElement()
        let suite = try #require(root?.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "name")?.stringValue == "flowrun lint")
        #expect(suite.attribute(forName: "tests")?.stringValue == "3")
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        let cases = suite.elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == [
            "lint ok.yaml", "lint warn.yaml", "lint bad.yaml",
        ])
        #expect(cases.allSatisfy { $0.attribute(forName: "classname")?.stringValue == "flowrun.lint" })
        // Without --strict a warning does not fail its file; it is listed in system-out.
        #expect(cases[1].elements(forName: "failure").isEmpty)
        let warnings = cases[1].elements(forName: "system-out").first?.stringValue ?? ""
        #expect(warnings.contains("type 'Unused' is never used"))
        let failure = try #require(cases[2].elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "1 error")
        #expect(failure.attribute(forName: "type")?.stringValue == "invalid-value")
        #expect(failure.stringValue?.hasPrefix("bad.yaml:6:24: error: ") == true)
    }

    @Test func lintStrictFailsFilesWithWarnings() throws {
        let folder = try TemporaryFolder()
        try folder.write("warn.yaml", WorkflowTexts.clean + "\ntypes: { Unused: { type: string } }\n")
        let outcome = try FlowRunProcess.run(["lint", "--strict", "--format", "junit", "warn.yaml"], in: folder.url)
        #expect(outcome.status == 1)
        let document = try XMLDocument(xmlString: outcome.stdout)
        let failure = try #require(try document.nodes(forXPath: "//failure").first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue == "1 warning")
        #expect(failure.attribute(forName: "type")?.stringValue == "unused")
    }

    // MARK: flowrun run

    @Test func runWritesATestCasePerStep() async throws {
        let bank = FakeBank(refreshToken: "refresh-1234", freshToken: "fresh-5678")
        try await withTestServer({ bank.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--format", "junit", "--input", "token=stale-0000",
                 "--input", "refreshToken=refresh-1234"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.isEmpty, "junit prints no step lines")
            let root = try #require(try XMLDocument(xmlString: outcome.stdout).rootElement())
            let suite = try #require(root.elements(forName: "testsuite").first)
            #expect(suite.attribute(forName: "name")?.stringValue == "banking-overview")
            #expect(suite.attribute(forName: "failures")?.stringValue == "0")
            let cases = suite.elements(forName: "testcase")
            #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == [
                "refresh-token", "user", "account", "transactions",
            ])
            #expect(cases.allSatisfy {
                $0.attribute(forName: "classname")?.stringValue == "flowrun.run.banking-overview"
            })
            #expect(cases.allSatisfy { Double($0.attribute(forName: "time")?.stringValue ?? "") != nil })
            let user = cases[1].elements(forName: "system-out").first?.stringValue ?? ""
            #expect(user.contains("attempt 1: GET \(server.baseURL)/user → 200"), "\(user)")
            #expect(!outcome.stdout.contains("fresh-5678") && !outcome.stdout.contains("refresh-1234"))
        }
    }

    @Test func aFailedStepFailsItsCaseAndTheStepsAfterItAreSkipped() async throws {
        let forbidden = FakeBank.json(#"{"code":"forbidden","message":"no access"}"#, status: 403)
        try await withTestServer({ _ in forbidden }) { server in
            let folder = try TemporaryFolder()
            let report = folder.url.appendingPathComponent("results.xml").path
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=t-1234", "--junit-out", report],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 1)
            // Human output as usual, and the report in the file.
            #expect(outcome.stderr.contains("✗ user"))
            let document = try XMLDocument(contentsOf: URL(fileURLWithPath: report))
            let cases = try #require(try document.nodes(forXPath: "//testcase") as? [XMLElement])
            #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["user", "account", "transactions"])
            let failure = try #require(cases[0].elements(forName: "failure").first)
            #expect(failure.attribute(forName: "type")?.stringValue == "http")
            #expect(failure.attribute(forName: "message")?.stringValue == "status 403 (ApiError): no access")
            #expect(failure.stringValue?.contains("request: GET \(server.baseURL)/user") == true)
            #expect(failure.stringValue?.contains(#"response: {"code":"forbidden""#) == true)
            #expect(cases[1...].allSatisfy { $0.elements(forName: "skipped").count == 1 })
            let root = document.rootElement()
            #expect(root?.attribute(forName: "failures")?.stringValue == "1")
            #expect(root?.attribute(forName: "skipped")?.stringValue == "2")
        }
    }

    @Test func aRecoveredStepPassesSayingWhatItRecoveredFrom() async throws {
        let bank = FakeBank(accountID: "acc-new", transactions: nil)
        try await withTestServer({ bank.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--format", "junit", "--input", "token=\(bank.freshToken)"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let document = try XMLDocument(xmlString: outcome.stdout)
            let transactions = try #require(
                try document.nodes(forXPath: "//testcase[@name='transactions']").first as? XMLElement)
            #expect(transactions.elements(forName: "failure").isEmpty)
            let out = transactions.elements(forName: "system-out").first?.stringValue ?? ""
            #expect(out.contains("recovered from http: status 404 (ApiError)"), "\(out)")
            #expect(!outcome.stdout.contains(bank.freshToken))
        }
    }

    @Test func anUnwritableReportFileExitsTwoBeforeAnyRequest() async throws {
        try await withTestServer({ FakeBank().reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=t-1234", "--junit-out", "/nonexistent/dir/r.xml"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("cannot write the JUnit report to /nonexistent/dir/r.xml"))
            #expect(server.requests.isEmpty)
        }
    }
}
