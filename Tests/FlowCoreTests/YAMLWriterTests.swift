import Testing

@testable import FlowCore

/// `YAMLWriter` writes what `YAMLLoader` reads back as the same values: the recorded stub and test files
/// (`flowrun run --record`) depend on it.
struct YAMLWriterTests {
    /// The value `text` loads as, scalars resolved under the core schema.
    private func load(_ text: String) throws -> JSONValue {
        func value(_ node: YAMLNode) -> JSONValue {
            switch node.content {
            case .scalar(let scalar):
                switch scalar.value {
                case .null: return .null
                case .bool(let flag): return .bool(flag)
                case .int(let number): return .int(number)
                case .double(let number): return .double(number)
                case .string(let string): return .string(string)
                }
            case .sequence(let elements): return .array(elements.map(value))
            case .mapping(let pairs):
                return .object(Dictionary(uniqueKeysWithValues: pairs.map { ($0.key.scalar?.text ?? "?", value($0.value)) }))
            }
        }
        return value(try YAMLLoader().load(text, path: "t.yaml"))
    }

    @Test(arguments: [
        "GET", "/user/{id}", "u-1", "", " leading", "trailing ", "true", "no", "null", "~", "42", "-1.5", "0x1F",
        "1e3", ".inf", "a: b", "a #b", "#c", "- x", "[x]", "{x}", "{$inputs.a}", "!tag", "&a", "*a", "|", ">", "'q'",
        "\"q\"", "%x", "@x", "`x`", "two\nlines", "tab\there", "ünïcødé ✓", "back\\slash", "a,b", "?x", "x  y",
    ])
    func everyStringReadsBackAsItself(_ text: String) throws {
        let document = YAMLWriter.render(.mapping([("key", .value(.string(text))), (text.isEmpty ? "e" : text, .value(.int(1)))]))
        let loaded = try load(document)
        #expect(loaded == .object(["key": .string(text), (text.isEmpty ? "e" : text): .int(1)]), "\(document)")
    }

    @Test func nestedValuesReadBackAsThemselves() throws {
        let value: JSONValue = .object([
            "list": .array([.int(1), .double(2.5), .null, .bool(false), .array([.string("a"), .array([])]),
                            .object(["k": .object([:]), "m": .array([.object(["x": .int(1), "y": .int(2)])])])]),
            "empty": .object([:]),
            "text": .string("Stay hungry."),
        ])
        let document = YAMLWriter.render(.value(value))
        #expect(try load(document) == value, "\(document)")
    }

    @Test func mappingsKeepTheirOrderTagsAndCommentsAreWritten() {
        let document = YAMLWriter.render(
            .mapping([
                ("z", .value(.int(1))), ("a", .sequence([.mapping([("m", .value(.string("GET"))), ("h", .tagged("!present"))])])),
            ]),
            comments: ["Recorded.", ""])
        #expect(document == """
            # Recorded.
            #
            z: 1
            a:
              - m: GET
                h: !present

            """)
    }
}
