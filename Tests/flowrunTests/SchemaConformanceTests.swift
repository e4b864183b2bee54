import FlowCore
import FlowOpenAPI
import Foundation
import Testing

/// Whether the independent validator's Python modules are importable (CI's `.ci/run` installs them).
let pythonValidatorAvailable: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import jsonschema, ruamel.yaml"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

private let root = FlowRunProcess.packageRoot
private let validator = root.appendingPathComponent("Tests/flowrunTests/support/validate_schema.py").path

/// The file formats that have a schema in `schemas/`, and how their files are named.
enum SchemaFormat: String, CaseIterable, Sendable {
    case workflow, mock, test

    /// The schema file's absolute path.
    var schemaPath: String { root.appendingPathComponent("schemas/\(rawValue).schema.json").path }

    /// Whether a file of this name is of this format: `*.mock.yaml`, `*.test.yaml`, or any other `*.yaml` but an
    /// OpenAPI document (`*.openapi.yaml`) or an Arazzo document (`*.arazzo.yaml`), whose schemas are their own.
    func names(_ file: String) -> Bool {
        switch self {
        case .workflow:
            file.hasSuffix(".yaml") && !file.hasSuffix(".mock.yaml") && !file.hasSuffix(".test.yaml")
                && !file.hasSuffix(".openapi.yaml") && !file.hasSuffix(".arazzo.yaml")
        case .mock: file.hasSuffix(".mock.yaml")
        case .test: file.hasSuffix(".test.yaml")
        }
    }

    /// The absolute paths of the files of this format in `folder` (relative to the package root), sorted.
    func files(in folder: String) throws -> [String] {
        let url = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter(names).sorted().map { url.appendingPathComponent($0).path }
    }

    /// The folder of invalid files, relative to the package root, that both flowrun and the schema reject.
    var invalidFixtures: String {
        switch self {
        case .workflow: "Tests/flowrunTests/Fixtures/invalid"
        case .mock: "Tests/flowrunTests/Fixtures/invalid-mock"
        case .test: "Tests/flowrunTests/Fixtures/invalid-test"
        }
    }

    /// Validates every file of ``invalidFixtures`` and records an issue for each one the schema accepts.
    /// - Parameter minimum: How many fixtures there must be at least.
    /// - Returns: The fixtures' paths.
    @discardableResult
    func expectSchemaRejectsEveryInvalidFixture(
        minimum: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> [String] {
        let invalid = try files(in: invalidFixtures)
        #expect(invalid.count >= minimum, sourceLocation: sourceLocation)
        let result = try await validate(invalid)
        #expect(result.status == 1, sourceLocation: sourceLocation)
        for path in invalid {
            #expect(result.lines.contains { $0.hasPrefix("INVALID \(path): ") }, "the schema accepts \(path)",
                    sourceLocation: sourceLocation)
        }
        return invalid
    }

    /// Runs the Python validator on `paths` against this format's schema, on a thread of its own.
    ///
    /// Waiting for a process blocks a thread; doing so on the cooperative pool, which has as many
    /// threads as the machine has cores, would hold up every other test (and their timings).
    /// - Returns: Its exit status and its output lines, `OK <path>` or `INVALID <path>: <why>`.
    func validate(_ paths: [String]) async throws -> (status: Int32, lines: [String]) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try validateBlocking(paths) }) }
        }
    }

    private func validateBlocking(_ paths: [String]) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", validator, schemaPath] + paths
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        )
    }
}

struct SchemaConformanceTests {
    @Test(.enabled(if: pythonValidatorAvailable, "needs python3 with jsonschema and ruamel.yaml"))
    func everyExampleValidatesAgainstTheSchema() async throws {
        let examples = try SchemaFormat.workflow.files(in: "workflows")
        #expect(examples.count >= 3)
        let result = try await SchemaFormat.workflow.validate(examples)
        #expect(result.status == 0, "\(result.lines.joined(separator: "\n"))")
        #expect(result.lines.count == examples.count)
        #expect(result.lines.allSatisfy { $0.hasPrefix("OK ") })
    }

    @Test(.enabled(if: pythonValidatorAvailable, "needs python3 with jsonschema and ruamel.yaml"))
    func lintAndTheSchemaRejectTheSameInvalidFiles() async throws {
        for path in try await SchemaFormat.workflow.expectSchemaRejectsEveryInvalidFixture(minimum: 15) {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let expected = try #require(
                text.split(separator: "\n").first?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces),
                "\(path) lacks its '# expect: <code>' line")
            let diagnostics = WorkflowCompiler().withOpenAPI().check(yaml: text, path: path).diagnostics
            #expect(
                diagnostics.contains { $0.severity == .error && $0.code.name == expected },
                "flowrun lint does not report \(expected) for \(path): \(diagnostics)")
        }
    }

    @Test func everyExampleLintsCleanWithoutWarnings() throws {
        for path in try SchemaFormat.workflow.files(in: "workflows") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let diagnostics = WorkflowCompiler().withOpenAPI().check(yaml: text, path: path).diagnostics
            #expect(diagnostics.isEmpty, "\(path): \(diagnostics)")
        }
    }

    @Test func theSchemaCommandPrintsTheSchemaFile() async throws {
        let outcome = try await FlowRunProcess.run(["schema"])
        #expect(outcome.status == 0)
        let file = try String(contentsOfFile: SchemaFormat.workflow.schemaPath, encoding: .utf8)
        #expect(outcome.stdout == file)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(document?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }
}
