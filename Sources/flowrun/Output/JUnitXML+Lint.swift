import FlowCore

extension JUnitXML {
    /// The JUnit suite of `flowrun lint --format junit`: one test case per file, named `lint <path>`.
    ///
    /// A file's case fails when it has errors, or warnings under `--strict`; the failure's
    /// message counts them, its type is the code of the first, and its text lists every
    /// finding compiler-style (`path:line:col: error: message [code]`). Warnings that do not
    /// fail the file are listed in the case's `<system-out>`.
    /// - Parameters:
    ///   - reports: The linted files.
    ///   - strict: Whether warnings fail a file too.
    /// - Returns: The suite, named `flowrun lint`.
    static func lintSuite(_ reports: [DiagnosticPrinter.FileReport], strict: Bool) -> Suite {
        Suite(name: "flowrun lint", cases: reports.map { lintCase($0, strict: strict) })
    }

    private static func lintCase(_ report: DiagnosticPrinter.FileReport, strict: Bool) -> Case {
        let failing = report.diagnostics.filter { strict || $0.severity == .error }
        let passing = report.diagnostics.filter { !strict && $0.severity == .warning }
        var testCase = Case(name: "lint \(report.path)", className: "flowrun.lint")
        if let first = failing.first {
            let errors = failing.count { $0.severity == .error }
            let warnings = failing.count - errors
            let counts = [(errors, "error"), (warnings, "warning")].filter { $0.0 > 0 }
                .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
            testCase.failure = Failure(
                message: counts.joined(separator: ", "), type: first.code.name,
                text: failing.map { line($0, path: report.path) }.joined(separator: "\n"))
        }
        if !passing.isEmpty {
            testCase.systemOut = passing.map { line($0, path: report.path) }.joined(separator: "\n")
        }
        return testCase
    }

    /// `path:line:col: severity: message [code]`, as `flowrun lint` prints it.
    private static func line(_ diagnostic: Diagnostic, path: String) -> String {
        let place = diagnostic.location.map { "\($0)" } ?? path
        return "\(place): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code)]"
    }
}
