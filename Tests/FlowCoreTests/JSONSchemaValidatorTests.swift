import Testing
@testable import FlowCore

/// Decodes a schema written in YAML, the way a workflow file declares one.
private func schema(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONSchema {
    let node = try YAMLLoader().load(yaml, path: "t.yaml")
    var decoder = WorkflowDecoder()
    let schema = decoder.schema(node)
    #expect(decoder.diagnostics.isEmpty, "\(decoder.diagnostics)", sourceLocation: sourceLocation)
    return schema
}

/// Decodes the body of a `types:` section into named types.
private func types(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
    -> [String: JSONSchema]
{
    let node = try YAMLLoader().load(yaml, path: "t.yaml")
    var decoder = WorkflowDecoder()
    var types: [String: JSONSchema] = [:]
    for entry in decoder.entries(node, "'types'") { types[entry.name.value] = decoder.schema(entry.value) }
    #expect(decoder.diagnostics.isEmpty, "\(decoder.diagnostics)", sourceLocation: sourceLocation)
    return types
}

/// A JSON value written as YAML; JSON itself is valid YAML.
private func value(_ yaml: String) throws -> JSONValue {
    JSONValue(yaml: try YAMLLoader().load(yaml, path: "v.yaml"))
}

/// Validates the value written in `valueYAML` against the schema written in `schemaYAML`; formats are enforced
/// unless `formats` says otherwise, so that the checks of every keyword can be seen.
private func failures(
    of valueYAML: String,
    against schemaYAML: String,
    types typesYAML: String = "{}",
    maxFailures: Int = 20,
    formats: ValidationSettings.FormatMode = .enforce,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> [ValidationFailure] {
    let validator = JSONSchemaValidator(
        types: try types(typesYAML, sourceLocation: sourceLocation), formats: formats)
    return validator.validate(
        try value(valueYAML),
        against: try schema(schemaYAML, sourceLocation: sourceLocation),
        maxFailures: maxFailures
    )
}

/// The descriptions of the failures, which is what users read.
private func descriptions(of valueYAML: String, against schemaYAML: String, types typesYAML: String = "{}") throws
    -> [String]
{
    try failures(of: valueYAML, against: schemaYAML, types: typesYAML).map(\.description)
}

/// A tree whose nodes hold an integer and any number of children.
private let treeTypes = """
    Node:
      type: object
      required: [value]
      properties:
        value: { type: integer }
        children: { type: array, items: Node }
    """

struct JSONSchemaValidatorTests {
    // MARK: Keywords

    @Test(arguments: [
        ("{ type: string }", #""a""#),
        ("{ type: integer }", "3"),
        ("{ type: integer }", "3.0"),
        ("{ type: number }", "3"),
        ("{ type: number }", "3.5"),
        ("{ type: boolean }", "false"),
        ("{ type: 'null' }", "null"),
        ("{ type: array }", "[1, a]"),
        ("{ type: object }", "{ a: 1 }"),
        ("{ type: [string, integer] }", "7"),
        ("{ enum: [a, b, 1] }", "b"),
        ("{ const: 3 }", "3"),
        ("{ required: [id], properties: { id: { type: integer } } }", "{ id: 1, other: x }"),
        ("{ properties: { id: { type: integer } }, additionalProperties: false }", "{ id: 1 }"),
        ("{ properties: { id: { type: integer } }, additionalProperties: true }", "{ id: 1, x: 2 }"),
        ("{ properties: { id: {} }, additionalProperties: { type: integer } }", "{ id: x, a: 1, b: 2 }"),
        ("{ items: { type: integer } }", "[1, 2, 3]"),
        ("{ minItems: 2, maxItems: 2 }", "[1, 2]"),
        ("{ minLength: 2, maxLength: 2 }", #""é👍""#),
        ("{ minimum: 0, maximum: 10 }", "0"),
        ("{ minimum: 0, maximum: 10 }", "10"),
        ("{ exclusiveMinimum: 0, exclusiveMaximum: 10 }", "0.5"),
        ("{ exclusiveMinimum: 0, exclusiveMaximum: 10 }", "9"),
        (#"{ pattern: '^[a-z]+-\d{2}$' }"#, "abc-12"),
        ("{ pattern: b }", "abc"),
        ("{ format: uuid }", "123e4567-e89b-12d3-a456-426614174000"),
        ("{ format: hostname-or-whatever }", "anything at all"),
        ("{ format: password }", "hunter2"),
        ("{ allOf: [{ minimum: 0 }, { maximum: 5 }] }", "5"),
        ("{ anyOf: [{ type: string }, { type: integer }] }", "5"),
        ("{ oneOf: [{ type: string }, { type: integer }] }", "5"),
        ("{ minLength: 3, pattern: x, format: email, maxItems: 0, required: [a] }", "12"),
    ])
    func valueThatMeetsEveryKeywordPasses(schema: String, value: String) throws {
        #expect(try failures(of: value, against: schema) == [])
    }

    @Test(arguments: [
        ("{ type: string }", "12", "", "type"),
        ("{ type: integer }", "3.5", "", "type"),
        ("{ type: [string, integer] }", "true", "", "type"),
        ("{ enum: [a, b] }", "c", "", "enum"),
        ("{ const: 3 }", "4", "", "const"),
        ("{ required: [id] }", "{}", "", "required"),
        ("{ properties: { id: { type: integer } } }", "{ id: x }", "/id", "type"),
        ("{ properties: { a: {} }, additionalProperties: false }", "{ a: 1, b: 2 }", "/b", "additionalProperties"),
        ("{ additionalProperties: { type: integer } }", "{ a: 1, b: x }", "/b", "type"),
        ("{ items: { type: integer } }", "[1, x]", "/1", "type"),
        ("{ minItems: 2 }", "[1]", "", "minItems"),
        ("{ maxItems: 1 }", "[1, 2]", "", "maxItems"),
        ("{ minLength: 2 }", #""é""#, "", "minLength"),
        ("{ maxLength: 1 }", #""é👍""#, "", "maxLength"),
        ("{ minimum: 0 }", "-0.5", "", "minimum"),
        ("{ maximum: 10 }", "11", "", "maximum"),
        ("{ maximum: 9007199254740992 }", "9007199254740993", "", "maximum"),
        ("{ exclusiveMinimum: 0 }", "0", "", "exclusiveMinimum"),
        ("{ exclusiveMaximum: 10 }", "10.0", "", "exclusiveMaximum"),
        (#"{ pattern: '^\d+$' }"#, "12a", "", "pattern"),
        (#"{ pattern: '^\d+$' }"#, #""١٢""#, "", "pattern"),
        ("{ format: date-time }", "2024-05-01 12:30:00Z", "", "format"),
        ("{ allOf: [{ minimum: 0 }, { maximum: 5 }] }", "6", "", "maximum"),
        ("{ anyOf: [{ type: string }, { type: integer }] }", "1.5", "", "anyOf"),
        ("{ oneOf: [{ type: number }, { type: integer }] }", "1", "", "oneOf"),
        ("{ $ref: Missing }", "1", "", "$ref"),
    ])
    func valueThatBreaksAKeywordFailsAtItsPointerWithThatRule(
        schema: String, value: String, pointer: String, rule: String
    ) throws {
        let found = try failures(of: value, against: schema)
        #expect(found.map(\.pointer.description) == [pointer])
        #expect(found.map(\.rule) == [rule])
    }

    @Test(arguments: [
        ("{ type: number }", #""12""#, #"at (root): expected a number, found the string "12""#),
        ("{ type: boolean }", #""true""#, #"at (root): expected a boolean, found the string "true""#),
        ("{ type: object }", "[1, 2]", "at (root): expected an object, found an array of 2 items"),
        (
            "{ type: [string, integer, 'null'] }", "{}",
            "at (root): expected an integer, a string or null, found an object"
        ),
        ("{ type: string, nullable: true }", "1", "at (root): expected a string or null, found the number 1"),
        ("{ required: [id] }", "{}", "at (root): missing required property 'id'"),
        (
            "{ properties: { a: {}, b: {} }, additionalProperties: false }", "{ a: 1, zz: 2 }",
            "at /zz: unexpected property; the declared properties are 'a', 'b'"
        ),
        ("{ additionalProperties: false }", "{ x: 1 }", "at /x: unexpected property; the type declares no properties"),
        ("{ minItems: 2 }", "[1]", "at (root): expected at least 2 items, found 1"),
        ("{ maxItems: 1 }", "[1, 2]", "at (root): expected at most 1 item, found 2"),
        (
            "{ minLength: 3 }", "ab",
            #"at (root): the string "ab" is 2 characters long, shorter than the minimum length 3"#
        ),
        (
            "{ maxLength: 3 }", "abcd",
            #"at (root): the string "abcd" is 4 characters long, longer than the maximum length 3"#
        ),
        (
            "{ minLength: 2 }", "x",
            #"at (root): the string "x" is 1 character long, shorter than the minimum length 2"#
        ),
        ("{ minimum: 0 }", "-1", "at (root): the number -1 is less than the minimum 0"),
        ("{ maximum: 2.5 }", "3", "at (root): the number 3 is greater than the maximum 2.5"),
        ("{ exclusiveMinimum: 0 }", "0", "at (root): the number 0 is not greater than the exclusive minimum 0"),
        ("{ exclusiveMaximum: 10 }", "10", "at (root): the number 10 is not less than the exclusive maximum 10"),
        (#"{ pattern: '^\d+$' }"#, "ab", #"at (root): the string "ab" does not match the pattern '^\d+$'"#),
        ("{ enum: [a, b] }", "c", #"at (root): expected one of "a", "b", found the string "c""#),
        ("{ const: { a: [1, x] } }", "4", #"at (root): expected {"a": [1, "x"]}, found the number 4"#),
        ("{ format: uuid }", "nope", #"at (root): the string "nope" is not a valid UUID"#),
        ("{ format: ipv4 }", "1.2.3", #"at (root): the string "1.2.3" is not a valid IPv4 address"#),
        ("{ $ref: Missing }", "1", "at (root): unknown type 'Missing'"),
        (
            "{ anyOf: [{ type: string }, { type: integer }] }", "1.5",
            "at (root): matches none of 2 alternatives: (1) expected a string, found the number 1.5; "
                + "(2) expected an integer, found the number 1.5"
        ),
    ])
    func failureDescriptionSaysWhereAndWhat(schema: String, value: String, description: String) throws {
        #expect(try descriptions(of: value, against: schema) == [description])
    }

    @Test func typeFailureHidesTheKeywordsOfTheExpectedType() throws {
        let found = try failures(of: "1", against: "{ type: string, minLength: 3, enum: [abc], pattern: x }")
        #expect(found.map(\.rule) == ["type"])
    }

    @Test func everyFailureOfAnObjectIsReportedInADeterministicOrder() throws {
        let found = try failures(
            of: "{ b: x, zeta: 1, alpha: 2, a: 3 }",
            against: """
                type: object
                required: [c, d]
                properties: { a: { type: string }, b: { type: integer } }
                additionalProperties: false
                """
        )
        #expect(found.map(\.description) == [
            "at (root): missing required property 'c'",
            "at (root): missing required property 'd'",
            "at /a: expected a string, found the number 3",
            #"at /b: expected an integer, found the string "x""#,
            "at /alpha: unexpected property; the declared properties are 'a', 'b'",
            "at /zeta: unexpected property; the declared properties are 'a', 'b'",
        ])
    }

    @Test func additionalMembersFailInNameOrder() throws {
        let found = try failures(
            of: "{ z: x, m: y, a: 1, c: w }",
            against: "{ additionalProperties: { type: integer } }"
        )
        #expect(found.map(\.pointer.description) == ["/c", "/m", "/z"])
    }

    // MARK: Pointers

    @Test func pointerLeadsThroughNestedObjectsAndArrays() throws {
        let found = try descriptions(
            of: "{ items: [{ id: 1 }, { id: 2 }, { id: '3' }] }",
            against: """
                type: object
                properties:
                  items:
                    type: array
                    items: { type: object, required: [id], properties: { id: { type: integer } } }
                """
        )
        #expect(found == [#"at /items/2/id: expected an integer, found the string "3""#])
    }

    @Test func pointerEscapesSlashAndTildeInKeys() throws {
        let found = try failures(
            of: #"{ "a/b": x, "m~n": y, "plain": 1 }"#,
            against: "{ additionalProperties: { type: integer } }"
        )
        #expect(found.map(\.pointer.description) == ["/a~1b", "/m~0n"])
        #expect(found.map(\.pointer.tokens) == [["a/b"], ["m~n"]])
        #expect(found.first?.description.hasPrefix("at /a~1b: ") == true)
    }

    // MARK: Types and refs

    @Test(arguments: [
        ("integer", "1", true),
        ("integer", "1.0", true),
        ("integer", "-0.0", true),
        ("integer", "1e300", true),
        ("integer", "1.5", false),
        ("integer", #""1""#, false),
        ("number", "1", true),
        ("number", "1.5", true),
        ("number", #""1.5""#, false),
        ("number", "true", false),
    ])
    func integerAcceptsWholeNumbersAndNumberAcceptsAll(type: String, value: String, passes: Bool) throws {
        #expect(try failures(of: value, against: "{ type: \(type) }").isEmpty == passes)
    }

    @Test(arguments: [
        ("{ enum: [1, 2] }", "2.0", true),
        ("{ const: 1.0 }", "1", true),
        ("{ const: [1, { a: true }] }", "[1.0, { a: true }]", true),
        ("{ const: { a: 1, b: [x] } }", "{ b: [x], a: 1.0 }", true),
        ("{ const: { a: 1 } }", "{ a: 1, b: 2 }", false),
        ("{ const: [1, 2] }", "[2, 1]", false),
        (#"{ enum: ["1"] }"#, "1", false),
        ("{ enum: [true] }", "1", false),
        ("{ const: null }", "null", true),
        ("{ const: null }", "0", false),
        ("{ const: 9007199254740993 }", "9007199254740992.0", false),
    ])
    func enumAndConstCompareDeeplyAndNumbersByValue(schema: String, value: String, passes: Bool) throws {
        #expect(try failures(of: value, against: schema).isEmpty == passes)
    }

    @Test func nullableAddsNullToTheType() throws {
        let nullable = "{ type: string, nullable: true }"
        #expect(try failures(of: "null", against: nullable) == [])
        #expect(try failures(of: "x", against: nullable) == [])
        #expect(try failures(of: "null", against: "{ type: string }").map(\.rule) == ["type"])
    }

    @Test func bareTypeNameRefersToANamedType() throws {
        let types = "User: { type: object, required: [id], properties: { id: { type: integer } } }"
        #expect(try failures(of: "[{ id: 1 }]", against: "{ items: User }", types: types) == [])
        #expect(try descriptions(of: "[{ id: 1 }, {}]", against: "{ items: User }", types: types)
            == ["at /1: missing required property 'id'"])
        #expect(try failures(of: "{ id: 1 }", against: "{ $ref: '#/types/User' }", types: types) == [])
    }

    @Test func recursiveTypeValidatesRecursiveData() throws {
        let tree = """
            { value: 1, children: [
                { value: 2 },
                { value: 3, children: [{ value: 4, children: [] }, { value: 5 }] }
            ] }
            """
        #expect(try failures(of: tree, against: "Node", types: treeTypes) == [])
        let broken = "{ value: 1, children: [{ value: 2 }, { value: 3, children: [{ value: 4 }, { value: x }] }] }"
        #expect(try descriptions(of: broken, against: "Node", types: treeTypes)
            == [#"at /children/1/children/1/value: expected an integer, found the string "x""#])
    }

    @Test func recursiveTypeThroughOneOfValidatesALinkedList() throws {
        let types = """
            List:
              oneOf: [{ type: 'null' }, { type: object, required: [next], properties: { next: List } }]
            """
        #expect(try failures(of: "{ next: { next: { next: null } } }", against: "List", types: types) == [])
        let found = try failures(of: "{ next: { next: 3 } }", against: "List", types: types)
        #expect(found.map(\.pointer.description) == [""])
        #expect(found.map(\.rule) == ["oneOf"])
        #expect(found.map(\.message) == [
            "matches none of 2 alternatives: (1) expected null, found an object; "
                + "(2) at /next: matches none of 2 alternatives: (1) expected null, found an object; "
                + "(2) at /next/next: matches none of 2 alternatives: (1) expected null, found the number 3; "
                + "(2) expected an object, found the number 3"
        ])
    }

    @Test(arguments: [
        "Loop: Loop",
        "Loop: { allOf: [Other] }\nOther: { $ref: Loop }",
        "Loop: { oneOf: [Loop, Loop] }",
    ])
    func refCycleThatNeverDescendsFailsInsteadOfRecursingForever(types: String) throws {
        let found = try failures(of: "{ a: 1 }", against: "Loop", types: types)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.rule == "$ref" || $0.rule == "oneOf" })
        #expect(found.contains { $0.message.contains("refers back to itself without descending into the value") })
    }

    @Test(arguments: [
        "Twice: { allOf: [Named, Named] }\nNamed: { $ref: Base }\nBase: { type: object }",
        "Twice: { anyOf: [Named, Base] }\nNamed: { allOf: [Base, Base] }\nBase: { type: object }",
    ])
    func theSameTypeTwiceAtOnePositionIsNoCycle(types: String) throws {
        #expect(try failures(of: "{ a: 1 }", against: "Twice", types: types) == [])
        let rules = try failures(of: "3", against: "Twice", types: types).map(\.rule)
        #expect(!rules.isEmpty && rules.allSatisfy { $0 == "type" || $0 == "anyOf" })
    }

    @Test func valueNestedDeeperThanTheLimitFailsInsteadOfOverflowingTheStack() throws {
        let validator = JSONSchemaValidator(types: try types("Nest: { type: array, items: Nest }"))
        let nest = try schema("Nest")
        func nested(_ depth: Int) -> JSONValue {
            var value = JSONValue.array([])
            for _ in 0..<depth { value = .array([value]) }
            return value
        }
        #expect(validator.validate(nested(ValidationWalk.maxDepth), against: nest) == [])
        let found = validator.validate(nested(ValidationWalk.maxDepth + 1), against: nest)
        #expect(found.map(\.rule) == ["depth"])
        #expect(found.first?.pointer.tokens.count == ValidationWalk.maxDepth)
        #expect(validator.validate(nested(5_000), against: nest).map(\.rule) == ["depth"])
    }

    // MARK: Combinators

    @Test func oneOfRequiresExactlyOneMatchingBranch() throws {
        let payment = """
            oneOf:
              - { type: object, required: [card], properties: { card: { type: string } } }
              - { type: object, required: [iban] }
            """
        #expect(try failures(of: "{ card: x }", against: payment) == [])
        #expect(try failures(of: "{ iban: x }", against: payment) == [])
        #expect(try descriptions(of: "{ card: 1 }", against: payment) == [
            "at (root): matches none of 2 alternatives: (1) at /card: expected a string, found the number 1; "
                + "(2) missing required property 'iban'"
        ])
        #expect(try descriptions(of: "{ card: x, iban: y }", against: payment) == [
            "at (root): matches 2 of 2 alternatives (1 and 2); exactly one must match"
        ])
    }

    @Test func oneOfNamesEveryMatchingBranch() throws {
        let found = try failures(
            of: "4",
            against: "{ oneOf: [{ type: integer }, { type: string }, { minimum: 0 }, { maximum: 10 }] }"
        )
        #expect(found.map(\.message) == ["matches 3 of 4 alternatives (1, 3 and 4); exactly one must match"])
    }

    @Test func branchSummaryMentionsFurtherFailuresOfABranch() throws {
        let found = try failures(
            of: "{}",
            against: "{ anyOf: [{ required: [a, b] }, { type: array }] }"
        )
        #expect(found.map(\.message) == [
            "matches none of 2 alternatives: (1) missing required property 'a' (and more); "
                + "(2) expected an array, found an object"
        ])
    }

    @Test func nestedAlternativesInsideAProbeStillDecide() throws {
        let schema = "{ anyOf: [{ oneOf: [{ type: integer }, { minimum: 0 }] }, { type: string }] }"
        #expect(try failures(of: "-1", against: schema) == [])
        #expect(try failures(of: "x", against: schema) == [])
        #expect(try failures(of: "3", against: schema).map(\.rule) == ["anyOf"])
    }

    // MARK: Secrets

    @Test(arguments: [
        ("{ type: string, format: password, minLength: 12 }", "the value is shorter than the minimum length 12"),
        ("{ type: string, format: password, maxLength: 3 }", "the value is longer than the maximum length 3"),
        (#"{ format: password, pattern: '^\d+$' }"#, #"the value does not match the pattern '^\d+$'"#),
        ("{ type: integer, format: password }", "expected an integer, found a string"),
        ("{ format: password, enum: [a, b] }", #"expected one of "a", "b", found a string"#),
        ("{ format: password, const: a }", #"expected "a", found a string"#),
        ("{ allOf: [{ format: password }, { format: email }] }", "the value is not a valid email address"),
        (
            "{ oneOf: [{ type: string, format: password, minLength: 12 }, { type: integer }] }",
            "matches none of 2 alternatives: (1) the value is shorter than the minimum length 12; "
                + "(2) expected an integer, found a string"
        ),
    ])
    func messagesNeverQuoteAPassword(schema: String, message: String) throws {
        let found = try failures(of: "hunter2", against: schema)
        #expect(found.map(\.message) == [message])
        #expect(!found.contains { $0.description.contains("hunter2") })
    }

    @Test func passwordDeclaredByASiblingOrANamedTypeIsRedactedToo() throws {
        let types = "Secret: { type: string, format: password }"
        let found = try failures(
            of: "{ pin: hunter2, pw: hunter2, key: hunter2, list: [hunter2] }",
            against: #"""
                allOf:
                  - properties: { pw: { format: password }, list: { items: Secret } }
                  - properties:
                      pin: { allOf: [Secret, { pattern: '^\d{4}$' }] }
                      pw: { maxLength: 3 }
                      key: { $ref: Secret, minLength: 10 }
                      list: { items: { type: integer } }
                """#,
            types: types
        )
        #expect(found.map(\.pointer.description) == ["/pin", "/pw", "/key", "/list/0"])
        #expect(!found.contains { $0.description.contains("hunter2") })
    }

    @Test func secretInsideASecretObjectIsRedacted() throws {
        let found = try failures(
            of: "{ inner: hunter2 }",
            against: "{ format: password, properties: { inner: { type: integer } } }"
        )
        #expect(found.map(\.message) == ["expected an integer, found a string"])
    }

    @Test func longValuesAreQuotedShortAndEscaped() throws {
        let long = String(repeating: "a", count: 50)
        #expect(try failures(of: long, against: "{ type: integer }").map(\.message)
            == [#"expected an integer, found the string ""# + String(repeating: "a", count: 40) + #"…""#])
        #expect(try failures(of: #""say \"hi\"\n\u0001""#, against: "{ type: integer }").map(\.message)
            == [#"expected an integer, found the string "say \"hi\"\n\u0001""#])
    }

    // MARK: Patterns

    @Test func invalidPatternIsReportedNamingThePatternEveryTime() throws {
        // The decoder refuses such a pattern (below); a schema built in Swift can still carry one.
        let validator = JSONSchemaValidator(types: [:])
        let location = FlowCore.SourceLocation(path: "t.yaml", line: 1, column: 1)
        let broken = JSONSchema(
            location: location, properties: [("code", JSONSchema(location: location, pattern: "(ab"))])
        for _ in 0..<2 {
            let found = validator.validate(try value("{ code: abc }"), against: broken)
            #expect(found.map(\.pointer.description) == ["/code"])
            #expect(found.map(\.rule) == ["pattern"])
            #expect(found.first?.message.hasPrefix("the pattern '(ab' is not a valid regular expression") == true)
        }
        #expect(validator.validate(try value("{ code: 12 }"), against: broken) == [])
    }

    @Test func countsMayBeWrittenAsIntegerValuedNumbers() throws {
        let counts = try schema("{ minLength: 2.0, maxLength: 3.0, minItems: 0.0, maxItems: 1e1 }")
        #expect([counts.minLength, counts.maxLength, counts.minItems, counts.maxItems] == [2, 3, 0, 10])
        for bad in ["{ minLength: 2.5 }", "{ maxItems: -1.0 }", "{ minLength: x }"] {
            var decoder = WorkflowDecoder()
            _ = decoder.schema(try YAMLLoader().load(bad, path: "t.yaml"))
            #expect(decoder.diagnostics.count == 1, "\(bad)")
        }
    }

    @Test(arguments: ["(ab", "[z-a]", "a{2,1}", "*x", #"\"#])
    func aPatternThatDoesNotCompileIsALintErrorAtThePattern(pattern: String) throws {
        let yaml = """
            flowrun: 1
            types:
              Code: { type: string, pattern: '\(pattern)' }
            steps:
              - id: s
                request: { method: GET, path: "https://x.test/" }
                response: { 200: Code }
            """
        let result = WorkflowCompiler().check(yaml: yaml, path: "w.yaml")
        #expect(result.plan == nil)
        let messages = result.diagnostics.map(\.description)
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.hasPrefix(
            "w.yaml:3:34: error: the pattern '\(pattern)' is not a valid regular expression: ") == true, "\(messages)")
    }

    @Test(arguments: [
        (#"^\d{3}$"#, "123", true),
        (#"^\d{3}$"#, "123\n", false),
        (#"\w+"#, "é", false),
        ("^.$", "👍", true),
        ("^a|b$", "xb", true),
        ("(?<year>[0-9]{4})-(?:0[1-9]|1[0-2])", "on 2024-05-01", true),
        ("^[A-Z]{2}[0-9]{2}$", "DE89", true),
        ("^[A-Z]{2}[0-9]{2}$", "de89", false),
    ])
    func patternSearchesLikeECMAScript(pattern: String, string: String, matches: Bool) throws {
        let validator = JSONSchemaValidator(types: [:])
        let schema = JSONSchema(location: SourceLocation(path: "t.yaml", line: 1, column: 1), pattern: pattern)
        #expect(validator.validate(.string(string), against: schema).isEmpty == matches)
    }

    @Test func copiesOfAValidatorShareCompiledPatternsAcrossTasks() async throws {
        let validator = JSONSchemaValidator(types: [:])
        let code = try schema(#"{ items: { pattern: '^[A-Z]{3}-\d+$' } }"#)
        let values = try value("[ABC-1, XYZ-22, bad, QQQ-3]")
        let results = await withTaskGroup(of: [ValidationFailure].self) { group in
            for _ in 0..<16 { group.addTask { [validator] in validator.validate(values, against: code) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0.map(\.pointer.description) == ["/2"] })
        guard case .compiled = validator.patterns.entry(for: #"^[A-Z]{3}-\d+$"#) else {
            Issue.record("the pattern was not cached")
            return
        }
    }

    // MARK: Formats

    @Test(arguments: [
        ("date-time", "2024-05-01T12:30:00Z", true),
        ("date-time", "2024-05-01t12:30:00.123+02:00", true),
        ("date-time", "1998-12-31T23:59:60Z", true),
        ("date-time", "1998-12-31T15:59:60-08:00", true),
        ("date-time", "1998-12-31T22:59:60Z", false),
        ("date-time", "2024-02-30T00:00:00Z", false),
        ("date-time", "2024-05-01 12:30:00Z", false),
        ("date-time", "2024-05-01T24:00:00Z", false),
        ("date-time", "2024-05-01T12:30:00", false),
        ("date-time", "2024-05-01T12:30:00.Z", false),
        ("date-time", "2024-05-01T12:30:00+0200", false),
        ("date", "2024-02-29", true),
        ("date", "2000-02-29", true),
        ("date", "1900-02-29", false),
        ("date", "2023-02-29", false),
        ("date", "2024-13-01", false),
        ("date", "2024-1-01", false),
        ("date", "2024-05-01T00:00:00Z", false),
        ("email", "joe@example.com", true),
        ("email", "first.last+tag@sub.example-mail.org", true),
        ("email", "joe@", false),
        ("email", "@example.com", false),
        ("email", "jo e@example.com", false),
        ("email", "joe..x@example.com", false),
        ("email", #""joe bloggs"@example.com"#, true),
        ("email", #""joe@bloggs"@example.com"#, true),
        ("email", #""a\"b"@example.com"#, true),
        ("email", #""unterminated@example.com"#, false),
        ("email", #""joe"x@example.com"#, false),
        ("email", "joe.bloggs@[127.0.0.1]", true),
        ("email", "joe.bloggs@[IPv6:::1]", true),
        ("email", "joe.bloggs@[IPv6:2001:db8::8a2e:370:7334]", true),
        ("email", "joe.bloggs@[IPv6:::ffff:192.0.2.1]", true),
        ("email", "joe.bloggs@[127.0.0.300]", false),
        ("email", "joe.bloggs@[IPv6:1::2::3]", false),
        ("email", "joe.bloggs@[IPv6:12345::1]", false),
        ("email", "joe@-example.com", false),
        ("email", "joe@example..com", false),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
        ("uuid", "123E4567-E89B-12D3-A456-426614174000", true),
        ("uuid", "123e4567e89b12d3a456426614174000", false),
        ("uuid", "123e4567-e89b-12d3-a456-42661417400g", false),
        ("uri", "https://example.com/a?b=c#d", true),
        ("uri", "urn:isbn:0451450523", true),
        ("uri", "mailto:joe@example.com", true),
        ("uri", "/relative/path", false),
        ("uri", "example.com", false),
        ("uri", "http://exa mple.com", false),
        ("uri", "1http://example.com", false),
        ("uri", "http://example.com/%zz", false),
        ("uri", "ldap://[2001:db8::7]/c=GB?objectClass?one", true),
        ("uri", "http://user:pw%40x@example.com:8080/", true),
        ("uri", "http://example.com:abc/path", false),
        ("uri", "https://[@example.org/test.txt", false),
        ("uri", "http:/[::1]", false),
        ("uri", "http://x.test/a#b#c", false),
        ("ipv4", "192.168.0.1", true),
        ("ipv4", "0.0.0.0", true),
        ("ipv4", "256.1.1.1", false),
        ("ipv4", "1.2.3", false),
        ("ipv4", "01.2.3.4", false),
        ("ipv4", "1.2.3.4.5", false),
        ("ipv4", "1.2.3.x", false),
    ])
    func formatIsAsserted(format: String, string: String, valid: Bool) throws {
        let schema = JSONSchema(location: SourceLocation(path: "t.yaml", line: 1, column: 1), format: format)
        let found = JSONSchemaValidator(types: [:], formats: .enforce).validate(.string(string), against: schema)
        #expect(found.isEmpty == valid)
        #expect(found.allSatisfy { $0.rule == "format" })
        // By default a format is a hint, as JSON Schema 2020-12 says: nothing fails.
        #expect(JSONSchemaValidator(types: [:]).validate(.string(string), against: schema).isEmpty)
    }

    @Test func aFormatIsAHintUnlessTheWorkflowEnforcesIt() throws {
        func workflow(_ validation: String) -> String {
            """
            flowrun: 1
            \(validation)
            types:
              Event: { type: object, properties: { at: { type: string, format: date-time } } }
            steps:
              - id: s
                request: { method: GET, path: "https://x.test/" }
                response: { 200: Event }
            """
        }
        let loose: JSONValue = ["at": "2024-05-01 12:30"]
        for validation in ["", "validation: { formats: hint }"] {
            let plan = try #require(WorkflowCompiler().check(yaml: workflow(validation), path: "t.yaml").plan)
            #expect(plan.workflow.validation.formats == .hint)
            #expect(plan.validator.validate(loose, against: try #require(plan.types["Event"])).isEmpty)
        }
        let plan = try #require(
            WorkflowCompiler().check(yaml: workflow("validation: { formats: enforce }"), path: "t.yaml").plan)
        #expect(plan.validator.validate(loose, against: try #require(plan.types["Event"])).map(\.description) == [
            #"at /at: the string "2024-05-01 12:30" is not a valid date-time (RFC 3339, such as 2024-05-01T12:30:00Z)"#
        ])
        let result = WorkflowCompiler().check(yaml: workflow("validation: { formats: strict }"), path: "t.yaml")
        #expect(result.diagnostics.map(\.description).contains {
            $0.contains("t.yaml:2:24") && $0.contains("unknown value 'strict' for 'formats'; expected hint or enforce")
        }, "\(result.diagnostics)")
    }

    // MARK: Limits

    @Test func validationStopsAtMaxFailures() throws {
        let strings = "[" + (0..<30).map { "s\($0)" }.joined(separator: ", ") + "]"
        let integers = "{ items: { type: integer } }"
        #expect(try failures(of: strings, against: integers).count == 20)
        #expect(try failures(of: strings, against: integers, maxFailures: 3).map(\.pointer.description)
            == ["/0", "/1", "/2"])
        #expect(try failures(of: strings, against: integers, maxFailures: 0).count == 1)
    }
}

struct NullableReferenceTests {
    @Test func aNullableReferenceAcceptsNullAndTheReferencedType() throws {
        let result = WorkflowCompiler().check(yaml: """
            flowrun: 1
            types:
              User: { type: object, required: [id], properties: { id: { type: string } } }
              Holder: { type: object, properties: { owner: { $ref: User, nullable: true } } }
            steps:
              - id: s
                request: { method: GET, path: "https://x.test/" }
                response: { 200: Holder }
                outputs: { owner: $response.body#/owner/id }
            """, path: "t.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let plan = try #require(result.plan)
        let holder = try #require(plan.types["Holder"])
        let validator = JSONSchemaValidator(types: plan.types)
        #expect(validator.validate(["owner": nil], against: holder).isEmpty)
        #expect(validator.validate(["owner": ["id": "u-1"]], against: holder).isEmpty)
        #expect(!validator.validate(["owner": ["name": "x"]], against: holder).isEmpty)
    }

    @Test func typeMaskHoldsTheDeclaredTypes() {
        let location = FlowCore.SourceLocation(path: "t.yaml", line: 1, column: 1)
        #expect(JSONSchema(location: location).typeMask == 0)
        let schema = JSONSchema(location: location, types: [.integer, .null])
        #expect(schema.typeMask == JSONSchema.TypeName.integer.bit | JSONSchema.TypeName.null.bit)
        #expect(Set(JSONSchema.TypeName.allCases.map(\.bit)).count == JSONSchema.TypeName.allCases.count)
        #expect(ValidationWalk.value(.double(2), hasTypeIn: schema.typeMask))
        #expect(!ValidationWalk.value(.double(2.5), hasTypeIn: schema.typeMask))
        #expect(ValidationWalk.value(.null, hasTypeIn: schema.typeMask))
        #expect(!ValidationWalk.value(.string("2"), hasTypeIn: schema.typeMask))
    }
}
