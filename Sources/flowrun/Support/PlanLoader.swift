import ArgumentParser
import FlowCore
import FlowOpenAPI
import Foundation

/// Compiles the one workflow file a command works on, or explains on standard error why it cannot.
///
/// `run` and `graph` both need a plan before they can do anything; a file that does not compile
/// gets the same located diagnostics `flowrun lint` prints, and exit status 2.
struct PlanLoader {
    /// The subcommand's name, which prefixes messages that have no location (`flowrun run: ...`).
    var commandName: String
    /// How to print the file's errors: `human` to standard error, or `github` annotations to standard output.
    var format: OutputFormat = .human
    /// What of an Arazzo document to compile, and where its operations go.
    var arazzo = ArazzoOptions()
    /// Prints a report of a run that could not start, given the file's first error (or why it could not be read,
    /// or which workflow to choose); `nil` prints none. `run` sets it for `--format json` and `junit`, whose
    /// readers expect a report on standard output.
    var failureReport: ((FlowError) -> Void)?

    /// Reads and compiles `file`.
    ///
    /// - Parameter file: The workflow file's path, as the user gave it.
    /// - Returns: The plan.
    /// - Throws: `ExitCode(2)` after printing the error when the file cannot be read, or its
    ///   errors, each with the source line and a caret, when it does not compile.
    func load(_ file: String) throws -> Plan {
        let compiler = arazzo.applied(to: WorkflowCompiler().withOpenAPI())
        let source: SourceFile
        switch SourceFile.read(file, limit: compiler.loaderLimits.maxFileSize) {
        case .success(let read): source = read
        case .failure(let error):
            FileHandle.standardError.write(Data("flowrun \(commandName): \(error.description)\n".utf8))
            failureReport?(error)
            throw ExitCode(2)
        }
        let result = compiler.check(bytes: source.bytes, path: file)
        let errors = result.diagnostics.filter { $0.severity == .error }
        if let plan = result.plan, errors.isEmpty {
            // An Arazzo document's options given for a flowrun workflow would be ignored: a `--server` meant to keep
            // the requests off a production server would not.
            if result.kind == .workflow, let option = arazzo.given.first {
                let message = "\(option): \(file) is a flowrun workflow, not an Arazzo document: --server and "
                    + "--source name the sources (sourceDescriptions) of an Arazzo document and --workflow one of "
                    + "its workflows; a flowrun workflow's servers are set under its 'servers:', from $env or inputs"
                FileHandle.standardError.write(Data("flowrun \(commandName): \(message)\n".utf8))
                failureReport?(FlowError(.invalidValue, message))
                throw ExitCode(2)
            }
            return plan
        }
        if result.kind == .arazzo, errors.isEmpty {
            // A document with several workflows and no --workflow: each was checked, none chosen.
            let ids = ArazzoOptions.workflowIDs(in: source.bytes, path: file)
            let message = "\(file) has \(ids.count) workflows; choose one with --workflow: " + ids.joined(separator: ", ")
            FileHandle.standardError.write(Data("flowrun \(commandName): \(message)\n".utf8))
            failureReport?(FlowError(.invalidValue, message))
            throw ExitCode(2)
        }
        let report = DiagnosticPrinter.FileReport(source: source, path: file, diagnostics: errors)
        if format == .github {
            // Annotations are read from standard output; they point at the lines of the workflow file.
            var printer = DiagnosticPrinter(format: .github, color: false, showsSummary: false)
            printer.commandName = commandName
            FileHandle.standardOutput.write(Data(printer.render([report]).utf8))
        }
        let printer = DiagnosticPrinter(format: .human, color: Terminal.isColorTerminal(STDERR_FILENO), showsSummary: false)
        FileHandle.standardError.write(Data(printer.render([report]).utf8))
        if let failureReport, let first = errors.first {
            failureReport(FlowError(first.code, first.message, at: first.location))
        }
        throw ExitCode(2)
    }
}
