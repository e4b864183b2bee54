import FlowCore
import Foundation

/// Renders the diagnostics of linted files in one of the ``OutputFormat``s.
struct DiagnosticPrinter {
    /// The diagnostics of one file.
    struct FileReport {
        /// The file, when it could be read.
        var source: SourceFile?
        /// The path.
        var path: String
        /// Its diagnostics, sorted by location.
        var diagnostics: [Diagnostic]
        /// With `--explain`: the worst case of each workflow's steps (one for a flowrun workflow, one per
        /// workflow of an Arazzo document).
        var explained: [PolicyAnalysisPrinter.Explained] = []
        /// Whether the file is an Arazzo document, whose `--explain` JSON is by workflow.
        var isArazzo = false
        /// An Arazzo document's source names (and those of the Arazzo documents it calls), which `lint --source`
        /// must name one of.
        var arazzoSourceNames: Set<String> = []
    }

    /// The format to print.
    var format: OutputFormat
    /// Whether to color human output.
    var color: Bool
    /// Whether human output ends with a summary line.
    var showsSummary = true
    /// Whether to print each workflow's ``PolicyAnalysis`` after the findings (`--explain`).
    var explains = false
    /// Whether warnings fail a file too (`--strict`), which decides the failed JUnit test cases.
    var strict = false
    /// The subcommand that found the diagnostics, named in GitHub annotation titles (`flowrun lint (code)`).
    var commandName = "lint"
    /// The most findings printed per file in human and GitHub output (0: all); JSON, SARIF and JUnit keep all.
    var maxFindings = DiagnosticPrinter.defaultMaxFindings

    /// The default of ``maxFindings``: enough for any file a person is fixing, and quick to print.
    static let defaultMaxFindings = 100

    /// Renders all reports, ending with a summary line in human format.
    func render(_ reports: [FileReport]) -> String {
        switch format {
        case .human: human(reports)
        case .json: json(reports)
        case .github: github(reports)
        case .sarif: SARIFLog.render(reports)
        case .junit: JUnitXML.lint(reports, strict: strict).render()
        }
    }

    // MARK: Human

    private func human(_ reports: [FileReport]) -> String {
        var out = ""
        // The other files findings are in (an OpenAPI document a workflow reads), each read once.
        var others: [String: SourceFile?] = [:]
        func source(of location: SourceLocation, in report: FileReport) -> SourceFile? {
            if location.path == report.path { return report.source }
            if let known = others[location.path] { return known }
            let read = try? SourceFile.read(location.path, limit: 8 << 20).get()
            others[location.path] = read
            return read
        }
        for report in reports {
            let shown = maxFindings > 0 ? report.diagnostics.prefix(maxFindings) : report.diagnostics[...]
            for diagnostic in shown {
                out += humanLine(diagnostic, path: report.path)
                if let location = diagnostic.location, let line = source(of: location, in: report)?.line(location.line) {
                    let excerpt = SourceLineExcerpt(line, column: location.column)
                    out += "    \(excerpt.text)\n"
                    out += "    \(excerpt.caretPadding)\(paint("^", .green))\n"
                }
            }
            if shown.count < report.diagnostics.count {
                let rest = report.diagnostics.count - shown.count
                out += "\(report.path): \(plural(rest, "more finding")) not shown (--max-findings 0 shows all)\n"
            }
        }
        if explains {
            out += (out.isEmpty ? "" : "\n") + explanations(reports) + (showsSummary ? "\n" : "")
        }
        guard showsSummary else { return out }
        let errors = reports.reduce(0) { $0 + $1.diagnostics.count { $0.severity == .error } }
        let warnings = reports.reduce(0) { $0 + $1.diagnostics.count { $0.severity == .warning } }
        let files = reports.count == 1 ? "1 file" : "\(reports.count) files"
        if errors == 0 && warnings == 0 {
            out += "\(files) checked, no problems\n"
        } else {
            out += "\(files) checked: \(plural(errors, "error")), \(plural(warnings, "warning"))\n"
        }
        return out
    }

    /// The `--explain` tables of the files that could be read, separated by blank lines.
    private func explanations(_ reports: [FileReport]) -> String {
        let printer = PolicyAnalysisPrinter()
        return reports.filter { $0.source != nil }
            .flatMap { report in
                report.explained.isEmpty
                    ? [printer.table(PolicyAnalysisPrinter.Explained(heading: report.path))]
                    : report.explained.map(printer.table)
            }
            .joined(separator: "\n")
    }

    private func humanLine(_ diagnostic: Diagnostic, path: String) -> String {
        let place = diagnostic.location.map { "\($0)" } ?? path
        let severity = diagnostic.severity == .error
            ? paint("error", .red) : paint("warning", .yellow)
        let message = TerminalText.escape(diagnostic.message)
        return "\(paint(TerminalText.escape(place) + ":", .bold)) \(severity): \(message) [\(diagnostic.code)]\n"
    }

    private enum Style: String {
        case red = "31", green = "32", yellow = "33", bold = "1"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        color ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    private func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    // MARK: JSON

    private func json(_ reports: [FileReport]) -> String {
        let files: [[String: Any]] = reports.map { report in
            var file: [String: Any] = [
                "path": report.path,
                "diagnostics": report.diagnostics.map { diagnostic -> [String: Any] in
                    var entry: [String: Any] = [
                        "severity": diagnostic.severity.rawValue,
                        "code": diagnostic.code.name,
                        "message": diagnostic.message,
                    ]
                    if let location = diagnostic.location {
                        // A finding in an OpenAPI document the workflow reads names that file.
                        if location.path != report.path { entry["file"] = location.path }
                        entry["line"] = location.line
                        entry["column"] = location.column
                    }
                    return entry
                },
            ]
            if explains {
                let printer = PolicyAnalysisPrinter()
                if report.isArazzo {
                    var workflows: [String: Any] = [:]
                    for explained in report.explained { workflows[explained.workflowID ?? ""] = printer.json(explained.analysis) }
                    file["explain"] = ["workflows": workflows]
                } else {
                    file["explain"] = printer.json(report.explained.first?.analysis)
                }
            }
            return file
        }
        let all = reports.flatMap(\.diagnostics)
        let document: [String: Any] = [
            "files": files,
            "summary": [
                "files": reports.count,
                "errors": all.count { $0.severity == .error },
                "warnings": all.count { $0.severity == .warning },
            ],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: GitHub

    private func github(_ reports: [FileReport]) -> String {
        var out = ""
        for report in reports {
            let shown = maxFindings > 0 ? report.diagnostics.prefix(maxFindings) : report.diagnostics[...]
            defer {
                if shown.count < report.diagnostics.count {
                    out += WorkflowCommand(
                        command: "notice", properties: [("file", report.path)],
                        message: "\(plural(report.diagnostics.count - shown.count, "more finding")) not shown "
                            + "(--max-findings 0 shows all)"
                    ).line
                }
            }
            for diagnostic in shown {
                var properties = [(name: "file", value: diagnostic.location?.path ?? report.path)]
                if let location = diagnostic.location {
                    properties.append(("line", String(location.line)))
                    properties.append(("col", String(location.column)))
                }
                properties.append(("title", "flowrun \(commandName) (\(diagnostic.code))"))
                out += WorkflowCommand(
                    command: diagnostic.severity == .error ? "error" : "warning", properties: properties,
                    message: diagnostic.message
                ).line
            }
        }
        // The tables are plain log lines in a GitHub Actions log; only `::` lines become annotations.
        if explains { out += (out.isEmpty ? "" : "\n") + explanations(reports) }
        return out
    }
}
