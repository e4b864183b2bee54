import Testing

@testable import FlowCore

/// Loads `yaml` with the default limits, or with `limits`.
private func load(_ yaml: String, limits: YAMLLoader.Limits = .default) throws(FlowError) -> YAMLNode {
    try YAMLLoader(limits: limits).load(yaml, path: "t.yaml")
}

/// Loads `bytes` with the default limits, or with `limits`.
private func load(bytes: [UInt8], limits: YAMLLoader.Limits = .default) throws(FlowError) -> YAMLNode {
    try YAMLLoader(limits: limits).load(bytes, path: "t.yaml")
}

/// Expects loading to fail with `code` at `line`:`column`, with a message containing `fragment`.
private func expectFailure(
    _ load: () throws(FlowError) -> YAMLNode,
    _ code: FlowError.Code,
    line: Int,
    column: Int,
    containing fragment: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    do {
        let node = try load()
        Issue.record(
            "expected \(code) at \(line):\(column), loaded \(node.kindDescription)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.location?.path == "t.yaml", "\(error)", sourceLocation: sourceLocation)
        #expect(error.location?.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(error.location?.column == column, "\(error)", sourceLocation: sourceLocation)
        if let fragment {
            #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }
}

/// Expects loading `yaml` to fail with `code` at `line`:`column`, with a message containing `fragment`.
private func expectFailure(
    _ yaml: String,
    _ code: FlowError.Code,
    line: Int,
    column: Int,
    containing fragment: String? = nil,
    limits: YAMLLoader.Limits = .default,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    expectFailure(
        { () throws(FlowError) in try load(yaml, limits: limits) },
        code,
        line: line,
        column: column,
        containing: fragment,
        sourceLocation: sourceLocation
    )
}

/// Expects loading `bytes` to fail with `code` at `line`:`column`, with a message containing `fragment`.
private func expectFailure(
    bytes: [UInt8],
    _ code: FlowError.Code,
    line: Int,
    column: Int,
    containing fragment: String? = nil,
    limits: YAMLLoader.Limits = .default,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    expectFailure(
        { () throws(FlowError) in try load(bytes: bytes, limits: limits) },
        code,
        line: line,
        column: column,
        containing: fragment,
        sourceLocation: sourceLocation
    )
}

extension YAMLNode {
    /// The value of the mapping entry whose key text is `key`.
    subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.scalar?.text == key }?.value
    }

    /// The element at `index` of a sequence.
    subscript(index: Int) -> YAMLNode? {
        guard let sequence, sequence.indices.contains(index) else { return nil }
        return sequence[index]
    }

    /// The texts of a mapping's keys, in order.
    var keys: [String] { mapping?.map { $0.key.scalar?.text ?? "?" } ?? [] }

    /// The resolved value, when this node is a scalar.
    var value: YAMLScalar.Value? { scalar?.value }

    /// The location as `line:column`.
    var position: String { "\(location.line):\(location.column)" }
}

struct YAMLLoaderTests {
    // MARK: - Core schema

    static let plainScalars: [(String, YAMLScalar.Value)] = [
        // Null.
        ("~", .null), ("null", .null), ("Null", .null), ("NULL", .null), ("", .null),
        ("nULL", .string("nULL")), ("nil", .string("nil")), ("None", .string("None")),
        // Bool: only the core schema's six spellings.
        ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)),
        ("false", .bool(false)), ("False", .bool(false)), ("FALSE", .bool(false)),
        ("tRUE", .string("tRUE")), ("yes", .string("yes")), ("no", .string("no")), ("on", .string("on")),
        ("off", .string("off")), ("y", .string("y")), ("n", .string("n")), ("Yes", .string("Yes")),
        ("NO", .string("NO")), ("truey", .string("truey")),
        // Int.
        ("0", .int(0)), ("42", .int(42)), ("-17", .int(-17)), ("+5", .int(5)), ("-0", .int(0)),
        ("012", .int(12)), ("0o17", .int(15)), ("0x1F", .int(31)), ("0xff", .int(255)), ("0x0", .int(0)),
        ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ("0x7FFFFFFFFFFFFFFF", .int(.max)), ("0o777777777777777777777", .int(.max)),
        ("0o8", .string("0o8")), ("0x", .string("0x")), ("0o", .string("0o")), ("0xG1", .string("0xG1")),
        ("-0x1F", .string("-0x1F")), ("+0o7", .string("+0o7")), ("0X1F", .string("0X1F")),
        ("0b101", .string("0b101")), ("1_000", .string("1_000")), ("12:30", .string("12:30")),
        ("2024-01-01", .string("2024-01-01")), ("1 2", .string("1 2")), ("+", .string("+")), ("--", .string("--")),
        // Int overflow: decimal becomes a double, hexadecimal and octal stay strings.
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("-9223372036854775809", .double(-9.223_372_036_854_775_808e18)),
        ("0x10000000000000000", .string("0x10000000000000000")),
        ("0o1000000000000000000000", .string("0o1000000000000000000000")),
        // Float.
        ("1e3", .double(1000)), ("1E3", .double(1000)), ("1.5", .double(1.5)), ("-2.5e-3", .double(-0.0025)),
        ("+1.5E+2", .double(150)), (".5", .double(0.5)), ("-.5", .double(-0.5)), ("5.", .double(5)),
        ("0.0", .double(0)), ("1e400", .double(.infinity)),
        (".inf", .double(.infinity)), (".Inf", .double(.infinity)), (".INF", .double(.infinity)),
        ("+.inf", .double(.infinity)), ("-.inf", .double(-.infinity)), ("-.INF", .double(-.infinity)),
        (".iNf", .string(".iNf")), ("inf", .string("inf")), ("nan", .string("nan")), ("-.nan", .string("-.nan")),
        ("1e", .string("1e")), ("e3", .string("e3")), ("1e+", .string("1e+")), (".", .string(".")),
        ("-.", .string("-.")), (".e3", .string(".e3")), ("1.2.3", .string("1.2.3")), ("1.5f", .string("1.5f")),
        ("0x1p3", .string("0x1p3")),
        // Plain strings that merely start like numbers or keywords.
        ("GET", .string("GET")), ("/items/{id}", .string("/items/{id}")), ("~/x", .string("~/x")),
    ]

    @Test(arguments: plainScalars)
    func plainScalarsResolveUnderTheCoreSchema(text: String, expected: YAMLScalar.Value) throws {
        let value = try load("v: \(text)\n")["v"]
        #expect(value?.value == expected)
        #expect(value?.scalar?.text == text)
        #expect(value?.scalar?.style == .plain)
        #expect(value?.scalar?.tag == nil)
    }

    @Test(arguments: [".nan", ".NaN", ".NAN"])
    func nanSpellingsResolveToNaN(text: String) throws {
        guard case .double(let value) = try load("v: \(text)")["v"]?.value else {
            Issue.record("\(text) did not resolve to a double")
            return
        }
        #expect(value.isNaN)
    }

    @Test(arguments: ["~", "null", "", "true", "0x1F", "1e3", ".inf", "12"])
    func theResolverAgreesWithTheLoader(text: String) throws {
        #expect(YAMLScalarResolver.resolvePlain(text) == (try load("v: \(text)")["v"]?.value))
    }

    static let nonPlainScalars: [(String, String, YAMLScalar.Style)] = [
        ("v: \"true\"", "true", .doubleQuoted),
        ("v: 'null'", "null", .singleQuoted),
        ("v: \"0x1F\"", "0x1F", .doubleQuoted),
        ("v: ''", "", .singleQuoted),
        ("v: \"\"", "", .doubleQuoted),
        ("v: |\n  123\n", "123\n", .literal),
        ("v: |-\n  false\n", "false", .literal),
        ("v: >-\n  ~\n", "~", .folded),
    ]

    @Test(arguments: nonPlainScalars)
    func quotedAndBlockScalarsAreAlwaysStrings(yaml: String, text: String, style: YAMLScalar.Style) throws {
        let value = try load(yaml)["v"]
        #expect(value?.value == .string(text))
        #expect(value?.scalar?.style == style)
    }

    static let taggedScalars: [(String, YAMLScalar.Value, String)] = [
        ("!!str 123", .string("123"), "!!str"),
        ("!!str true", .string("true"), "!!str"),
        ("!!str", .string(""), "!!str"),
        ("!!int \"42\"", .int(42), "!!int"),
        ("!!int 0x10", .int(16), "!!int"),
        ("!!float 1", .double(1), "!!float"),
        ("!!float '2.5'", .double(2.5), "!!float"),
        ("!!bool \"true\"", .bool(true), "!!bool"),
        ("!!null ''", .null, "!!null"),
        ("!!null ~", .null, "!!null"),
        ("!<tag:yaml.org,2002:int> 7", .int(7), "!!int"),
        ("! 12", .string("12"), "!"),
    ]

    @Test(arguments: taggedScalars)
    func explicitCoreTagsAreHonored(scalar: String, expected: YAMLScalar.Value, tag: String) throws {
        let value = try load("v: \(scalar)\n")["v"]
        #expect(value?.value == expected)
        #expect(value?.scalar?.tag == tag)
    }

    static let badTags: [(String, String)] = [
        ("!!int abc", "'abc' is not a valid !!int value"),
        ("!!int 1.5", "not a valid !!int"),
        ("!!int 0x1FFFFFFFFFFFFFFFF", "fits in 64 bits"),
        ("!!int 99999999999999999999", "not a valid !!int"),
        ("!!float 0x1", "not a valid !!float"),
        ("!!bool yes", "not a valid !!bool"),
        ("!!null 0", "not a valid !!null"),
        ("!!map x", "'!!map' cannot be applied to a scalar"),
        ("!!seq {a: 1}", "'!!seq' cannot be applied to a mapping"),
        ("!!map [1]", "'!!map' cannot be applied to a sequence"),
    ]

    @Test(arguments: badTags)
    func unmatchedTagsAreErrorsAtTheTag(scalar: String, fragment: String) {
        expectFailure("ok: 1\nv:  \(scalar)\n", .invalidYAML, line: 2, column: 5, containing: fragment)
    }

    /// Issue 9 item 18: well-formed YAML that flowrun does not read says so, and lists the tags it reads.
    @Test(arguments: [
        ("!foo x", "flowrun does not support the tag '!foo'"),
        ("!!binary aGk=", "flowrun does not support the tag '!!binary'"),
        ("!!timestamp 2024-01-01", "flowrun does not support the tag '!!timestamp'"),
        ("!<tag:example.com,2024:x> x", "the tag 'tag:example.com,2024:x'"),
        ("!custom {a: 1}", "!!null, !!map and !!seq"),
    ])
    func tagsOutsideTheCoreSchemaAreUnsupportedAtTheTag(scalar: String, fragment: String) {
        expectFailure("ok: 1\nv:  \(scalar)\n", .unsupportedYAML, line: 2, column: 5, containing: fragment)
    }

    @Test func collectionsAcceptTheirOwnCoreTags() throws {
        let root = try load("m: !!map {a: 1}\ns: !!seq [1]\nn: ! [2]\n")
        #expect(root["m"]?.keys == ["a"])
        #expect(root["s"]?.sequence?.count == 1)
        #expect(root["n"]?[0]?.value == .int(2))
    }

    // MARK: - Locations

    @Test func nestedNodesKnowWhereTheyStart() throws {
        let root = try load(
            """
            name: demo
            steps:
              - id: first
                request:
                  method: GET
                  tags: [a, "b c", {k: v}]
            """
        )
        #expect(root.position == "1:1")
        #expect(root.location.path == "t.yaml")
        #expect(root.mapping?[0].key.position == "1:1")
        #expect(root["name"]?.position == "1:7")
        #expect(root.mapping?[1].key.position == "2:1")
        let steps = try #require(root["steps"])
        #expect(steps.position == "3:3")
        let first = try #require(steps[0])
        #expect(first.position == "3:5")
        #expect(first.mapping?[0].key.position == "3:5")
        #expect(first["id"]?.position == "3:9")
        #expect(first.mapping?[1].key.position == "4:5")
        let request = try #require(first["request"])
        #expect(request.position == "5:7")
        #expect(request["method"]?.position == "5:15")
        let tags = try #require(request["tags"])
        #expect(tags.position == "6:13")
        #expect(tags[0]?.position == "6:14")
        #expect(tags[1]?.position == "6:17")
        #expect(tags[2]?.position == "6:24")
        #expect(tags[2]?.mapping?[0].key.position == "6:25")
        #expect(tags[2]?["k"]?.position == "6:28")
    }

    @Test func columnsCountUnicodeScalarsNotBytes() throws {
        let root = try load("ключ: значение\n\"é🙂\": [x, y]\n")
        #expect(root["ключ"]?.position == "1:7")
        #expect(root["é🙂"]?.position == "2:7")
        #expect(root["é🙂"]?[1]?.position == "2:11")
    }

    @Test func crlfLineEndingsCountAsOneBreak() throws {
        let root = try load("a: 1\r\nb:\r\n  - 2\r\n")
        #expect(root["b"]?.position == "3:3")
        #expect(root["b"]?[0]?.position == "3:5")
    }

    @Test func anEmptyValueIsNullAfterItsColon() throws {
        let root = try load("a:\nb: 1\n")
        #expect(root["a"]?.value == .null)
        #expect(root["a"]?.position == "1:3")
    }

    // MARK: - Empty streams and BOM

    @Test(arguments: ["", "\n", "   \n\n", "# only a comment\n", "# one\n\n# two", "\u{FEFF}", "\u{FEFF}# c\n"])
    func anEmptyStreamIsANullNodeAtTheStart(yaml: String) throws {
        let root = try load(yaml)
        #expect(root.value == .null)
        #expect(root.scalar?.text == "")
        #expect(root.position == "1:1")
        #expect(root.location.path == "t.yaml")
    }

    @Test func zeroBytesAreANullNodeAtTheStart() throws {
        let root = try load(bytes: [])
        #expect(root.value == .null)
        #expect(root.position == "1:1")
    }

    @Test func anExplicitEmptyDocumentIsNull() throws {
        let root = try load("---\n")
        #expect(root.value == .null)
        #expect(root.position == "2:1")
    }

    @Test func aByteOrderMarkIsSkippedAndDoesNotShiftColumns() throws {
        let root = try load(bytes: [0xEF, 0xBB, 0xBF] + Array("a: 1\nb: [x]\n".utf8))
        #expect(root.keys == ["a", "b"])
        #expect(root.mapping?[0].key.position == "1:1")
        #expect(root["a"]?.position == "1:4")
        #expect(root["b"]?[0]?.position == "2:5")
        #expect(try load("\u{FEFF}a: 1\n")["a"]?.position == "1:4")
    }

    @Test func aByteOrderMarkDoesNotShiftErrorColumns() {
        expectFailure(bytes: [0xEF, 0xBB, 0xBF] + Array("a: [1\n".utf8), .invalidYAML, line: 2, column: 1)
    }

    @Test func theStringAndByteOverloadsAgree() throws {
        let yaml = "a: &x [1, {b: 2}]\nc: *x\nd: \"é\"\n"
        #expect(try load(yaml) == (try load(bytes: Array(yaml.utf8))))
    }

    // MARK: - Anchors and aliases

    @Test func aliasesResolveToACopyOfTheAnchoredNode() throws {
        let root = try load(
            """
            base: &base
              retries: 3
              codes: [500, 503]
            copy: *base
            name: &n hello
            greeting: *n
            """
        )
        #expect(root["copy"] == root["base"])
        #expect(root["copy"]?["codes"]?[1]?.value == .int(503))
        #expect(root["greeting"]?.value == .string("hello"))
        // A copy keeps the locations of the value it copies; a node with an anchor starts at the anchor.
        #expect(root["copy"]?.position == "1:7")
        #expect(root["greeting"]?.position == "5:7")
    }

    @Test func aRedefinedAnchorAppliesToLaterAliases() throws {
        let root = try load("a: &x 1\nb: *x\nc: &x 2\nd: *x\n")
        #expect(root["b"]?.value == .int(1))
        #expect(root["d"]?.value == .int(2))
    }

    @Test func anAliasCanBeAKeyWhenItNamesAScalar() throws {
        let root = try load("k: &k name\n*k : value\n")
        #expect(root.keys == ["k", "name"])
        #expect(root["name"]?.value == .string("value"))
    }

    @Test func anAliasToAnUndefinedAnchorIsAnErrorAtTheAlias() {
        expectFailure("a: 1\nb: [1, *nope]\n", .invalidYAML, line: 2, column: 8, containing: "'*nope'")
    }

    @Test func anAliasBeforeItsAnchorIsAnError() {
        expectFailure("a: *later\nb: &later 1\n", .invalidYAML, line: 1, column: 4, containing: "no anchor '&later'")
    }

    @Test func aRecursiveAliasIsAnError() {
        expectFailure("a: &loop\n  b: *loop\n", .invalidYAML, line: 2, column: 6, containing: "recursive")
    }

    // MARK: - Merge keys

    @Test func aMergeKeyBringsInTheKeysOfAMapping() throws {
        let root = try load(
            """
            defaults: &defaults
              timeout: 30
              retries: 2
            step:
              <<: *defaults
              retries: 5
              name: fetch
            """
        )
        let step = try #require(root["step"])
        #expect(step.keys == ["timeout", "retries", "name"])
        #expect(step["timeout"]?.value == .int(30))
        #expect(step["retries"]?.value == .int(5))
        // The merged value keeps the location where it is written.
        #expect(step["timeout"]?.position == "2:12")
    }

    @Test func explicitKeysWinWhetherTheyComeBeforeOrAfterTheMerge() throws {
        let root = try load("b: &b {x: 1, y: 2, z: 3}\nm: {y: 20, <<: *b, z: 30}\n")
        let m = try #require(root["m"])
        #expect(m.keys == ["y", "x", "z"])
        #expect(m["x"]?.value == .int(1))
        #expect(m["y"]?.value == .int(20))
        #expect(m["z"]?.value == .int(30))
    }

    @Test func inASequenceOfMergedMappingsTheEarlierWins() throws {
        let root = try load(
            """
            a: &a {k: from-a, only-a: 1}
            b: &b {k: from-b, only-b: 2}
            m:
              <<: [*a, *b]
              own: 3
            """
        )
        let m = try #require(root["m"])
        #expect(m.keys == ["k", "only-a", "only-b", "own"])
        #expect(m["k"]?.value == .string("from-a"))
        #expect(m["only-b"]?.value == .int(2))
    }

    @Test func anInlineMappingCanBeMerged() throws {
        let m = try #require(try load("m:\n  <<: {a: 1, b: 2}\n  b: 3\n")["m"])
        #expect(m.keys == ["a", "b"])
        #expect(m["b"]?.value == .int(3))
    }

    @Test func mergesChainThroughMergedMappings() throws {
        let root = try load(
            """
            base: &base {a: 1, b: 1}
            mid: &mid
              <<: *base
              b: 2
            top:
              <<: *mid
              c: 3
            """
        )
        #expect(root["top"]?.keys == ["a", "b", "c"])
        #expect(root["top"]?["b"]?.value == .int(2))
    }

    @Test func aQuotedMergeKeyIsAnOrdinaryKey() throws {
        let root = try load("m:\n  \"<<\": {a: 1}\n")
        #expect(root["m"]?.keys == ["<<"])
        #expect(root["m"]?["<<"]?["a"]?.value == .int(1))
    }

    @Test func keysIntroducedByAMergeAreNotDuplicates() throws {
        let root = try load("a: &a {x: 1}\nb: &b {x: 2}\nm: {<<: [*a, *b], x: 3}\n")
        #expect(root["m"]?.keys == ["x"])
        #expect(root["m"]?["x"]?.value == .int(3))
    }

    @Test(arguments: [
        ("m:\n  <<: 3\n", 2, 7, "found the integer 3"),
        ("m:\n  <<:\n", 2, 6, "found null"),
        ("s: &s [1, 2]\nm:\n  <<: *s\n", 3, 7, "element 1 is the integer 1"),
        ("a: &a {x: 1}\nm:\n  <<: [*a, [1]]\n", 3, 7, "element 2 is a sequence"),
    ])
    func aMergeOfSomethingOtherThanMappingsIsAnErrorAtTheValue(yaml: String, line: Int, column: Int, fragment: String) {
        expectFailure(yaml, .invalidYAML, line: line, column: column, containing: fragment)
    }

    @Test func twoMergeKeysInOneMappingAreDuplicates() {
        expectFailure("m:\n  <<: {a: 1}\n  <<: {b: 1}\n", .duplicateKey, line: 3, column: 3, containing: "'<<'")
    }

    // MARK: - Duplicate and non-scalar keys

    @Test func aDuplicateKeyIsAnErrorAtItsSecondOccurrence() {
        expectFailure(
            """
            flowrun: 1
            name: demo
            steps:
              - id: a
            steps: []
            """,
            .duplicateKey,
            line: 5,
            column: 1,
            containing: "duplicate key 'steps' (first defined at line 3)"
        )
    }

    @Test func duplicateKeysAreFoundInNestedAndFlowMappings() {
        expectFailure("a:\n  b:\n    c: 1\n    c: 2\n", .duplicateKey, line: 4, column: 5, containing: "'c'")
        expectFailure("a: {x: 1, y: 2, x: 3}\n", .duplicateKey, line: 1, column: 17, containing: "line 1")
    }

    @Test func keysCompareByTextWhateverTheirStyle() {
        expectFailure(
            "1: a\n\"1\": b\n", .duplicateKey, line: 2, column: 1, containing: "'1' (first defined at line 1)")
    }

    @Test func keysWithTheSameValueButDifferentTextAreDistinct() throws {
        #expect(try load("1: a\n0x1: b\n01: c\n").keys == ["1", "0x1", "01"])
    }

    @Test func aDuplicateKeyThroughAnAliasIsReportedAtTheAlias() {
        expectFailure("k: &k name\nname: 1\n*k : 2\n", .duplicateKey, line: 3, column: 1, containing: "line 2")
    }

    @Test func theSameKeyInDifferentMappingsIsFine() throws {
        #expect(try load("a: {id: 1}\nb: {id: 2}\n")["b"]?["id"]?.value == .int(2))
    }

    @Test(arguments: [
        ("? [a, b]\n: v\n", 1, 3, "this key is a sequence"),
        ("ok: 1\n? {a: 1}\n: v\n", 2, 3, "this key is a mapping"),
        ("{[x]: 1}\n", 1, 2, "flowrun does not support a collection as a mapping key"),
        ("m: &m {a: 1}\n*m : v\n", 2, 1, "flowrun does not support a collection as a mapping key"),
    ])
    func nonScalarKeysAreUnsupportedAtTheKey(yaml: String, line: Int, column: Int, fragment: String) {
        expectFailure(yaml, .unsupportedYAML, line: line, column: column, containing: fragment)
    }

    // MARK: - Documents

    @Test(arguments: [
        ("a: 1\n---\nb: 2\n", 2, 1),
        ("---\na: 1\n---\n", 3, 1),
        ("a: 1\n...\n---\nb: 2\n", 3, 1),
        ("--- 1\n--- 2\n", 2, 1),
    ])
    func aSecondDocumentIsAnErrorAtItsStart(yaml: String, line: Int, column: Int) {
        expectFailure(yaml, .unsupportedYAML, line: line, column: column, containing: "a file holds one document")
    }

    @Test func oneDocumentWithMarkersIsFine() throws {
        let root = try load("%YAML 1.2\n---\na: 1\n...\n")
        #expect(root["a"]?.value == .int(1))
        #expect(root.position == "3:1")
    }

    // MARK: - Limits

    @Test func theBillionLaughsAreRefusedQuickly() {
        var yaml = "a: &a [\(Array(repeating: "\"lol\"", count: 10).joined(separator: ", "))]\n"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            yaml += "\(name): &\(name) [\(Array(repeating: "*\(previous)", count: 10).joined(separator: ", "))]\n"
        }
        // Lines a to e hold 133,461 nodes, f's key and sequence 2 more; each copy of e is 111,111 nodes, so the
        // eighth `*e` (column 36) would pass 1,000,000.
        expectFailure(yaml, .limitExceeded, line: 6, column: 36, containing: "limit of 1000000 nodes")
    }

    @Test func aliasesCountEveryNodeTheyCopy() throws {
        // Root, key a, [1, 2] (3 nodes), key b, and the copy of [1, 2] (3 nodes): 9 nodes.
        let yaml = "a: &a [1, 2]\nb: *a\n"
        _ = try load(yaml, limits: .init(maxNodes: 9))
        expectFailure(yaml, .limitExceeded, line: 2, column: 4, containing: "'*a'", limits: .init(maxNodes: 8))
    }

    @Test func plainNodesCountTowardTheNodeLimit() {
        expectFailure("[1, 2, 3, 4]\n", .limitExceeded, line: 1, column: 11, limits: .init(maxNodes: 4))
    }

    @Test func nestingAtTheDepthLimitIsAccepted() throws {
        let depth = YAMLLoader.Limits.default.maxDepth
        let yaml = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        _ = try load(yaml)
    }

    @Test func nestingBeyondTheDepthLimitIsAnErrorAtTheDeepestCollection() {
        let yaml = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        expectFailure(yaml, .limitExceeded, line: 1, column: 129, containing: "limit of 128 levels")
    }

    @Test func blockNestingBeyondTheDepthLimitIsAnError() {
        var yaml = ""
        for level in 0..<4 { yaml += String(repeating: "  ", count: level) + "k\(level):\n" }
        yaml += "        - x\n"
        expectFailure(yaml, .limitExceeded, line: 5, column: 9, limits: .init(maxDepth: 4))
    }

    @Test func extremeNestingFailsWithoutExhaustingTheStack() {
        let yaml = String(repeating: "[", count: 100_000)
        expectFailure(yaml, .limitExceeded, line: 1, column: 129)
    }

    @Test func anAliasThatWouldNestTooDeeplyIsAnError() throws {
        let yaml = "a: &a [[1]]\nb: [*a]\n"
        _ = try load(yaml, limits: .init(maxDepth: 4))
        expectFailure(
            yaml, .limitExceeded, line: 2, column: 5, containing: "limit of 3 levels", limits: .init(maxDepth: 3))
    }

    @Test func aFileAtTheSizeLimitIsAccepted() throws {
        #expect(try load("a: 123456\n", limits: .init(maxFileSize: 10))["a"]?.value == .int(123_456))
    }

    @Test func aFileBeyondTheSizeLimitIsRefusedBeforeParsing() {
        // The text is not even valid YAML: the size is checked first.
        expectFailure(
            "a: [1234567\n", .limitExceeded, line: 1, column: 1, containing: "limit is 10 bytes",
            limits: .init(maxFileSize: 10))
        let big = [UInt8](repeating: UInt8(ascii: " "), count: 8 << 20 + 1)
        expectFailure(bytes: big, .limitExceeded, line: 1, column: 1, containing: "8388609 bytes")
    }

    // MARK: - Syntax errors

    @Test func aTabInIndentationIsAnErrorWithAHint() {
        expectFailure(
            "a:\n\tb: 1\n",
            .invalidYAML,
            line: 2,
            column: 1,
            containing: "found character that cannot start any token (tabs are not allowed for indentation)"
        )
    }

    @Test func aTabThatBreaksIndentationInsideAValueIsAnError() {
        expectFailure("a:\n  b: 1\n\tc: 2\n", .invalidYAML, line: 3, column: 1, containing: "tab character")
    }

    @Test func badIndentationIsAnError() {
        expectFailure("a:\n  b: 1\n c: 2\n", .invalidYAML, line: 3, column: 2, containing: "did not find expected key")
        expectFailure(
            "a:\n  - b\n  c: d\n",
            .invalidYAML,
            line: 3,
            column: 3,
            containing: "while parsing a block collection at line 2, column 3"
        )
    }

    @Test func aMappingValueInAPlainScalarIsAnError() {
        expectFailure("a: b: c\n", .invalidYAML, line: 1, column: 5, containing: "mapping values are not allowed")
    }

    @Test(arguments: ["a: \"abc\n", "a: 'abc\n", "a: \"abc\nb: 1\n"])
    func anUnclosedQuoteIsAnErrorThatNamesWhereTheScalarStarts(yaml: String) {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).count
        expectFailure(
            yaml,
            .invalidYAML,
            line: lines,
            column: 1,
            containing: "while scanning a quoted scalar at line 1, column 4; is a closing quote missing?"
        )
    }

    @Test func textAfterTheDocumentIsAnError() {
        expectFailure("{a: 1}}\n", .invalidYAML, line: 1, column: 7, containing: "text after the end of the document")
    }

    @Test func anUnclosedFlowSequenceIsAnError() {
        expectFailure("a: [1, 2\n", .invalidYAML, line: 2, column: 1, containing: "did not find expected ',' or ']'")
    }

    @Test func errorsDescribeThemselvesCompilerStyle() {
        #expect(throws: FlowError.self) { try load("a:\n\tb: 1\n") }
        do {
            _ = try load("a:\n\tb: 1\n")
        } catch {
            #expect(error.description.hasPrefix("t.yaml:2:1: error: found character that cannot start any token"))
        }
    }

    // MARK: - Binary and invalid text

    @Test(arguments: [
        (Array("a: b\u{0}c\n".utf8), 1, 5, "U+0000"),
        (Array("a: 1\n\u{0}".utf8), 2, 1, "control characters are not allowed"),
        (Array("a: \u{1}\n".utf8), 1, 4, "U+0001"),
        (Array("a: ".utf8) + [0xFF] + Array("\n".utf8), 1, 4, "invalid leading UTF-8 octet 0xFF"),
        (Array("é: ".utf8) + [0xC3, 0x28], 1, 5, "invalid trailing UTF-8 octet"),
        (Array("a: ".utf8) + [0xE2, 0x82], 1, 4, "incomplete UTF-8 octet sequence"),
        (Array("x: [1,\n  2]\ny: ".utf8) + [0xC0, 0x80], 3, 4, "not valid UTF-8"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00], 1, 1, "0x89"),
        ([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00], 1, 1, "U+007F"),
        ([0xEF, 0xBB, 0xBF] + Array("a: ".utf8) + [0xFF], 1, 4, "0xFF"),
        ([0xFF, 0xFE, 0x61, 0x00], 1, 1, "UTF-16"),
        ([0xFE, 0xFF, 0x00, 0x61], 1, 1, "UTF-16"),
    ])
    func binaryAndInvalidTextAreErrorsAtTheBadByte(bytes: [UInt8], line: Int, column: Int, fragment: String) {
        expectFailure(bytes: bytes, .invalidYAML, line: line, column: column, containing: fragment)
    }

    @Test func randomBytesNeverCrashTheLoader() {
        // A fixed-seed generator keeps the test deterministic.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for round in 0..<300 {
            let length = 1 + Int(next() % 256)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
            if round % 3 == 0 { bytes.insert(0, at: Int(next() % UInt64(bytes.count))) }
            do {
                _ = try load(bytes: bytes)
            } catch {
                #expect(error.code == .invalidYAML || error.code == .unsupportedYAML || error.code == .duplicateKey
                    || error.code == .limitExceeded)
                #expect((error.location?.line ?? 0) >= 1)
                #expect((error.location?.column ?? 0) >= 1)
            }
        }
    }

    @Test func yamlLikeNoiseNeverCrashesTheLoader() {
        let alphabet = Array("ab:-? []{},&*!|>'\"#%@`\n\t 0.~<".utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        var state: UInt64 = 42
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int((state >> 33) % UInt64(alphabet.count))])
            }
            do {
                _ = try load(bytes: bytes)
            } catch {
                #expect((error.location?.line ?? 0) >= 1)
                #expect((error.location?.column ?? 0) >= 1)
            }
        }
    }

    @Test func anEscapedNulInAQuotedScalarIsText() throws {
        #expect(try load("a: \"x\\0y\"\n")["a"]?.value == .string("x\u{0}y"))
    }
}
