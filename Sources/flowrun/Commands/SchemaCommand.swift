import ArgumentParser
import Foundation

/// `flowrun schema`: prints the JSON Schema of the workflow file.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (2020-12) of the workflow file format.",
        discussion: """
            Editors that use yaml-language-server complete and check workflow files against it. \
            Point a file at it with a first-line comment:

              # yaml-language-server: $schema=./workflow.schema.json

            Example:
              flowrun schema > workflow.schema.json
            """
    )

    func run() throws {
        FileHandle.standardOutput.write(Data(PackageResources.workflow_schema_json))
    }
}
