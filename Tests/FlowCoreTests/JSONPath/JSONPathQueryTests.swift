import Testing
@testable import FlowCore

/// RFC 9535 JSONPath queries: what they select, where, and the located errors of queries that are not valid.
struct JSONPathQueryTests {
    static let store = try! JSONValue(parsing: Array(#"""
        {"store": {"book": [
            {"category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95},
            {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99},
            {"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3",
             "price": 8.99},
            {"category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings",
             "isbn": "0-395-19395-8", "price": 22.99}],
          "bicycle": {"color": "red", "price": 399}}}
        """#.utf8))

    private func select(_ text: String, in document: JSONValue = store) throws -> [JSONPathNode] {
        try JSONPathQuery(parsing: text).select(in: document)
    }

    private func values(_ text: String, in document: JSONValue = store) throws -> [JSONValue] {
        try select(text, in: document).map(\.value)
    }

    @Test func selectsByNameIndexSliceAndWildcardWithNormalizedPaths() throws {
        #expect(try values("$.store.book[0].author") == ["Nigel Rees"])
        #expect(try values("$['store']['book'][-1].title") == ["The Lord of the Rings"])
        #expect(try values("$.store.book[1:3].price") == [12.99, 8.99])
        #expect(try values("$.store.book[::-2].price") == [22.99, 12.99])
        #expect(try values("$.store.book[*].isbn") == ["0-553-21311-3", "0-395-19395-8"])
        #expect(try select("$..isbn").map(\.path.description) == ["$['store']['book'][2]['isbn']", "$['store']['book'][3]['isbn']"])
        #expect(try select("$.store.bicycle.color")[0].path.pointer.description == "/store/bicycle/color")
        // A name on an array, an index on an object, an index out of range: nothing, not an error.
        #expect(try values("$.store.book.author") == [])
        #expect(try values("$.store[0]") == [])
        #expect(try values("$.store.book[4]") == [])
    }

    @Test func visitsObjectMembersInTheOrderOfTheirNames() throws {
        let document = try JSONValue(parsing: Array(#"{"b": 2, "a": 1, "c": {"a": 3}}"#.utf8))
        #expect(try values("$.*", in: document) == [1, 2, ["a": 3]])
        // Each node before its descendants.
        #expect(try select("$..a", in: document).map(\.path.description) == ["$['a']", "$['c']['a']"])
    }

    @Test func filtersCompareNumbersStringsAndStructures() throws {
        #expect(try values("$.store.book[?@.price < 10].title") == ["Sayings of the Century", "Moby Dick"])
        #expect(try values("$.store.book[?@.isbn && @.price > 20].title") == ["The Lord of the Rings"])
        #expect(try values("$.store.book[?!@.isbn].author") == ["Nigel Rees", "Evelyn Waugh"])
        #expect(try values("$.store.book[?@.category == 'fiction' && (@.price < 9 || @.price > 20)].price") == [8.99, 22.99])
        #expect(try values("$.store.book[?@.author >= 'J'].author") == ["Nigel Rees", "J. R. R. Tolkien"])
        // Integers and fractions compare by value; structures member by member.
        let document = try JSONValue(parsing: Array(#"[{"n": 1}, {"n": 1.0}, {"n": [1, {"x": null}]}, {"n": "1"}]"#.utf8))
        #expect(try values("$[?@.n == 1]", in: document).count == 2)
        #expect(try values("$[?@.n == $[2].n]", in: document) == [["n": [1, ["x": nil]]]])
    }

    @Test func aMissingValueIsNothingNotNull() throws {
        let document = try JSONValue(parsing: Array(#"{"c": "cd", "values": [{"a": "ab"}, {"c": "d"}, {"a": null}]}"#.utf8))
        // value() of two nodes and length() of a missing member are both Nothing, which equals only Nothing.
        #expect(try values("$.values[?length(@.a) == value($..c)]", in: document) == [["c": "d"], ["a": nil]])
        #expect(try values("$.values[?@.a == null]", in: document) == [["a": nil]])
        #expect(try values("$.values[?@.missing < 1 || @.missing > 1]", in: document) == [])
    }

    @Test func functionsOfTheStandard() throws {
        let document = try JSONValue(parsing: Array(#"[{"s": "héllo", "l": [1, 2, 3]}, {"s": "ab\nc", "l": []}, {"s": 7}]"#.utf8))
        #expect(try values("$[?length(@.s) == 5].s", in: document) == ["héllo"])  // Unicode scalars, not bytes
        #expect(try values("$[?count(@.l[*]) > 2].s", in: document) == ["héllo"])
        #expect(try values("$[?match(@.s, 'h.llo')].s", in: document) == ["héllo"])
        #expect(try values("$[?match(@.s, 'll')].s", in: document) == [])  // match is the whole string
        #expect(try values("$[?search(@.s, 'll')].s", in: document) == ["héllo"])
        #expect(try values("$[?search(@.s, 'b.c')].s", in: document) == [])  // '.' never matches a line break
        #expect(try values("$[?search(@.s, '[a-c]\\\\n')].s", in: document) == ["ab\nc"])
        #expect(try values("$[?match(@.s, '^h.*o$')].s", in: document) == ["héllo"])
        #expect(try values("$[?search(@.s, '\\\\p{Lu}')]", in: document) == [])
        // A pattern that is not an I-Regexp makes match false, never an error; so does a subject that is no string.
        #expect(try values("$[?match(@.s, '(?=h)h.*')]", in: document) == [])
        #expect(try values("$[?search(@.s, @.s)]", in: document).count == 2)
    }

    @Test func aQueryThatIsNotValidIsALocatedError() {
        let cases: [(String, Int, String)] = [
            ("", 0, "empty"),
            ("store.book", 0, "starts with '$'"),
            ("$.store ", 7, "blank space"),
            ("$.store.", 8, "member name or '*'"),
            ("$[01]", 2, "leading zeros"),
            ("$[-0]", 2, "'-0'"),
            ("$[9007199254740992]", 2, "2^53"),
            ("$['a'", 5, "',' or ']'"),
            ("$['a\\\"']", 4, "not an escape"),
            ("$[?@.a = 1]", 7, "'=='"),
            ("$[?true]", 3, "literal alone"),
            ("$[?length(@.a)]", 3, "not a test alone"),
            ("$[?match(@.a, 'x') == true]", 3, "cannot be compared"),
            ("$[?@.* == 1]", 3, "singular query"),
            ("$[?count(1) > 0]", 9, "does not fit count(NodesType)"),
            ("$[?length(@.*) > 0]", 10, "does not fit length(ValueType)"),
            ("$[?match(@.a)]", 3, "takes 2 arguments"),
            ("$[?lenght(@.a) > 1]", 3, "unknown function 'lenght'"),
            ("$[?!@.a == 1]", 4, "cannot negate a comparison"),
            (#"$["\uDC00"]"#, 3, "low surrogate"),
        ]
        expectSyntaxErrors(cases) { (text) throws(ExpressionSyntaxError) in _ = try JSONPathQuery(parsing: text) }
    }

    @Test func nestingIsBoundedSoNoQueryExhaustsTheStack() {
        let deep = "$[?" + String(repeating: "(", count: 200) + "@.a" + String(repeating: ")", count: 200) + "]"
        #expect(throws: ExpressionSyntaxError.self) { try JSONPathQuery(parsing: deep) }
        let fine = "$[?" + String(repeating: "(", count: 20) + "@.a" + String(repeating: ")", count: 20) + "]"
        #expect((try? JSONPathQuery(parsing: fine)) != nil)
    }

    @Test func normalizedPathsEscapeNames() {
        let path = JSONPathNode.Path([.name("it's"), .index(2), .name("a\\b\u{1}\n")])
        #expect(path.description == #"$['it\'s'][2]['a\\b\u0001\n']"#)
    }

    @Test func singularQueriesAreOnlyNamesAndIndexes() throws {
        #expect(try JSONPathQuery(parsing: "$.a[0]['b']").isSingular)
        #expect(try !JSONPathQuery(parsing: "$.a[*]").isSingular)
        #expect(try !JSONPathQuery(parsing: "$..a").isSingular)
        #expect(try !JSONPathQuery(parsing: "$.a[0:1]").isSingular)
    }
}
