import Foundation
import Testing
@testable import FlowCore

/// ``JSONSchemaValidator/matches(_:_:)`` answers for the validator whether a value matches: its "yes" must be the
/// walk's, or a value that fails would pass validation unreported.
struct ValidatorMatchTests {
    /// Named types from the body of a `types:` section.
    private func types(_ yaml: String) throws -> [String: JSONSchema] {
        var decoder = WorkflowDecoder()
        var types: [String: JSONSchema] = [:]
        for entry in decoder.entries(try YAMLLoader().load(yaml, path: "t.yaml"), "'types'") {
            types[entry.name.value] = decoder.schema(entry.value)
        }
        #expect(decoder.diagnostics.isEmpty, "\(decoder.diagnostics)")
        return types
    }

    private func value(_ yaml: String) throws -> JSONValue {
        JSONValue(yaml: try YAMLLoader().load(yaml, path: "v.yaml"))
    }

    /// Whether the match and the walk say `yaml` is of the type `name`.
    private func answers(_ yaml: String, _ name: String, types typesYAML: String) throws -> (match: Bool, walk: Bool) {
        let types = try types(typesYAML)
        let schema = try #require(types[name])
        let value = try value(yaml)
        let match = JSONSchemaValidator(types: types, formats: .enforce).matches(value, schema)
        var walk = ValidationWalk(types: types, patterns: PatternCache(), root: schema, limit: 20, enforcesFormats: true)
        walk.check(value, against: schema)
        return (match, walk.failures.isEmpty)
    }

    @Test(arguments: [
        ("{ id: a-1, count: 3 }", true),
        ("{ id: a-1 }", true),
        ("{ count: 3 }", false),  // required
        ("{ id: 7 }", false),  // type of a property
        ("{ id: a-1, count: 2.5 }", false),  // integer
        ("{ id: '', count: 3 }", false),  // minLength
        ("{ id: b-1 }", false),  // pattern
        ("{ id: a-1, tags: [x, y] }", true),
        ("{ id: a-1, tags: [x, x, x, x] }", false),  // maxItems
        ("{ id: a-1, kind: card }", true),
        ("{ id: a-1, kind: cash }", false),  // enum
        ("{ id: a-1, at: '2026-11-26T10:00:00Z' }", true),
        ("{ id: a-1, at: yesterday }", false),  // format, enforced
        ("{ id: a-1, extra: 1 }", true),  // additionalProperties unspecified
        ("[1]", false),  // type of the object
    ])
    func agreesWithTheWalkOnEveryKeywordOfAResponseType(yaml: String, matches: Bool) throws {
        let types = """
            Item:
              type: object
              required: [id]
              properties:
                id: { type: string, minLength: 1, pattern: '^a-' }
                count: { type: integer, minimum: 0 }
                tags: { type: array, items: { type: string }, maxItems: 3 }
                kind: { enum: [card, transfer] }
                at: { type: string, format: date-time }
            """
        let (match, walk) = try answers(yaml, "Item", types: types)
        #expect(match == matches)
        #expect(walk == matches)
    }

    @Test func followsOneReferencePerPositionThroughARecursiveType() throws {
        let list = """
            Link:
              type: object
              required: [value]
              properties: { value: { type: integer }, next: Link }
            List: { $ref: Link }
            """
        #expect(try answers("{ value: 1, next: { value: 2, next: { value: 3 } } }", "List", types: list) == (true, true))
        #expect(try answers("{ value: 1, next: { value: x } }", "List", types: list) == (false, false))
    }

    /// Where it stops short of the walk's bookkeeping it says no, and the walk decides: a second reference at one
    /// position (a name for a name) and a cycle of references.
    @Test func leavesChainsAndCyclesOfReferencesToTheWalk() throws {
        let chain = "Outer: { $ref: Inner }\nInner: { $ref: Base }\nBase: { type: object }"
        #expect(try answers("{ a: 1 }", "Outer", types: chain) == (false, true))
        let validator = JSONSchemaValidator(types: try types(chain))
        #expect(validator.validate(try value("{ a: 1 }"), against: try types(chain)["Outer"]!) == [])
        #expect(try answers("{ a: 1 }", "Loop", types: "Loop: { allOf: [Loop] }") == (false, false))
    }

    /// Every test of the JSON-Schema-Test-Suite whose schema flowrun accepts: the match answers as the walk does
    /// (their schemas have no `$ref` and nest shallowly, so it never has to leave one to the walk).
    @Test(.enabled(if: ConformanceSuites.folder != nil, ConformanceSuites.absenceNotice))
    func answersEveryTestOfTheSchemaTestSuiteAsTheWalkDoes() throws {
        var compared = 0
        var disagreements: [String] = []
        for formats in [ValidationSettings.FormatMode.hint, .enforce] {
            let folder = JSONSchemaTestSuiteTests.tests
            for file in try ConformanceSuites.contents(of: folder) where file.hasSuffix(".json") {
                let groups = try JSONValue(parsing: try Data(contentsOf: folder.appendingPathComponent(file)))
                for group in groups.arrayValue ?? [] {
                    guard let fields = group.objectValue, let schemaValue = fields["schema"],
                        let schema = try JSONSchemaTestSuiteTests.decode(schemaValue, name: file)
                    else { continue }
                    for test in fields["tests"]?.arrayValue ?? [] {
                        guard let data = test.objectValue?["data"] else { continue }
                        let enforces = formats == .enforce
                        let match = JSONSchemaValidator(types: [:], formats: formats).matches(data, schema)
                        var walk = ValidationWalk(
                            types: [:], patterns: PatternCache(), root: schema, limit: 20, enforcesFormats: enforces)
                        walk.check(data, against: schema)
                        compared += 1
                        if match != walk.failures.isEmpty {
                            disagreements.append("\(file): \(fields["description"]?.stringValue ?? ""): \(data.serialized())")
                        }
                    }
                }
            }
        }
        #expect(compared > 900)
        #expect(disagreements == [])
    }
}
