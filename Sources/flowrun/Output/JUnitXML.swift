/// Writes JUnit XML, the test-report format CI servers (Jenkins, GitLab, GitHub test reporters) read.
///
/// The model is the common subset of the JUnit dialects: `<testsuites>` holding
/// `<testsuite>`s holding `<testcase>`s, each of which passed, failed (`<failure>`)
/// or was skipped (`<skipped/>`). Counts and total times are computed from the
/// cases, so callers only describe what happened.
///
/// Text is escaped for XML 1.0: `&`, `<`, `>`, `"` and `'` become entities, and
/// the characters XML 1.0 forbids (most C0 controls, lone surrogates cannot occur
/// in a Swift `String`, U+FFFE and U+FFFF) are removed, so any message — a
/// response excerpt with a stray control byte included — yields a well-formed file.
///
/// ```swift
/// let xml = JUnitXML.render([
///     .init(name: "flowrun lint", cases: [
///         .init(name: "lint wf.yaml", className: "flowrun.lint"),
///         .init(name: "lint bad.yaml", className: "flowrun.lint",
///               failure: .init(message: "1 error", type: "unknown-step", text: "bad.yaml:4:7: error: …")),
///     ]),
/// ])
/// ```
struct JUnitXML {
    /// A `<testsuite>`: a named group of cases.
    struct Suite {
        /// The suite's name.
        var name: String
        /// The cases, in order.
        var cases: [Case]
        /// The suite's duration in seconds; the sum of the cases' times when `nil`.
        var time: Double?

        /// Creates a suite.
        /// - Parameters:
        ///   - name: The suite's name.
        ///   - cases: The cases, in order.
        ///   - time: The duration in seconds, or `nil` to sum the cases' times.
        init(name: String, cases: [Case], time: Double? = nil) {
            self.name = name
            self.cases = cases
            self.time = time
        }
    }

    /// A `<testcase>`: one check that passed, failed or was skipped.
    struct Case {
        /// The case's name.
        var name: String
        /// The `classname` attribute, which reporters use to group cases.
        var className: String
        /// The duration in seconds, if measured.
        var time: Double?
        /// Why the case failed, or `nil` when it passed or was skipped.
        var failure: Failure?
        /// Why the case was skipped, or `nil` when it ran. An empty string is a skip without a message.
        var skipped: String?
        /// Text for the case's `<system-out>`, such as the attempts of a step.
        var systemOut: String?

        /// Creates a case.
        /// - Parameters:
        ///   - name: The case's name.
        ///   - className: The `classname` attribute.
        ///   - time: The duration in seconds.
        ///   - failure: Why the case failed.
        ///   - skipped: Why the case was skipped.
        ///   - systemOut: Text for `<system-out>`.
        init(
            name: String, className: String, time: Double? = nil, failure: Failure? = nil, skipped: String? = nil,
            systemOut: String? = nil
        ) {
            self.name = name
            self.className = className
            self.time = time
            self.failure = failure
            self.skipped = skipped
            self.systemOut = systemOut
        }
    }

    /// A `<failure>`: the short message and kind as attributes, the details as its text.
    struct Failure {
        /// A one-line summary.
        var message: String
        /// The kind of failure, such as a ``FlowCore/FlowError/Code`` name.
        var type: String
        /// The details: every finding or the full error.
        var text: String
    }

    /// Renders `suites` as a complete JUnit XML document.
    /// - Parameter suites: The suites, in order.
    /// - Returns: The document, with an XML declaration and a trailing newline.
    static func render(_ suites: [Suite]) -> String {
        let cases = suites.flatMap(\.cases)
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += "<testsuites"
        out += attribute("tests", String(cases.count))
        out += attribute("failures", String(cases.count { $0.failure != nil }))
        out += attribute("errors", "0")
        out += attribute("skipped", String(cases.count { $0.skipped != nil && $0.failure == nil }))
        out += attribute("time", seconds(suites.reduce(0) { $0 + duration(of: $1) }))
        out += ">\n"
        for suite in suites { out += render(suite) }
        out += "</testsuites>\n"
        return out
    }

    /// `text` escaped for an attribute value or element content, without the characters XML 1.0 forbids.
    /// - Parameters:
    ///   - text: Any text.
    ///   - inAttribute: Whether the text goes between quotes, where tab, line feed and carriage return
    ///     are written as character references so that attribute-value normalization keeps them.
    /// - Returns: Text that is safe between quotes and between tags.
    static func escape(_ text: String, inAttribute: Bool = false) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t" where inAttribute: out += "&#9;"
            case "\n" where inAttribute: out += "&#10;"
            // A parser turns a literal carriage return into a line feed even in element content.
            case "\r": out += "&#13;"
            default:
                if isAllowed(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    // MARK: Private

    private static func render(_ suite: Suite) -> String {
        var out = "  <testsuite"
        out += attribute("name", suite.name)
        out += attribute("tests", String(suite.cases.count))
        out += attribute("failures", String(suite.cases.count { $0.failure != nil }))
        out += attribute("errors", "0")
        out += attribute("skipped", String(suite.cases.count { $0.skipped != nil && $0.failure == nil }))
        out += attribute("time", seconds(duration(of: suite)))
        guard !suite.cases.isEmpty else { return out + "/>\n" }
        out += ">\n"
        for testCase in suite.cases { out += render(testCase) }
        out += "  </testsuite>\n"
        return out
    }

    private static func render(_ testCase: Case) -> String {
        var out = "    <testcase"
        out += attribute("name", testCase.name)
        out += attribute("classname", testCase.className)
        if let time = testCase.time { out += attribute("time", seconds(time)) }
        var children = ""
        if let failure = testCase.failure {
            children += "      <failure" + attribute("message", failure.message) + attribute("type", failure.type)
            children += failure.text.isEmpty ? "/>\n" : ">\(escape(failure.text))</failure>\n"
        } else if let skipped = testCase.skipped {
            children += "      <skipped" + (skipped.isEmpty ? "" : attribute("message", skipped)) + "/>\n"
        }
        if let systemOut = testCase.systemOut, !systemOut.isEmpty {
            children += "      <system-out>\(escape(systemOut))</system-out>\n"
        }
        return out + (children.isEmpty ? "/>\n" : ">\n\(children)    </testcase>\n")
    }

    private static func attribute(_ name: String, _ value: String) -> String {
        " \(name)=\"\(escape(value, inAttribute: true))\""
    }

    private static func duration(of suite: Suite) -> Double {
        suite.time ?? suite.cases.reduce(0) { $0 + ($1.time ?? 0) }
    }

    /// Seconds with millisecond precision, as JUnit writers print them: `0.125`.
    private static func seconds(_ value: Double) -> String {
        let milliseconds = Int((max(0, value) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// Whether XML 1.0 allows `scalar`: `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
