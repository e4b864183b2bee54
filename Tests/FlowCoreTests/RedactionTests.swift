import Testing

@testable import FlowCore

struct RedactionTests {
    @Test(arguments: [
        ("https://api.example.com/v1/items/42", "https://api.example.com/v1/items/42"),
        ("https://api.example.com/items?page=2&limit=50", "https://api.example.com/items?page=2&limit=50"),
        ("https://user:pw@api.example.com/x", "https://***@api.example.com/x"),
        ("https://h/x?api_key=k1&page=2&Access_Token=t&sig=s#frag", "https://h/x?api_key=***&page=2&Access_Token=***&sig=***#frag"),
        ("https://h/x?q=monkey", "https://h/x?q=monkey"),
        ("https://h/x?token=&a=b=c&&", "https://h/x?token=***&a=b=c&&"),
        ("https://h/caf\u{E9}?key=1", "https://h/caf\u{E9}?key=***"),
        ("https://h/x?\u{212A}ey=1", "https://h/x?\u{212A}ey=***"),
    ])
    func urlRedaction(url: String, expected: String) {
        #expect(URLRedaction.redact(url) == expected)
    }

    @Test func theByteShortcutOnlyTakesURLsWithNothingToRedact() {
        #expect(URLRedaction.hasNothingToRedact("https://h/items/42?limit=50"))
        #expect(!URLRedaction.hasNothingToRedact("https://h/items?KEY=1"))
        #expect(!URLRedaction.hasNothingToRedact("https://u@h/items"))
        #expect(!URLRedaction.hasNothingToRedact("https://h/caf\u{E9}"))
    }

    @Test func secretsAreRedactedWhereverTheyOccur() {
        let redactor = SecretRedactor()
        redactor.add("bench-token-1234")
        redactor.add("s\u{E9}cr\u{E9}t-value")
        #expect(redactor.redact("Bearer bench-token-1234 sent") == "Bearer *** sent")
        #expect(redactor.redact("nothing secret here") == "nothing secret here")
        #expect(redactor.redact("x s\u{E9}cr\u{E9}t-value y") == "x *** y")
        // Canonically equivalent text (decomposed é) is still redacted: non-ASCII text takes the Character search.
        #expect(redactor.redact("x se\u{301}cre\u{301}t-value y") == "x *** y")
    }

    @Test func certainlyAbsentIsOnlyCertainForASCII() {
        #expect(ASCIISearch.certainlyAbsent("token", in: "no secrets"))
        #expect(!ASCIISearch.certainlyAbsent("token", in: "a token here"))
        #expect(!ASCIISearch.certainlyAbsent("token", in: "caf\u{E9}"))
        #expect(!ASCIISearch.certainlyAbsent("", in: "abc"))
    }
}
