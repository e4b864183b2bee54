import Foundation
import FoundationXML
import Testing

@testable import flowrun

struct JUnitXMLTests {
    /// A report with every kind of result and every character that needs care.
    private let report = JUnitXML(name: "all <kinds>", suites: [
        .init(name: "suite & one", file: "a.yaml", cases: [
            .init(name: "passes", classname: "a", time: .milliseconds(1500)),
            .init(name: "fails \"quoted\" 'single'", classname: "a", time: .milliseconds(2), file: "a.yaml", line: 7,
                  result: .failure(.init(
                      message: "line one\nline two\twith a tab", type: "outputs",
                      text: "x < y && y > z ]]> \u{1}bell\u{7} \u{FFFE}end")),
                  properties: [.init(name: "virtual-time", value: "1.4s")]),
            .init(name: "errors", classname: "a", result: .error(.init(message: "cannot run", type: "load", text: "why"))),
            .init(name: "skipped", classname: "a", result: .skipped(message: nil)),
        ]),
        .init(name: "empty", cases: []),
    ])

    @Test func parsesBackWithCountsAndAttributes() throws {
        let document = try XMLDocument(data: Data(report.render().utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "name")?.stringValue == "all <kinds>")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        #expect(root.attribute(forName: "time")?.stringValue == "1.502")

        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 2)
        #expect(suites[0].attribute(forName: "name")?.stringValue == "suite & one")
        #expect(suites[0].attribute(forName: "file")?.stringValue == "a.yaml")
        #expect(suites[1].attribute(forName: "tests")?.stringValue == "0")
        #expect(suites[1].attribute(forName: "time")?.stringValue == "0.000")

        let cases = suites[0].elements(forName: "testcase")
        #expect(cases.count == 4)
        #expect(cases[0].attribute(forName: "time")?.stringValue == "1.500")
        #expect(cases[0].children == nil || cases[0].children?.isEmpty == true)
        #expect(cases[1].attribute(forName: "name")?.stringValue == "fails \"quoted\" 'single'")
        #expect(cases[1].attribute(forName: "line")?.stringValue == "7")
        let failure = try #require(cases[1].elements(forName: "failure").first)
        // Line breaks and tabs in attributes survive attribute-value normalisation.
        #expect(failure.attribute(forName: "message")?.stringValue == "line one\nline two\twith a tab")
        // Characters XML 1.0 forbids are removed; everything else round-trips.
        #expect(failure.stringValue == "x < y && y > z ]]> bell end")
        let property = cases[1].elements(forName: "properties").first?.elements(forName: "property").first
        #expect(property?.attribute(forName: "value")?.stringValue == "1.4s")
        #expect(cases[2].elements(forName: "error").first?.attribute(forName: "type")?.stringValue == "load")
        #expect(cases[3].elements(forName: "skipped").count == 1)
    }

    @Test(arguments: [
        ("a&b", "a&amp;b"), ("<x>", "&lt;x&gt;"), ("\"'", "&quot;&apos;"), ("a\u{0}b\u{1F}c", "abc"),
        ("\u{FFFF}\u{FFFE}\u{FFFD}", "\u{FFFD}"), ("tab\there", "tab\there"), ("cr\r", "cr&#13;"), ("😀", "😀"),
    ])
    func escapesTextAndStripsForbiddenCharacters(text: String, escaped: String) {
        #expect(JUnitXML.escape(text) == escaped)
    }

    @Test func attributesKeepLineBreaksAsReferences() {
        #expect(JUnitXML.escape("a\nb\tc", inAttribute: true) == "a&#10;b&#9;c")
    }
}
