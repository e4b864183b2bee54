import Foundation

/// A JUnit XML report — suites of test cases, each passed, failed, errored or skipped — and its rendering.
///
/// The format is the de facto one that Jenkins, GitLab, GitHub test-report actions,
/// Azure Pipelines and CircleCI read: `testsuites` → `testsuite` → `testcase`, with a
/// `failure` (an expectation did not hold), `error` (the test could not run) or
/// `skipped` element, and `time` attributes in seconds. It is general on purpose:
/// `flowrun test` writes one suite per test file and one case per test case, and a lint
/// or run report can map files or steps onto the same model.
///
/// ```swift
/// let report = JUnitXML(name: "flowrun test", suites: [
///     .init(name: "workflows/banking.test.yaml", cases: [
///         .init(name: "happy path", classname: "banking", time: .milliseconds(3)),
///         .init(name: "refresh", classname: "banking", result: .failure(.init(
///             message: "calls differ at call 3", type: "calls", text: "expected: GET /user …"))),
///     ]),
/// ])
/// try report.render().write(toFile: "report.xml", atomically: true, encoding: .utf8)
/// ```
///
/// Every string is escaped for XML: `&`, `<`, `>`, `"` and `'` become entities, line
/// breaks and tabs in attributes become character references (so they survive attribute
/// normalisation), and characters XML 1.0 does not allow at all (most C0 controls,
/// U+FFFE, U+FFFF) are removed.
struct JUnitXML {
    /// A `name`/`value` pair under `properties`.
    struct Property {
        var name: String
        var value: String
    }

    /// What went wrong with a case: the `message` and `type` attributes and the element's text.
    struct Problem {
        /// A one-line summary, the `message` attribute.
        var message: String
        /// The kind of problem, the `type` attribute.
        var type: String
        /// The full explanation, the element's text (a diff, a stack of causes).
        var text: String
    }

    /// How a case ended.
    enum Result {
        /// Every check held.
        case passed
        /// A check did not hold: a `failure` element.
        case failure(Problem)
        /// The case could not run: an `error` element.
        case error(Problem)
        /// The case was not run: a `skipped` element.
        case skipped(message: String?)
    }

    /// One `testcase`.
    struct TestCase {
        /// The case's name.
        var name: String
        /// The `classname` attribute, which tools use to group cases.
        var classname: String
        /// How long the case took, when known.
        var time: Duration?
        /// The file the case is written in.
        var file: String?
        /// The line the case is written at.
        var line: Int?
        /// How the case ended.
        var result: Result = .passed
        /// Extra facts about the case.
        var properties: [Property] = []
        /// Output to attach as `system-out`.
        var systemOut: String?
    }

    /// One `testsuite`.
    struct Suite {
        /// The suite's name.
        var name: String
        /// The file the suite comes from.
        var file: String?
        /// When the suite started.
        var timestamp: Date?
        /// How long the suite took; the sum of its cases' times when `nil`.
        var time: Duration?
        /// Extra facts about the suite.
        var properties: [Property] = []
        /// The cases.
        var cases: [TestCase] = []
        /// Output to attach as `system-out`.
        var systemOut: String?

        /// The suite's time, or the sum of its cases' times.
        var totalTime: Duration { time ?? cases.reduce(.zero) { $0 + ($1.time ?? .zero) } }
        /// The number of cases that ended in each way.
        var counts: Counts {
            var counts = Counts()
            for testCase in cases { counts.add(testCase.result) }
            return counts
        }
    }

    /// How many cases ended in each way, as the `tests`, `failures`, `errors` and `skipped` attributes say.
    struct Counts {
        var tests = 0
        var failures = 0
        var errors = 0
        var skipped = 0

        mutating func add(_ result: Result) {
            tests += 1
            switch result {
            case .passed: break
            case .failure: failures += 1
            case .error: errors += 1
            case .skipped: skipped += 1
            }
        }

        mutating func add(_ other: Counts) {
            tests += other.tests
            failures += other.failures
            errors += other.errors
            skipped += other.skipped
        }
    }

    /// The `name` of the `testsuites` element.
    var name: String
    /// The suites.
    var suites: [Suite]
    /// How long everything took; the sum of the suites' times when `nil`.
    var time: Duration?

    /// The XML document, UTF-8, with an XML declaration and a final line break.
    func render() -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        var totals = Counts()
        for suite in suites { totals.add(suite.counts) }
        let total = time ?? suites.reduce(.zero) { $0 + $1.totalTime }
        out += "<testsuites" + attributes([
            ("name", name), ("tests", "\(totals.tests)"), ("failures", "\(totals.failures)"),
            ("errors", "\(totals.errors)"), ("skipped", "\(totals.skipped)"), ("time", Self.seconds(total)),
        ]) + ">\n"
        for suite in suites { out += render(suite) }
        out += "</testsuites>\n"
        return out
    }

    private func render(_ suite: Suite) -> String {
        let counts = suite.counts
        var pairs: [(String, String?)] = [
            ("name", suite.name), ("tests", "\(counts.tests)"), ("failures", "\(counts.failures)"),
            ("errors", "\(counts.errors)"), ("skipped", "\(counts.skipped)"), ("time", Self.seconds(suite.totalTime)),
        ]
        pairs.append(("timestamp", suite.timestamp.map { Self.timestamp($0) }))
        pairs.append(("file", suite.file))
        var out = "  <testsuite" + attributes(pairs) + ">\n"
        out += properties(suite.properties, indent: "    ")
        for testCase in suite.cases { out += render(testCase) }
        if let systemOut = suite.systemOut { out += "    <system-out>\(Self.escape(systemOut))</system-out>\n" }
        out += "  </testsuite>\n"
        return out
    }

    private func render(_ testCase: TestCase) -> String {
        let open = "    <testcase" + attributes([
            ("name", testCase.name), ("classname", testCase.classname), ("time", testCase.time.map(Self.seconds)),
            ("file", testCase.file), ("line", testCase.line.map(String.init)),
        ])
        var body = properties(testCase.properties, indent: "      ")
        switch testCase.result {
        case .passed:
            break
        case .failure(let problem):
            body += "      <failure" + attributes([("message", problem.message), ("type", problem.type)]) + ">"
                + Self.escape(problem.text) + "</failure>\n"
        case .error(let problem):
            body += "      <error" + attributes([("message", problem.message), ("type", problem.type)]) + ">"
                + Self.escape(problem.text) + "</error>\n"
        case .skipped(let message):
            body += "      <skipped" + attributes([("message", message)]) + "/>\n"
        }
        if let systemOut = testCase.systemOut { body += "      <system-out>\(Self.escape(systemOut))</system-out>\n" }
        return body.isEmpty ? open + "/>\n" : open + ">\n" + body + "    </testcase>\n"
    }

    private func properties(_ properties: [Property], indent: String) -> String {
        guard !properties.isEmpty else { return "" }
        var out = indent + "<properties>\n"
        for property in properties {
            out += indent + "  <property" + attributes([("name", property.name), ("value", property.value)]) + "/>\n"
        }
        return out + indent + "</properties>\n"
    }

    /// ` name="value"` for each pair with a value, escaped for an attribute.
    private func attributes(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { name, value in value.map { " \(name)=\"\(Self.escape($0, inAttribute: true))\"" } }.joined()
    }

    /// Escapes text for XML 1.0 content or a double- or single-quoted attribute.
    ///
    /// Characters that XML 1.0 forbids anywhere (C0 controls other than tab, line feed and
    /// carriage return; U+FFFE; U+FFFF) are removed, since no escape can represent them.
    /// - Parameters:
    ///   - text: The text.
    ///   - inAttribute: Whether the text is an attribute value, where tabs and line breaks become character
    ///     references so that attribute-value normalisation keeps them.
    /// - Returns: The escaped text.
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
            case "\r": out += "&#13;"
            case "\n" where inAttribute: out += "&#10;"
            case "\t" where inAttribute: out += "&#9;"
            default:
                if isAllowed(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// Whether XML 1.0 allows the character: `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// A duration in seconds with millisecond precision, as `time` attributes write it: `0.003`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return String(format: "%lld.%03lld", milliseconds / 1000, milliseconds % 1000)
    }

    /// An ISO 8601 timestamp without a time zone, as the JUnit schema's `timestamp` wants.
    private static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }
}
