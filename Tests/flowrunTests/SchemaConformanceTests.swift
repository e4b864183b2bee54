import FlowCore
import Foundation
import Testing

/// Whether the independent validator's Python modules are importable (CI's `.ci/run` installs them).
private let pythonValidatorAvailable: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import jsonschema, ruamel.yaml"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

private let root = FlowRunProcess.packageRoot
private let schemaPath = root.appendingPathComponent("schemas/workflow.schema.json").path
private let validator = root.appendingPathComponent("Tests/flowrunTests/support/validate_schema.py").path

private func files(in folder: String, suffix: String = ".yaml") throws -> [String] {
    let url = root.appendingPathComponent(folder)
    return try FileManager.default.contentsOfDirectory(atPath: url.path)
        .filter { $0.hasSuffix(suffix) && !$0.hasSuffix(".mock.yaml") && !$0.hasSuffix(".test.yaml") }
        .sorted().map { url.appendingPathComponent($0).path }
}

/// Runs the Python validator on `paths`; returns its exit status and output lines by path.
private func validate(_ paths: [String]) throws -> (status: Int32, lines: [String]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", validator, schemaPath] + paths
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
}

struct SchemaConformanceTests {
    @Test(.enabled(if: pythonValidatorAvailable, "needs python3 with jsonschema and ruamel.yaml"))
    func everyExampleValidatesAgainstTheSchema() throws {
        let examples = try files(in: "workflows")
        #expect(examples.count >= 3)
        let result = try validate(examples)
        #expect(result.status == 0, "\(result.lines.joined(separator: "\n"))")
        #expect(result.lines.count == examples.count)
        #expect(result.lines.allSatisfy { $0.hasPrefix("OK ") })
    }

    @Test(.enabled(if: pythonValidatorAvailable, "needs python3 with jsonschema and ruamel.yaml"))
    func lintAndTheSchemaRejectTheSameInvalidFiles() throws {
        let invalid = try files(in: "Tests/flowrunTests/Fixtures/invalid")
        #expect(invalid.count >= 15)
        let result = try validate(invalid)
        #expect(result.status == 1)
        for path in invalid {
            #expect(result.lines.contains { $0.hasPrefix("INVALID \(path)") }, "the schema accepts \(path)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let expected = try #require(
                text.split(separator: "\n").first?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces),
                "\(path) lacks its '# expect: <code>' line")
            let diagnostics = WorkflowCompiler().check(yaml: text, path: path).diagnostics
            #expect(
                diagnostics.contains { $0.severity == .error && $0.code.name == expected },
                "flowrun lint does not report \(expected) for \(path): \(diagnostics)")
        }
    }

    @Test func everyExampleLintsCleanWithoutWarnings() throws {
        for path in try files(in: "workflows") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let diagnostics = WorkflowCompiler().check(yaml: text, path: path).diagnostics
            #expect(diagnostics.isEmpty, "\(path): \(diagnostics)")
        }
    }

    @Test func theSchemaCommandPrintsTheSchemaFile() throws {
        let outcome = try FlowRunProcess.run(["schema"])
        #expect(outcome.status == 0)
        let file = try String(contentsOfFile: schemaPath, encoding: .utf8)
        #expect(outcome.stdout == file)
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(document?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }
}
