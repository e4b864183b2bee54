import Foundation
import Testing
@testable import FlowCore

/// The JSON-Schema-Test-Suite (draft 2020-12): every test whose schema uses only the keywords flowrun supports is
/// reproduced, and every schema that uses another keyword is refused when decoded, never silently half-checked.
@Suite(.enabled(if: ConformanceSuites.folder != nil, ConformanceSuites.absenceNotice))
struct JSONSchemaTestSuiteTests {
    /// The suite's draft 2020-12 tests.
    static var tests: URL { ConformanceSuites.suite("json-schema-test-suite/tests/draft2020-12")! }

    /// What happened to the tests of one or more files.
    struct Tally: CustomStringConvertible {
        var reproduced = 0
        var known = 0
        var acceptedGroups = 0
        var refusedTests = 0
        var refusedGroups = 0
        var mismatches: [String] = []

        var accepted: Int { reproduced + known + mismatches.count }

        var description: String {
            "\(reproduced)/\(accepted) tests reproduced in \(acceptedGroups) groups whose schemas use only supported "
                + "keywords (\(known) known exceptions); \(refusedTests) tests in \(refusedGroups) groups refused "
                + "because their schemas use unsupported keywords"
        }
    }

    @Test func everyTestOfEverySupportedKeywordIsReproduced() throws {
        var tally = Tally()
        for file in try ConformanceSuites.contents(of: Self.tests) where file.hasSuffix(".json") {
            try Self.run(file: Self.tests.appendingPathComponent(file), formats: .hint, into: &tally)
        }
        print("JSON-Schema-Test-Suite draft2020-12: \(tally)")
        #expect(tally.mismatches == [])
        // Today every test of these groups passes; a supported keyword must not lose tests to refusal.
        #expect(tally.reproduced >= 493)
    }

    /// The formats flowrun asserts, run with `validation: { formats: enforce }` against the suite's optional
    /// format tests.
    @Test(arguments: ["date-time", "date", "email", "uuid", "uri", "ipv4"])
    func everyTestOfAnEnforcedFormatIsReproduced(format: String) throws {
        var tally = Tally()
        try Self.run(
            file: Self.tests.appendingPathComponent("optional/format/\(format).json"), formats: .enforce, into: &tally)
        print("JSON-Schema-Test-Suite draft2020-12, format \(format) enforced: \(tally)")
        #expect(tally.mismatches == [])
        #expect(tally.refusedGroups == 0)
    }

    /// Tests that flowrun answers differently from the suite, by "file: group: test", with the reason.
    static let knownExceptions: [String: String] = [:]

    /// Decodes each group's schema the way a workflow's type is decoded, then checks each test's data against it.
    static func run(file: URL, formats: ValidationSettings.FormatMode, into tally: inout Tally) throws {
        let name = file.lastPathComponent
        guard case .array(let groups) = try JSONValue(parsing: try Data(contentsOf: file)) else {
            Issue.record("\(name) is not an array of groups")
            return
        }
        let validator = JSONSchemaValidator(types: [:], formats: formats)
        for group in groups {
            guard let fields = group.objectValue, let schemaValue = fields["schema"],
                let tests = fields["tests"]?.arrayValue, let groupName = fields["description"]?.stringValue
            else {
                Issue.record("\(name) has a malformed group")
                continue
            }
            guard let schema = try decode(schemaValue, name: "\(name): \(groupName)") else {
                tally.refusedGroups += 1
                tally.refusedTests += tests.count
                continue
            }
            tally.acceptedGroups += 1
            for test in tests {
                guard let data = test.objectValue?["data"], case .bool(let valid)? = test.objectValue?["valid"],
                    let testName = test.objectValue?["description"]?.stringValue
                else {
                    Issue.record("\(name): \(groupName) has a malformed test")
                    continue
                }
                let id = "\(name): \(groupName): \(testName)"
                let failures = validator.validate(data, against: schema)
                if failures.isEmpty == valid {
                    tally.reproduced += 1
                } else if knownExceptions[id] != nil {
                    tally.known += 1
                } else {
                    tally.mismatches.append("\(id): expected \(valid ? "valid" : "invalid"), got \(failures)")
                }
            }
        }
    }

    /// The schema as flowrun decodes it, or `nil` when flowrun refuses it.
    ///
    /// The suite's schemas are JSON, which is YAML, so they go through the loader and the decoder like a type
    /// in a workflow file. `$schema` at the root only names the draft. A `$ref` can only name a type under
    /// `types:`, and the suite declares none, so a schema with one is refused as the compiler refuses it.
    static func decode(_ value: JSONValue, name: String) throws -> JSONSchema? {
        var value = value
        if case .object(var members) = value {
            members["$schema"] = nil
            value = .object(members)
        }
        let node = try YAMLLoader().load(value.serialized(), path: name)
        var decoder = WorkflowDecoder()
        let schema = decoder.schema(node)
        guard decoder.diagnostics.isEmpty else {
            // Refused: every reason must be a keyword or form flowrun does not support, not a crash or a typo.
            let reasons = Set(decoder.diagnostics.map(\.code))
            #expect(
                reasons.isSubset(of: [.unknownKey, .typeMismatch, .invalidValue]), "\(name): \(decoder.diagnostics)")
            return nil
        }
        return references(in: schema) ? nil : schema
    }

    /// Whether the schema or one of its subschemas has a `$ref`.
    static func references(in schema: JSONSchema) -> Bool {
        if schema.ref != nil { return true }
        var children = schema.properties.map(\.schema) + schema.oneOf + schema.anyOf + schema.allOf
        if let items = schema.items { children.append(items) }
        if case .schema(let other) = schema.additionalProperties { children.append(other) }
        return children.contains(where: references(in:))
    }
}
