import Testing

@testable import FlowCore

struct HeaderFieldsTests {
    @Test(arguments: [
        ("Content-Type", "content-type", true),
        ("CONTENT-TYPE", "Content-Type", true),
        ("Content-Type", "Content-Typ", false),
        ("X-A", "X-B", false),
        ("X-[", "X-{", false),  // `[` and `{` differ by the case bit, but are not letters.
        ("\u{212A}ey", "key", true),  // KELVIN SIGN lower-cases to k.
        ("Stra\u{DF}e", "STRASSE", false),  // `ß` lower-cases to itself; `SS` to `ss`.
        ("caf\u{E9}", "CAFE\u{301}", true),  // Canonically equivalent once lower-cased.
        ("Accept", "Accept\u{301}", false),  // The longer name's rest is not ASCII: the long way.
        ("X-A\u{E9}", "x-b\u{E9}", false),  // An ASCII difference before the first non-ASCII byte.
        ("Key", "KeyS", false),
        ("", "", true),
    ])
    func namesMatchAsLowercasedComparisonDoes(a: String, b: String, expected: Bool) {
        #expect(HeaderFields.namesMatch(a, b) == expected)
        #expect((a.lowercased() == b.lowercased()) == expected)
    }

    @Test func fieldsAreFoundSetAndRemovedIgnoringCase() {
        var headers: HeaderFields = ["Accept": "application/json", "X-Trace": "1", "x-trace": "2"]
        #expect(headers["ACCEPT"] == "application/json")
        #expect(headers.values("X-TRACE") == ["1", "2"])
        headers.set("x-TRACE", "3")
        #expect(headers.fields.map(\.name) == ["Accept", "x-TRACE"])
        headers.remove("missing")
        headers.remove("accept")
        #expect(headers.fields.map(\.value) == ["3"])
    }

    @Test(arguments: [("Bearer abc", true), ("a\rb", false), ("a\nb", false), ("a\u{0}b", false), ("caf\u{E9}\t", true)])
    func headerValuesWithLineBreaksOrNULAreRefused(value: String, accepted: Bool) {
        #expect(((try? RequestBuilder.checkHeaderValue(value, name: "X")) != nil) == accepted)
        #expect(ASCIISearch.containsByte(in: value, where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) != accepted)
    }
}
