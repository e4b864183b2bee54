import FlowCore

/// `flowrun lint --format junit`: one test case per file, failing with its errors (and warnings with `--strict`).
extension JUnitXML {
    /// The lint report of `reports` as one suite.
    static func lint(_ reports: [DiagnosticPrinter.FileReport], strict: Bool) -> JUnitXML {
        let cases = reports.map { lintCase($0, strict: strict) }
        return JUnitXML(name: "flowrun lint", suites: [Suite(name: "flowrun lint", cases: cases)])
    }

    private static func lintCase(_ report: DiagnosticPrinter.FileReport, strict: Bool) -> TestCase {
        let failing = report.diagnostics.filter { strict || $0.severity == .error }
        let passing = report.diagnostics.filter { !strict && $0.severity == .warning }
        var testCase = TestCase(name: "lint \(report.path)", classname: "flowrun.lint", file: report.path)
        if let first = failing.first {
            let errors = failing.count { $0.severity == .error }
            let warnings = failing.count - errors
            let counts = [(errors, "error"), (warnings, "warning")].filter { $0.0 > 0 }
                .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
            testCase.result = .failure(Problem(
                message: counts.joined(separator: ", "), type: first.code.name,
                text: failing.map { line($0, path: report.path) }.joined(separator: "\n")))
        }
        if !passing.isEmpty {
            testCase.systemOut = passing.map { line($0, path: report.path) }.joined(separator: "\n")
        }
        return testCase
    }

    private static func line(_ diagnostic: Diagnostic, path: String) -> String {
        let place = diagnostic.location.map { "\($0)" } ?? path
        return "\(place): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code)]"
    }
}
