import Foundation
import Testing

/// The workflow examples in the README and `docs/` are part of the contract: a reader copies them, so each must
/// pass `flowrun lint --strict`.
@Suite struct DocumentedExamplesTests {
    /// A YAML example of a page, with where it starts.
    struct Example: CustomStringConvertible {
        var page: String
        var line: Int
        var text: String

        var description: String { "\(page):\(line)" }
    }

    /// The documentation pages, relative to the package root.
    static let pages: [String] = {
        let docs = FlowRunProcess.packageRoot.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    /// Every fenced `yaml` block of every page.
    static func examples() throws -> [Example] {
        try pages.flatMap { page -> [Example] in
            let text = try String(
                contentsOf: FlowRunProcess.packageRoot.appendingPathComponent(page), encoding: .utf8)
            var examples: [Example] = []
            var current: (line: Int, lines: [Substring])?
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if current == nil, line == "```yaml" {
                    current = (index + 2, [])
                } else if let block = current, line == "```" {
                    examples.append(Example(page: page, line: block.line, text: block.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    current?.lines.append(line)
                }
            }
            return examples
        }
    }

    /// Lints `files` (name → text) with `--strict` in a fresh folder and expects no finding.
    func expectLintClean(_ files: [String: String], what: String) async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowrun-doc-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let outcome = try await FlowRunProcess.run(["lint", "--strict", folder.path])
        #expect(outcome.status == 0, "\(what):\n\(outcome.stdout)\(outcome.stderr)")
    }

    @Test func everyCompleteWorkflowExampleIsLintClean() async throws {
        let complete = try Self.examples().filter { $0.text.hasPrefix("flowrun: 1") || $0.text.contains("\nflowrun: 1") }
        #expect(!complete.isEmpty, "no complete workflow example found in \(Self.pages)")
        var files: [String: String] = [:]
        for (index, example) in complete.enumerated() {
            files["example-\(index).yaml"] = example.text
        }
        // The OpenAPI documents the examples read: a block whose first line is a comment naming the file
        // (`# shop.openapi.yaml`) is written under that name beside them (lint skips `*.openapi.yaml` files).
        for example in try Self.examples() {
            let first = example.text.prefix { $0 != "\n" }
            guard first.hasPrefix("# "), first.hasSuffix(".openapi.yaml") else { continue }
            files[String(first.dropFirst(2))] = example.text
        }
        try await expectLintClean(files, what: complete.map(\.description).joined(separator: ", "))
    }

    /// A `policies:` example is a fragment; completed with one step per policy it must raise no finding.
    @Test func everyPolicyExampleIsLintCleanOnAStepThatUsesIt() async throws {
        let fragments = try Self.examples().filter { $0.text.hasPrefix("policies:") }
        #expect(!fragments.isEmpty)
        var files: [String: String] = [:]
        for (index, fragment) in fragments.enumerated() {
            // The policy names: the keys indented by two spaces directly under `policies:`.
            let names = fragment.text.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let colon = line.firstIndex(of: ":") else {
                    return nil
                }
                return String(line[line.index(line.startIndex, offsetBy: 2)..<colon])
            }
            let steps = names.enumerated().map { number, name in
                "  - { id: s\(number), policy: \(name), request: { method: GET, path: /items } }"
            }
            files["policies-\(index).yaml"] = """
                flowrun: 1
                servers: { api: { url: "https://api.example" } }
                defaults: { server: api }
                \(fragment.text)
                steps:
                \(steps.joined(separator: "\n"))

                """
        }
        try await expectLintClean(files, what: fragments.map(\.description).joined(separator: ", "))
    }

    /// A step example (`- id: …`) is a fragment that reads steps and types it does not show, so it cannot be
    /// lint-clean on its own; it must still be YAML that loads, as a step of a workflow, so a copied example never
    /// fails to parse (a `{$…}` path unquoted in a flow mapping does).
    @Test func everyStepExampleLoads() async throws {
        let fragments = try Self.examples().filter { $0.text.hasPrefix("- id:") }
        #expect(!fragments.isEmpty)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowrun-doc-steps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, fragment) in fragments.enumerated() {
            let steps = fragment.text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "  " + $0 }.joined(separator: "\n")
            try "flowrun: 1\nsteps:\n\(steps)\n"
                .write(to: folder.appendingPathComponent("step-\(index).yaml"), atomically: true, encoding: .utf8)
        }
        let outcome = try await FlowRunProcess.run(["lint", folder.path])
        let broken = (outcome.stdout + outcome.stderr).split(separator: "\n").filter {
            $0.contains("[invalid-yaml]") || $0.contains("[unsupported-yaml]")
        }
        let places = fragments.map(\.description).joined(separator: ", ")
        #expect(broken.isEmpty, "step examples that do not load (of \(places)):\n\(broken.joined(separator: "\n"))")
    }
}
