import Testing

@testable import FlowCore

struct JSONValueSerializationTests {
    static let compact: [(JSONValue, String)] = [
        (.null, "null"),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.int(0), "0"),
        (.int(-42), "-42"),
        (.int(.min), "-9223372036854775808"),
        (.double(2.5), "2.5"),
        (.double(1), "1.0"),
        (.double(-0.0), "-0.0"),
        (.double(1e30), "1e+30"),
        (.double(1.5e-7), "1.5e-07"),
        (.double(0.1), "0.1"),
        (.double(.nan), "null"),
        (.double(.infinity), "null"),
        (.double(-.infinity), "null"),
        (.string(""), #""""#),
        (.string("say \"hi\"\\ now/"), #""say \"hi\"\\ now/""#),
        (.string("\n\r\t\u{08}\u{0C}\u{0}\u{1F}\u{7F}"), #""\n\r\t\b\f\u0000\u001f"# + "\u{7F}\""),
        (.string("é€😀"), "\"é€😀\""),
        (.array([]), "[]"),
        (.object([:]), "{}"),
        (.array([.int(1), .null, .string("a")]), #"[1,null,"a"]"#),
        (.object(["b": .int(1), "a": .object(["z": .null, "y": .array([])]), "B": .bool(false)]),
         #"{"B":false,"a":{"y":[],"z":null},"b":1}"#),
    ]

    @Test(arguments: compact)
    func compactOutput(value: JSONValue, expected: String) {
        #expect(value.serialized() == expected)
        #expect(value.serializedBytes() == Array(expected.utf8))
    }

    @Test func prettyOutputIndentsByTwoSpaces() {
        let value = JSONValue.object([
            "list": .array([.int(1), .object(["k": .string("v")]), .array([])]),
            "empty": .object([:]),
            "n": .null,
        ])
        #expect(value.serialized(pretty: true) == """
            {
              "empty": {},
              "list": [
                1,
                {
                  "k": "v"
                },
                []
              ],
              "n": null
            }
            """)
        #expect(JSONValue.int(3).serialized(pretty: true) == "3")
    }

    static let roundTrips: [JSONValue] = [
        .object([
            "id": .int(42), "price": .double(19.99), "whole": .double(3), "big": .double(1.7976931348623157e308),
            "tiny": .double(.leastNonzeroMagnitude), "neg": .double(-0.0), "name": .string("Zoë \"Z\" \\ \u{1} 😀"),
            "tags": .array([.string("a"), .bool(false), .null, .array([.int(.max), .int(.min)])]),
        ]),
        .array((0..<50).map { .double(Double($0) / 7) }),
        .string(String(repeating: "\u{0}\u{1F}\\\"x", count: 10)),
    ]

    @Test(arguments: roundTrips)
    func serializedValueParsesBackEqual(value: JSONValue) throws {
        #expect(try JSONValue(parsing: value.serializedBytes()) == value)
        #expect(try JSONValue(parsing: value.serialized(pretty: true).utf8) == value)
    }

    @Test(arguments: [
        #"{"a":[1,2.5,"x",true,null],"b":{"c":-1e-07}}"#,
        #"[{"id":"u-1","n":0},{"id":"u-2","n":1.0}]"#,
        #""\"\\\n""#,
    ])
    func canonicalTextRoundTripsExactly(text: String) throws {
        #expect(try JSONValue(parsing: text.utf8).serialized() == text)
    }

    @Test func stringTemplatesEmbedCompactJSON() throws {
        let template = try ExpressionParser.parseTemplate("v={$inputs.x}")
        let text = template.evaluate { _ in .object(["b": .double(1), "a": .string("q\"")]) }
        #expect(text == #"v={"a":"q\"","b":1.0}"#)
    }
}
