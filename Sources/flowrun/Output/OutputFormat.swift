import ArgumentParser

/// How a command prints its findings.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Compiler-style lines with the source line and a caret, for people.
    case human
    /// One JSON document, for programs.
    case json
    /// GitHub Actions workflow commands (`::error file=…::`), which annotate the pull request.
    case github
}
