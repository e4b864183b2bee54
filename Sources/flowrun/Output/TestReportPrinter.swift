import FlowCore
import FlowTesting
import Foundation

/// Renders the results of `flowrun test` in one of the ``TestOutputFormat``s.
struct TestReportPrinter {
    /// What happened to one test file: the problems that kept it from running, or its cases' results.
    struct FileReport {
        /// The test file's path.
        var path: String
        /// Errors in the test file, its stub files or its workflow; when there are any, no case ran.
        var diagnostics: [Diagnostic]
        /// The results of the cases that ran, in file order.
        var results: [WorkflowTestResult] = []

        /// Whether the file could not be run.
        var isInvalid: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// The format to print.
    var format: TestOutputFormat
    /// Whether to color human output.
    var color: Bool
    /// The seed of `--shuffle`, printed in the summary so a failure's order can be reproduced.
    var shuffleSeed: UInt64?

    /// Renders every file's results, ending with a summary (human, github) or totals (json, junit).
    /// - Parameters:
    ///   - reports: The files, in the order found.
    ///   - wallTime: The real time the whole command took.
    func render(_ reports: [FileReport], wallTime: Duration) -> String {
        switch format {
        case .human: human(reports, wallTime: wallTime)
        case .json: json(reports, wallTime: wallTime)
        case .junit: junit(reports, wallTime: wallTime).render()
        case .github: github(reports, wallTime: wallTime)
        }
    }

    // MARK: Human

    private func human(_ reports: [FileReport], wallTime: Duration) -> String {
        var out = ""
        for report in reports {
            if report.isInvalid {
                out += paint(report.path, .bold) + "  " + paint("invalid test file", .red) + "\n"
                out += indent(diagnosticLines(report.diagnostics), by: "  ")
                continue
            }
            guard !report.results.isEmpty else { continue }
            out += paint(report.path, .bold) + "\n"
            for result in report.results {
                let mark = result.passed ? paint("✓", .green) : paint("✗", .red)
                let times = "\(Self.virtual(result.elapsed)) virtual, \(Self.milliseconds(result.wallTime)) ms"
                out += "  \(mark) \(result.name)  " + paint("(\(times))", .dim) + "\n"
                for failure in result.failures {
                    // The expectation that failed, as file:line:col, so an editor can jump to it.
                    let place = (failure.location ?? result.location).map { "\($0): " } ?? ""
                    // A message or detail may quote the server (a response excerpt): shown as `flowrun run` shows
                    // them, line by line with control characters escaped, a detail's later lines under its first.
                    out += "      " + place + paint(failure.kind.name + ":", .red) + " "
                        + TerminalText.lines(failure.message, continuation: "        ") + "\n"
                    for line in failure.details {
                        let label = line.range(of: ": ").map { line.distance(from: line.startIndex, to: $0.upperBound) } ?? 0
                        let continuation = "        " + String(repeating: " ", count: label)
                        out += "        \(TerminalText.lines(line, continuation: continuation))\n"
                    }
                }
            }
        }
        return out + summary(reports, wallTime: wallTime) + "\n"
    }

    /// `N passed, M failed in K files (X ms)`, with the invalid files when there are some.
    private func summary(_ reports: [FileReport], wallTime: Duration) -> String {
        let results = reports.flatMap(\.results)
        let passed = results.count { $0.passed }
        let failed = results.count - passed
        let invalid = reports.count { $0.isInvalid }
        var text = "\(passed) passed, \(failed) failed"
        if invalid > 0 { text += ", \(invalid) invalid file\(invalid == 1 ? "" : "s")" }
        text += " in \(reports.count) file\(reports.count == 1 ? "" : "s") (\(Self.milliseconds(wallTime)) ms)"
        if let shuffleSeed { text += ", steps shuffled with --seed \(shuffleSeed)" }
        let style: Style = invalid > 0 || failed > 0 ? .red : .green
        return paint(text, style)
    }

    /// Diagnostics as `flowrun lint` prints them, with the source line and a caret.
    private func diagnosticLines(_ diagnostics: [Diagnostic]) -> String {
        var sources: [String: SourceFile] = [:]
        for path in Set(diagnostics.compactMap(\.location?.path)) {
            if case .success(let source) = SourceFile.read(path, limit: 8 << 20) { sources[path] = source }
        }
        let printer = DiagnosticPrinter(format: .human, color: color, showsSummary: false)
        var groups: [(path: String, diagnostics: [Diagnostic])] = []
        for diagnostic in diagnostics {
            let path = diagnostic.location?.path ?? ""
            if let index = groups.firstIndex(where: { $0.path == path }) {
                groups[index].diagnostics.append(diagnostic)
            } else {
                groups.append((path, [diagnostic]))
            }
        }
        return printer.render(groups.map {
            .init(source: sources[$0.path], path: $0.path, diagnostics: $0.diagnostics)
        })
    }

    private func indent(_ text: String, by prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { prefix + $0 + "\n" }.joined()
    }

    private enum Style: String {
        case red = "31", green = "32", bold = "1", dim = "2"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        color ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    // MARK: JSON

    private func json(_ reports: [FileReport], wallTime: Duration) -> String {
        let files: [JSONValue] = reports.map { report in
            .object([
                "path": .string(report.path),
                "valid": .bool(!report.isInvalid),
                "diagnostics": .array(report.diagnostics.map { diagnostic in
                    var entry: [String: JSONValue] = [
                        "severity": .string(diagnostic.severity.rawValue),
                        "code": .string(diagnostic.code.name),
                        "message": .string(diagnostic.message),
                    ]
                    if let location = diagnostic.location {
                        entry["path"] = .string(location.path)
                        entry["line"] = .int(location.line)
                        entry["column"] = .int(location.column)
                    }
                    return .object(entry)
                }),
                "cases": .array(report.results.map { result in
                    var entry: [String: JSONValue] = [
                        "name": .string(result.name),
                        "passed": .bool(result.passed),
                        "elapsed": .string(Self.virtual(result.elapsed)),
                        "elapsedSeconds": .double(Self.seconds(result.elapsed)),
                        "wallMilliseconds": .double(Self.seconds(result.wallTime) * 1000),
                        "failures": .array(result.failures.map { failure in
                            var entry: [String: JSONValue] = [
                                "kind": .string(failure.kind.name),
                                "message": .string(failure.message),
                                "details": .array(failure.details.map(JSONValue.string)),
                            ]
                            if let location = failure.location {
                                entry["line"] = .int(location.line)
                                entry["column"] = .int(location.column)
                            }
                            return .object(entry)
                        }),
                    ]
                    if let line = result.location?.line { entry["line"] = .int(line) }
                    return .object(entry)
                }),
            ])
        }
        let results = reports.flatMap(\.results)
        let document = JSONValue.object([
            "files": .array(files),
            "summary": .object([
                "files": .int(reports.count),
                "invalidFiles": .int(reports.count { $0.isInvalid }),
                "passed": .int(results.count { $0.passed }),
                "failed": .int(results.count { !$0.passed }),
                "wallMilliseconds": .double(Self.seconds(wallTime) * 1000),
            ].merging(shuffleSeed.map { ["shuffleSeed": .string(String($0))] } ?? [:]) { $1 }),
        ])
        return document.serialized(pretty: true) + "\n"
    }

    // MARK: JUnit

    /// One suite per test file, one case per test case; an invalid file is one case with an `error`.
    func junit(_ reports: [FileReport], wallTime: Duration) -> JUnitXML {
        let suites = reports.map { report -> JUnitXML.Suite in
            var suite = JUnitXML.Suite(name: report.path, file: report.path)
            if report.isInvalid {
                let text = report.diagnostics.map(\.description).joined(separator: "\n")
                suite.cases = [JUnitXML.TestCase(
                    name: "(load)", classname: Self.classname(report.path), file: report.path,
                    result: .error(.init(
                        message: "invalid test file: \(report.diagnostics.first?.message ?? "")",
                        type: "invalid-test-file", text: text)))]
                return suite
            }
            suite.cases = report.results.map { result in
                // The line of the first expectation that failed, else the case's.
                let line = result.failures.first?.location?.line ?? result.location?.line
                var testCase = JUnitXML.TestCase(
                    name: result.name, classname: Self.classname(report.path), time: result.wallTime,
                    file: report.path, line: line,
                    properties: [.init(name: "virtual-time", value: Self.virtual(result.elapsed))])
                if let first = result.failures.first {
                    testCase.result = .failure(.init(
                        message: first.message,
                        type: result.failures.map(\.kind.name).joined(separator: ","),
                        text: result.failures.map(\.description).joined(separator: "\n")))
                }
                return testCase
            }
            return suite
        }
        return JUnitXML(name: "flowrun test", suites: suites, time: wallTime)
    }

    /// The file's name without `.test.yaml`, with `/` as `.`, as JUnit viewers group by class: `workflows.banking`.
    private static func classname(_ path: String) -> String {
        var name = path
        for suffix in [".test.yaml", ".test.yml"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name.split(separator: "/").filter { $0 != "." && $0 != ".." }.joined(separator: ".")
    }

    // MARK: GitHub

    private func github(_ reports: [FileReport], wallTime: Duration) -> String {
        var out = ""
        for report in reports {
            for diagnostic in report.diagnostics where diagnostic.severity == .error {
                var properties = ["file=\(escapeProperty(diagnostic.location?.path ?? report.path))"]
                if let location = diagnostic.location {
                    properties.append("line=\(location.line)")
                    properties.append("col=\(location.column)")
                }
                properties.append("title=\(escapeProperty("flowrun test (\(diagnostic.code))"))")
                out += "::error \(properties.joined(separator: ","))::\(escapeData(diagnostic.message))\n"
            }
            // One annotation per failed expectation, on the line that states it.
            for result in report.results where !result.passed {
                for failure in result.failures {
                    var properties = ["file=\(escapeProperty(report.path))"]
                    if let location = failure.location ?? result.location {
                        properties.append("line=\(location.line)")
                        properties.append("col=\(location.column)")
                    }
                    properties.append("title=\(escapeProperty("flowrun test: \(result.name) (\(failure.kind))"))")
                    out += "::error \(properties.joined(separator: ","))::\(escapeData(failure.description))\n"
                }
            }
        }
        return out + summary(reports, wallTime: wallTime) + "\n"
    }

    /// Escapes a workflow-command message, as the GitHub Actions toolkit does.
    private func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a workflow-command property, which also may not contain `:` or `,`.
    private func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    // MARK: Figures

    /// A virtual duration as a workflow writes it: `1.4s`, `0s`.
    static func virtual(_ duration: Duration) -> String {
        duration == .zero ? "0s" : duration.workflowText
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Real time in milliseconds, one decimal below 10 ms: `0.4`, `12`.
    static func milliseconds(_ duration: Duration) -> String {
        let value = seconds(duration) * 1000
        return value < 10 ? String(format: "%.1f", value) : String(format: "%.0f", value)
    }
}
