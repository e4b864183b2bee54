import Testing

@testable import FlowCore

/// Parses `text` as JSON.
private func parse(_ text: String, maxDepth: Int = 256) throws(JSONSyntaxError) -> JSONValue {
    try JSONValue(parsing: text.utf8, maxDepth: maxDepth)
}

struct JSONValueParsingTests {
    static let valid: [(String, JSONValue)] = [
        ("null", .null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .int(0)),
        ("-0", .int(0)),
        ("42", .int(42)),
        ("-17", .int(-17)),
        ("9223372036854775807", .int(.max)),
        ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .bigInteger("9223372036854775808")),
        ("-9223372036854775809", .bigInteger("-9223372036854775809")),
        ("123456789012345678901234567890", .bigInteger("123456789012345678901234567890")),
        ("[1e30, 1.5e19]", .array([.double(1e30), .double(1.5e19)])),
        ("2.5", .double(2.5)),
        ("-0.0", .double(-0.0)),
        ("1.0", .double(1)),
        ("1e3", .double(1000)),
        ("1E+3", .double(1000)),
        ("25e-1", .double(2.5)),
        ("0.1", .double(0.1)),
        ("1e-400", .double(0)),
        (#""""#, .string("")),
        (#""plain""#, .string("plain")),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{08}\u{0C}\n\r\t")),
        (#""\u0041\u00e9\u20AC""#, .string("Aé€")),
        (#""\u0000""#, .string("\u{0}")),
        (#""\uD83D\uDE00 smile""#, .string("😀 smile")),
        (#""héllo wörld 😀""#, .string("héllo wörld 😀")),
        (#""tab\tthen é""#, .string("tab\tthen é")),
        ("\"\u{7F}\"", .string("\u{7F}")),
        ("[]", .array([])),
        ("{}", .object([:])),
        (" \t\r\n[ 1 , \"a\" , null ]\n", .array([.int(1), .string("a"), .null])),
        (#"{"a": {"b": [true, {}]}, "c": -1.5}"#,
         .object(["a": .object(["b": .array([.bool(true), .object([:])])]), "c": .double(-1.5)])),
        ("\u{FEFF}{\"bom\": true}", .object(["bom": .bool(true)])),
    ]

    @Test(arguments: valid)
    func validDocumentParses(text: String, expected: JSONValue) throws {
        let value = try parse(text)
        #expect(value == expected)
        if case .double(let double) = expected, double == 0 {
            #expect(value.doubleValue?.sign == double.sign)
        }
    }

    /// Invalid documents, with a fragment of the message and the one-based line and column of the problem.
    static let invalid: [(text: String, fragment: String, line: Int, column: Int)] = [
        ("", "unexpected end of input; expected a JSON value", 1, 1),
        ("   ", "unexpected end of input; expected a JSON value", 1, 4),
        (#""abc"#, "unexpected end of input inside a string", 1, 5),
        (#""ab\"#, "unexpected end of input inside a string", 1, 5),
        (#""\u12"#, "unexpected end of input inside a string", 1, 6),
        ("[1, 2", "unexpected end of input inside an array", 1, 6),
        ("[1,", "unexpected end of input inside an array", 1, 4),
        (#"{"a": 1"#, "unexpected end of input inside an object", 1, 8),
        (#"{"a""#, "unexpected end of input inside an object", 1, 5),
        (#"{"a":"#, "unexpected end of input inside an object", 1, 6),
        ("tru", "unexpected end of input inside the literal 'true'", 1, 4),
        ("-", "unexpected end of input inside a number", 1, 2),
        ("1.", "unexpected end of input inside a number", 1, 3),
        (#"{"a": 1 "b": 2}"#, "expected ',' or '}' after an object member", 1, 9),
        ("[1 2]", "expected ',' or ']' after an array element", 1, 4),
        (#"{"a" 1}"#, "expected ':' after an object key", 1, 6),
        ("{a: 1}", "expected a string key in an object, found 'a'", 1, 2),
        (#"{"a": 1,}"#, "trailing comma in an object", 1, 9),
        ("[1,]", "trailing comma in an array", 1, 4),
        ("[1] x", "unexpected 'x' after the JSON value", 1, 5),
        ("{} {}", "unexpected '{' after the JSON value", 1, 4),
        ("1 2", "unexpected '2' after the JSON value", 1, 3),
        ("NaN", "NaN and Infinity are not JSON", 1, 1),
        ("[-Infinity]", "expected a digit after '-'", 1, 3),
        ("Infinity", "NaN and Infinity are not JSON", 1, 1),
        ("01", "leading zeros are not allowed", 1, 2),
        ("-012", "leading zeros are not allowed", 1, 3),
        ("+1", "a JSON number has no plus sign", 1, 1),
        (".5", "a JSON number starts with a digit", 1, 1),
        ("1.e5", "expected a digit after the decimal point", 1, 3),
        ("1e", "unexpected end of input inside a number", 1, 3),
        ("1e+x", "expected a digit in the exponent", 1, 4),
        ("1e400", "the number 1e400 is too large for a double", 1, 1),
        (#"{"k": 1, "k": 2}"#, #"duplicate key "k" in an object (first at line 1, column 2)"#, 1, 10),
        ("[{\"a\": {\"id\": 1,\n  \"x\": 2,\n  \"id\": 3}}]", #"duplicate key "id""#, 3, 3),
        (#"{"k\n": 1, "k\u000a": 2}"#, #"duplicate key "k\n" in an object"#, 1, 12),
        ("'a'", "JSON strings use double quotes", 1, 1),
        ("\"a\nb\"", "control character U+000A must be escaped in a string", 1, 3),
        ("\"a\u{1}\"", "control character U+0001 must be escaped", 1, 3),
        (#""\x""#, #"invalid escape '\x' in a string"#, 1, 2),
        (#""\u12G4""#, "invalid \\u escape: expected 4 hex digits, found 'G'", 1, 6),
        (#""\uD800""#, "unpaired surrogate \\uD800", 1, 2),
        (#""\uD800\u0041""#, "unpaired surrogate \\uD800", 1, 2),
        (#""x\uDC00""#, "unpaired surrogate \\uDC00", 1, 3),
        ("trUe", "invalid literal; expected 'true'", 1, 1),
        ("nul1", "invalid literal; expected 'null'", 1, 1),
        ("// c\n1", "unexpected '/'; expected a JSON value", 1, 1),
        ("{\n  \"a\": 1,\n  \"b\" 2\n}", "expected ':' after an object key", 3, 7),
        ("[\"é\", x]", "unexpected 'x'; expected a JSON value", 1, 7),
        ("[1]\u{0}", "unexpected U+0000 after the JSON value", 1, 4),
        ("\u{A0}1", "unexpected U+00A0; expected a JSON value", 1, 1),
    ]

    @Test(arguments: invalid)
    func invalidDocumentIsRejectedWithItsPosition(text: String, fragment: String, line: Int, column: Int) {
        do {
            let value = try parse(text)
            Issue.record("expected an error, parsed \(value)")
        } catch {
            #expect(error.message.contains(fragment), "\(error)")
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
        }
    }

    @Test func invalidUTF8InAStringIsRejected() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x5C, 0x6E, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: bytes) }
        }
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x5B, 0x22, 0xC3, 0x22, 0x5D]) }
        #expect(error?.message == "invalid UTF-8 in a string")
        #expect(error?.offset == 2)
    }

    @Test func bareInvalidByteIsNamed() {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x80]) }
        #expect(error?.message == "unexpected byte 0x80; expected a JSON value")
    }

    @Test func offsetCountsBytesAndColumnCountsScalars() {
        let error = #expect(throws: JSONSyntaxError.self) { try parse("[\"😀\" 1]") }
        #expect(error?.offset == 8)
        #expect(error?.column == 6)
        #expect(error?.description == "line 1, column 6: expected ',' or ']' after an array element")
    }

    @Test func nestingIsLimitedByMaxDepth() throws {
        #expect(try parse("[[[1]]]", maxDepth: 3) == .array([.array([.array([.int(1)])])]))
        let error = #expect(throws: JSONSyntaxError.self) { try parse("[[{\"a\": [1]}]]", maxDepth: 3) }
        #expect(error?.message == "arrays and objects are nested deeper than 3 levels, the nesting limit for JSON")
        #expect(error?.offset == 8)

        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try parse(deep) }
        let fine = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(throws: Never.self) { try parse(fine) }
    }

    @Test func nonContiguousCollectionsParse() throws {
        let bytes = Array(#"{"a": [1, 2.5, "x"]}"#.utf8)
        let value = try JSONValue(parsing: bytes.lazy.map { $0 })
        #expect(value == .object(["a": .array([.int(1), .double(2.5), .string("x")])]))
        #expect(try JSONValue(parsing: bytes[6..<(bytes.count - 1)]) == .array([.int(1), .double(2.5), .string("x")]))
    }

    @Test func longStringsWithManyEscapesParse() throws {
        let body = String(repeating: #"a\n\u00e9\"\uD83D\uDE00"#, count: 1000)
        let value = try parse("\"\(body)\"")
        #expect(value == .string(String(repeating: "a\né\"😀", count: 1000)))
    }
}
