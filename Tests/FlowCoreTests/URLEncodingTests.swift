import Testing

@testable import FlowCore

struct URLEncodingTests {
    @Test(arguments: [
        ("plain-._~", "plain-._~"),
        ("AZaz09", "AZaz09"),
        ("!$&'()*+,;=:@", "!$&'()*+,;=:@"),
        ("a/b", "a%2Fb"),
        ("a b", "a%20b"),
        ("?#[]%", "%3F%23%5B%5D%25"),
        ("\"<>\\^`{|}", "%22%3C%3E%5C%5E%60%7B%7C%7D"),
        ("é€😀", "%C3%A9%E2%82%AC%F0%9F%98%80"),
        ("\n\u{0}\u{7F}", "%0A%00%7F"),
        ("", ""),
    ])
    func pathSegmentKeepsUnreservedSubDelimitersColonAndAt(text: String, encoded: String) {
        #expect(URLEncoding.percentEncodePathSegment(text) == encoded)
        #expect(URLEncoding.percentDecode(encoded) == text)
    }

    @Test(arguments: [
        ("plain-._~", "plain-._~"),
        ("a b", "a%20b"),
        ("x=1&y+z", "x%3D1%26y%2Bz"),
        ("!$'()*,;:@/?#%", "%21%24%27%28%29%2A%2C%3B%3A%40%2F%3F%23%25"),
        ("é", "%C3%A9"),
    ])
    func queryComponentKeepsOnlyUnreserved(text: String, encoded: String) {
        #expect(URLEncoding.percentEncodeQueryComponent(text) == encoded)
        #expect(URLEncoding.percentDecode(encoded) == text)
        #expect(URLEncoding.percentDecode(encoded, plusAsSpace: true) == text)
    }

    @Test func formEncodingWritesSpaceAsPlusAndKeepsOrderAndRepeats() {
        let encoded = URLEncoding.formURLEncode([
            ("grant_type", "client_credentials"), ("scope", "read write"), ("scope", "a+b=c&d"), ("x*-._~", "é"),
            ("", ""),
        ])
        #expect(encoded == "grant_type=client_credentials&scope=read+write&scope=a%2Bb%3Dc%26d&x*-._%7E=%C3%A9&=")
        #expect(URLEncoding.formURLEncode([]) == "")
    }

    @Test(arguments: [
        ("%41%42", false, "AB"),
        ("%e2%82%ac", false, "€"),
        ("100%", false, "100%"),
        ("%4", false, "%4"),
        ("%zz%41", false, "%zzA"),
        ("a+b", false, "a+b"),
        ("a+b%2B", true, "a b+"),
        ("%FF", false, "\u{FFFD}"),
    ])
    func decodingIsLenientAboutMalformedEscapes(encoded: String, plusAsSpace: Bool, decoded: String) {
        #expect(URLEncoding.percentDecode(encoded, plusAsSpace: plusAsSpace) == decoded)
    }

    @Test func queryIsSplitIntoDecodedPairs() {
        let pairs = URLEncoding.parseQuery("?page=2&tag=a+b&tag=c%26d&&flag&empty=&k%3D=v=w")
        #expect(pairs.map(\.0) == ["page", "tag", "tag", "flag", "empty", "k="])
        #expect(pairs.map(\.1) == ["2", "a b", "c&d", "", "", "v=w"])
        #expect(URLEncoding.parseQuery("").isEmpty)
    }

    @Test func encodedQueryAndFormTextParseBack() {
        let pairs = [("q", "a b+c"), ("é", "&=?#"), ("n", "")]
        let query = pairs.map {
            URLEncoding.percentEncodeQueryComponent($0.0) + "=" + URLEncoding.percentEncodeQueryComponent($0.1)
        }.joined(separator: "&")
        for text in [query, URLEncoding.formURLEncode(pairs)] {
            let parsed = URLEncoding.parseQuery(text)
            #expect(parsed.map(\.0) == pairs.map(\.0))
            #expect(parsed.map(\.1) == pairs.map(\.1))
        }
    }
}
