import FlowCore
import FlowTesting
import Foundation
import Testing

private let root = FlowRunProcess.packageRoot

/// An invalid fixture: its path and what its first line, `# expect: <code> at <line>:<column>`, says flowrun reports.
struct SchemaFixture: CustomTestStringConvertible, Sendable {
    var path: String
    var code: String
    var line: Int
    var column: Int

    /// The path relative to the package root, as `flowrun` prints it when run there with that path.
    var relativePath: String { String(path.dropFirst(root.path.count + 1)) }

    var testDescription: String { relativePath }

    static func all(_ format: SchemaFormat) throws -> [SchemaFixture] {
        try format.files(in: format.invalidFixtures).map { path in
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let first = text.prefix { $0 != "\n" }
            // "# expect: unknown-key at 6:27"
            let words = first.split(separator: " ")
            let place = words.last?.split(separator: ":").compactMap { Int($0) } ?? []
            guard words.count == 5, words[1] == "expect:", words[3] == "at", place.count == 2 else {
                throw FixtureHeaderMissing(path: path)
            }
            return SchemaFixture(path: path, code: String(words[2]), line: place[0], column: place[1])
        }
    }
}

private struct FixtureHeaderMissing: Error, CustomStringConvertible {
    var path: String
    var description: String { "\(path) lacks its '# expect: <code> at <line>:<column>' line" }
}

/// The schemas of stub files and test files, checked against the decoders that define those formats.
struct MockAndTestSchemaTests {
    @Test(
        .enabled(if: pythonValidatorAvailable, "needs python3 with jsonschema and ruamel.yaml"),
        arguments: [SchemaFormat.mock, .test])
    func everyExampleValidatesAgainstItsSchema(_ format: SchemaFormat) async throws {
        let examples = try format.files(in: "workflows")
        #expect(examples.count >= (format == .mock ? 1 : 3))
        let result = try await format.validate(examples)
        #expect(result.status == 0, "\(result.lines.joined(separator: "\n"))")
        #expect(result.lines == examples.map { "OK \($0)" })
    }

    @Test(arguments: SchemaFormat.allCases)
    func everyExampleNamesItsSchemaOnItsFirstLine(_ format: SchemaFormat) throws {
        for path in try format.files(in: "workflows") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let first = text.prefix { $0 != "\n" }
            #expect(first == "# yaml-language-server: $schema=../schemas/\(format.rawValue).schema.json", "\(path)")
        }
    }

    // MARK: Invalid files

    @Test(arguments: try SchemaFixture.all(.mock))
    func theStubDecoderRejectsAnInvalidStubFileAtItsLocation(_ fixture: SchemaFixture) throws {
        let text = try String(contentsOfFile: fixture.path, encoding: .utf8)
        let error = #expect(throws: FlowError.self) { try MockStubs.load(yaml: text, path: fixture.path) }
        #expect(error?.code.name == fixture.code, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("\(fixture.path):\(fixture.line):\(fixture.column): error: ") == true,
                "\(String(describing: error))")
    }

    @Test func flowrunTestRejectsEveryInvalidTestFileAtItsLocation() async throws {
        let fixtures = try SchemaFixture.all(.test)
        #expect(fixtures.count >= 10)
        let outcome = try await FlowRunProcess.run(["test"] + fixtures.map(\.relativePath))
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        for fixture in fixtures {
            let place = "\(fixture.relativePath):\(fixture.line):\(fixture.column): error: "
            // Each diagnostic is printed indented under its file's heading.
            #expect(lines.contains { $0.drop { $0 == " " }.hasPrefix(place) && $0.hasSuffix(" [\(fixture.code)]") },
                    "flowrun test does not report \(fixture.code) at \(place)\n\(outcome.stdout)")
        }
        #expect(outcome.stdout.contains("\(fixtures.count) invalid files in \(fixtures.count) files"))
    }

    @Test(
        .enabled(if: pythonValidatorAvailable, "needs python3 with jsonschema and ruamel.yaml"),
        arguments: [SchemaFormat.mock, .test])
    func theSchemaRejectsEveryInvalidFixture(_ format: SchemaFormat) async throws {
        try await format.expectSchemaRejectsEveryInvalidFixture(minimum: 10)
    }

    // MARK: The patterns

    /// Path patterns, and whether the stub decoder accepts them; the schema's pattern must agree.
    static let paths: [(String, Bool)] = [
        ("/", true), ("/user", true), ("/user/{id}", true), ("/users/{id}/orders/{orderId}", true),
        ("/files/**", true), ("/**", true), ("/a/*/b", true), ("/{*}", true), ("/a/b/", true), ("//", true),
        ("/caf%C3%A9", true),
        ("", false), ("user", false), ("/user?id=1", false), ("/user#top", false), ("/files/**/x", false),
        ("/files/a**", false), ("/users/{id}.json", false), ("/users/{}", false), ("/users/{{id}}", false),
        ("/a/{b", false),
    ]

    /// Calls written as text under `expect.calls`, and whether the test decoder accepts them.
    static let calls: [(String, Bool)] = [
        ("GET /user", true), ("GET /account/{id}", true), ("GET /transactions/acc-42?limit=50", true),
        ("GET  /user", true), (" DELETE /user ", true), ("GET /files/**", true), ("GET /a?x=1#y", true),
        ("get /user", false), ("GET user", false), ("GET", false), ("GET /user extra", false),
        ("FETCH /user", false), ("GET /a#b", false), ("GET\t/user", false), ("GET /a/{id}x", false),
    ]

    /// Values of `expect.elapsed`, as YAML, and whether the test decoder accepts them.
    static let elapsed: [(String, Bool)] = [
        ("0", true), ("0s", true), ("0.0ms", true), ("1.4s", true), ("200ms", true), ("1h", true),
        (#""1.4s""#, true), ("{ min: 1s }", true), ("{ min: 0s, max: 2m }", true),
        ("1.4", false), ("-1s", false), ("1d", false), ("1", false), ("{}", false), ("~", false),
        ("{ min: 1s, at: 2s }", false),
    ]

    @Test(.enabled(if: pythonValidatorAvailable, "needs python3 with jsonschema and ruamel.yaml"))
    func theSchemasAcceptExactlyWhatTheDecodersAccept() async throws {
        let folder = try TemporaryFolder()
        var checks: [(format: SchemaFormat, path: String, written: String, accepted: Bool)] = []
        for (index, (path, valid)) in Self.paths.enumerated() {
            let text = "flowrun-mock: 1\nstubs:\n  - match: { path: \(json(path)) }\n    respond: {}\n"
            let file = try folder.write("p\(index).mock.yaml", text)
            let decoded = (try? MockStubs.load(yaml: text, path: file)) != nil
            #expect(decoded == valid, "the stub decoder \(decoded ? "accepts" : "rejects") the path \(json(path))")
            checks.append((.mock, file, "path \(json(path))", decoded))
        }
        let tests: [(String, Bool, String)] =
            Self.calls.map { ("calls: [\(json($0))]", $1, "call \(json($0))") }
            + Self.elapsed.map { ("elapsed: \($0)", $1, "elapsed: \($0)") }
        for (index, (expectation, valid, written)) in tests.enumerated() {
            let text = "flowrun-test: 1\nworkflow: wf.yaml\ncases:\n  - name: a\n    expect: { \(expectation) }\n"
            let file = try folder.write("t\(index).test.yaml", text)
            let decoded = !WorkflowTestFile.check(bytes: Array(text.utf8), path: file).hasErrors
            #expect(decoded == valid, "the test decoder \(decoded ? "accepts" : "rejects") \(written)")
            checks.append((.test, file, written, decoded))
        }
        for format in [SchemaFormat.mock, .test] {
            let mine = checks.filter { $0.format == format }
            let lines = try await format.validate(mine.map(\.path)).lines
            for check in mine {
                let accepted = lines.contains("OK \(check.path)")
                #expect(accepted == check.accepted,
                        "the \(format) schema \(accepted ? "accepts" : "rejects") \(check.written), the decoder does not")
            }
        }
    }

    // MARK: The command

    @Test(arguments: SchemaFormat.allCases)
    func theSchemaCommandPrintsEachSchemaFile(_ format: SchemaFormat) async throws {
        let outcome = try await FlowRunProcess.run(["schema", format.rawValue])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == (try String(contentsOfFile: format.schemaPath, encoding: .utf8)))
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(document?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(document?["$id"] as? String == "https://flowrun.dev/schemas/\(format.rawValue).schema.json")
    }

    @Test func theSchemaHelpTeachesTheEditorCommentOfEachFormat() async throws {
        let outcome = try await FlowRunProcess.run(["schema", "--help"])
        #expect(outcome.status == 0)
        for format in SchemaFormat.allCases {
            #expect(outcome.stdout.contains("# yaml-language-server: $schema=../schemas/\(format.rawValue).schema.json"))
            #expect(outcome.stdout.contains("flowrun schema \(format == .workflow ? "" : "\(format.rawValue) ")> "))
        }
    }

    @Test func anUnknownFormatIsAUsageError() async throws {
        let outcome = try await FlowRunProcess.run(["schema", "stubs"])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("workflow"))
    }
}

/// `text` as a JSON string literal, which YAML reads as the same string.
private func json(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    return String(decoding: try! encoder.encode(text), as: UTF8.self)
}
