import ArgumentParser

/// How `flowrun lint` prints its findings.
enum OutputFormat: String, CommandLineChoice {
    /// Compiler-style lines with the source line and a caret, for people.
    case human
    /// One JSON document, for programs.
    case json
    /// GitHub Actions workflow commands (`::error file=…::`), which annotate the pull request.
    case github
    /// A SARIF 2.1.0 log, for GitHub code scanning and other static-analysis dashboards.
    case sarif
    /// JUnit XML, for CI test reports: a test case per file.
    case junit
}
