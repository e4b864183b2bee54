import ArgumentParser
import Foundation

/// `flowrun schema [workflow|mock|test]`: prints the JSON Schema of one of the file formats users write.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (2020-12) of a file format: workflow (the default), mock or test.",
        discussion: """
            Editors that use yaml-language-server (VS Code's YAML extension, Neovim, Helix) complete \
            keys, show each key's help on hover and flag mistakes as you type. Point a file at its \
            schema with a first-line comment, a path relative to the file (here for files in a \
            folder next to schemas/, as in flowrun's workflows/):

              workflow  a workflow (*.yaml)
                        # yaml-language-server: $schema=../schemas/workflow.schema.json
              mock      a stub file (*.mock.yaml), for run --mock, mock serve and test files
                        # yaml-language-server: $schema=../schemas/mock.schema.json
              test      a workflow test file (*.test.yaml)
                        # yaml-language-server: $schema=../schemas/test.schema.json

            A test file's stubs are a stub file's, so test.schema.json refers to mock.schema.json \
            next to it: keep the two in one folder.

            Examples:
              flowrun schema > schemas/workflow.schema.json
              flowrun schema mock > schemas/mock.schema.json
              flowrun schema test > schemas/test.schema.json
            """
    )

    /// The file formats that have a schema.
    enum Format: String, CommandLineChoice {
        case workflow, mock, test

        /// The schema's text, compiled into the binary from `schemas/`.
        var schema: [UInt8] {
            switch self {
            case .workflow: PackageResources.workflow_schema_json
            case .mock: PackageResources.mock_schema_json
            case .test: PackageResources.test_schema_json
            }
        }
    }

    @Argument(help: "The file format whose schema to print.")
    var format: Format = .workflow

    func run() throws {
        FileHandle.standardOutput.write(Data(format.schema))
    }
}
