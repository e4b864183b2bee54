import Testing
@testable import FlowCore

struct JSONPointerTests {
    /// The example document of RFC 6901, section 5.
    static let rfcDocument: JSONValue = .object([
        "foo": .array([.string("bar"), .string("baz")]),
        "": .int(0),
        "a/b": .int(1),
        "c%d": .int(2),
        "e^f": .int(3),
        "g|h": .int(4),
        "i\\j": .int(5),
        "k\"l": .int(6),
        " ": .int(7),
        "m~n": .int(8),
    ])

    @Test(arguments: [
        ("", rfcDocument),
        ("/foo", .array([.string("bar"), .string("baz")])),
        ("/foo/0", .string("bar")),
        ("/", .int(0)),
        ("/a~1b", .int(1)),
        ("/c%d", .int(2)),
        ("/e^f", .int(3)),
        ("/g|h", .int(4)),
        ("/i\\j", .int(5)),
        ("/k\"l", .int(6)),
        ("/ ", .int(7)),
        ("/m~0n", .int(8)),
    ] as [(String, JSONValue)])
    func resolvesTheExamplesOfRFC6901(pointer: String, expected: JSONValue) throws {
        let parsed = try JSONPointer(parsing: pointer)
        #expect(parsed.resolve(in: Self.rfcDocument) == expected)
        #expect(parsed.description == pointer)
    }

    @Test(arguments: [
        ("", []),
        ("/", [""]),
        ("//", ["", ""]),
        ("/a/", ["a", ""]),
        ("/data/0/id", ["data", "0", "id"]),
        ("/a~1b/m~0n", ["a/b", "m~n"]),
        ("/~01", ["~1"]),
        ("/~10", ["/0"]),
        ("/~0~1~0", ["~/~"]),
        ("/café/ü/👍", ["café", "ü", "👍"]),
        ("/a}b/{c}", ["a}b", "{c}"]),
    ] as [(String, [String])])
    func parsesAndUnescapesTokens(text: String, tokens: [String]) throws {
        let pointer = try JSONPointer(parsing: text)
        #expect(pointer.tokens == tokens)
        #expect(pointer.description == text)
    }

    @Test func parsesASubstring() throws {
        let text = "$response.body#/a~1b/c"
        let hash = text.firstIndex(of: "#")!
        let pointer = try JSONPointer(parsing: text[text.index(after: hash)...])
        #expect(pointer.tokens == ["a/b", "c"])
    }

    @Test func describesTokensBuiltByHandEscaped() {
        #expect(JSONPointer(tokens: ["a/b", "~", "x"]).description == "/a~1b/~0/x")
        #expect(JSONPointer(tokens: []).description == "")
        #expect(JSONPointer(tokens: [""]).description == "/")
    }

    @Test(arguments: [
        ("foo", "invalid JSON pointer: a pointer must be empty or start with '/'", 0),
        ("#/foo", "invalid JSON pointer: a pointer must be empty or start with '/'", 0),
        ("/a~", "invalid JSON pointer: '~' must be followed by 0 or 1", 2),
        ("/a~2", "invalid JSON pointer: '~' must be followed by 0 or 1", 2),
        ("/~/x", "invalid JSON pointer: '~' must be followed by 0 or 1", 1),
        ("/ok/~a", "invalid JSON pointer: '~' must be followed by 0 or 1", 4),
        ("/~0/~~1", "invalid JSON pointer: '~' must be followed by 0 or 1", 4),
        ("/é👍/~", "invalid JSON pointer: '~' must be followed by 0 or 1", 4),
    ] as [(String, String, Int)])
    func rejectsMalformedPointersAtTheOffendingCharacter(text: String, message: String, offset: Int) {
        #expect(throws: ExpressionSyntaxError(message: message, offset: offset)) {
            try JSONPointer(parsing: text)
        }
        #expect(throws: ExpressionSyntaxError(message: message, offset: offset)) {
            try JSONPointer(parsing: Substring(text))
        }
    }

    static let document: JSONValue = .object([
        "data": .array([
            .object(["id": .string("a1"), "tags": .array([.string("x")])]),
            .object(["id": .string("b2"), "n": .null]),
        ]),
        "count": .int(2),
    ])

    @Test(arguments: [
        ("/data/0/id", .string("a1")),
        ("/data/1/id", .string("b2")),
        ("/data/0/tags/0", .string("x")),
        ("/data/1/n", .null),
        ("/count", .int(2)),
    ] as [(String, JSONValue)])
    func resolvesObjectMembersAndArrayElements(pointer: String, expected: JSONValue) throws {
        #expect(try JSONPointer(parsing: pointer).resolve(in: Self.document) == expected)
    }

    @Test(arguments: [
        "/missing",
        "/data/2",
        "/data/-",
        "/data/01",
        "/data/00",
        "/data/+1",
        "/data/-1",
        "/data/ 1",
        "/data/1.0",
        "/data/0x1",
        "/data/",
        "/data/99999999999999999999999999",
        "/count/0",
        "/data/0/id/0",
        "/data/1/n/x",
    ])
    func doesNotResolveWhatTheDocumentLacks(pointer: String) throws {
        #expect(try JSONPointer(parsing: pointer).resolve(in: Self.document) == nil)
    }

    @Test func resolvesNumericTokensAsMemberNamesInObjects() throws {
        let value: JSONValue = .object(["0": .string("zero"), "01": .string("padded"), "-": .string("dash")])
        #expect(try JSONPointer(parsing: "/0").resolve(in: value) == .string("zero"))
        #expect(try JSONPointer(parsing: "/01").resolve(in: value) == .string("padded"))
        #expect(try JSONPointer(parsing: "/-").resolve(in: value) == .string("dash"))
    }

    @Test func theEmptyPointerResolvesScalarsToThemselves() {
        #expect(JSONPointer(tokens: []).resolve(in: .int(3)) == .int(3))
        #expect(JSONPointer(tokens: []).resolve(in: .null) == .null)
    }

    @Test func arrayIndexesAcceptOnlyCanonicalDecimals() {
        #expect(JSONPointer.arrayIndex("0") == 0)
        #expect(JSONPointer.arrayIndex("10") == 10)
        #expect(JSONPointer.arrayIndex("9223372036854775807") == Int.max)
        #expect(JSONPointer.arrayIndex("9223372036854775808") == nil)
        #expect(JSONPointer.arrayIndex("") == nil)
        #expect(JSONPointer.arrayIndex("-") == nil)
        #expect(JSONPointer.arrayIndex("007") == nil)
        #expect(JSONPointer.arrayIndex("٣") == nil)
    }
}
