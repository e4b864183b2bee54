import Foundation
import FoundationXML
import Testing
@testable import flowrun

/// The JUnit writer itself and `flowrun lint --format junit`; every document is parsed back with
/// Foundation's `XMLDocument`.
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
}
