import ArgumentParser

/// `flowrun mock`: commands that work with stub files (`*.mock.yaml`); `serve` answers from them over HTTP.
struct MockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Work with stub files (*.mock.yaml): serve them over HTTP.",
        discussion: """
            A stub file lists canned answers (docs/testing-workflows.md#stubs). `run --mock` and \
            `flowrun test` answer a workflow's requests from one in-process; `mock serve` answers \
            any HTTP client from one: an app under development, curl, `flowrun run` itself.

            Example:
              flowrun mock serve workflows/banking.mock.yaml --port 8080
            """,
        subcommands: [MockServeCommand.self]
    )
}
