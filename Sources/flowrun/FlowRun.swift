import ArgumentParser

/// The `flowrun` command: lint, run and test declarative API workflows.
@main
struct FlowRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flowrun",
        abstract: "Lint and run declarative API workflows.",
        version: "0.1.0",
        subcommands: []
    )
}
