import ArgumentParser
import Foundation

/// The `flowrun` command: lint, run and test declarative API workflows.
@main
struct FlowRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flowrun",
        abstract: "Lint, run and test declarative API workflows.",
        discussion: """
            A workflow is a YAML file that declares API steps, how each step's outputs bind to the \
            next step's inputs, the interceptors around every call and the error policies. \
            flowrun checks the whole file before anything runs: every name resolves, every binding \
            reads something that exists and fits where it is bound.

            Examples:
              flowrun run wf.yaml --input token=t-1   Run a workflow over HTTP.
              flowrun lint workflows/                 Check every workflow in a folder.
              flowrun lint --format github wf.yaml    Annotate a GitHub Actions run.
              flowrun test workflows/                 Run the tests: stubs, virtual time.
              flowrun schema > workflow.schema.json   The JSON Schema, for editors.
              flowrun graph wf.yaml                   Draw the steps as a Mermaid chart.
              flowrun mock serve wf.mock.yaml         Answer HTTP requests from stubs.

            The format reference is docs/workflow-format.md.
            """,
        version: FlowRunVersion.current,
        subcommands: [
            LintCommand.self, RunCommand.self, TestCommand.self, GraphCommand.self, SchemaCommand.self,
            MockCommand.self,
        ]
    )

    /// Runs the command, mapping usage errors to exit status 2 as the documentation promises.
    ///
    /// ArgumentParser exits with `EX_USAGE` (64) for bad arguments; flowrun's contract
    /// is 0 success, 1 findings or a failed run, 2 invalid input or usage.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// The version `flowrun --version` prints.
enum FlowRunVersion {
    /// The version.
    static let current = "0.1.0"
}
