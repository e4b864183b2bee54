import FlowCore
import Testing

@testable import FlowHTTP

struct RequestTargetTests {
    @Test(arguments: [
        ("https://api.example.com/items/a%2Fb?page=2", "GET https://api.example.com/items/a%2Fb?page=2"),
        ("https://user:pw@api.example.com:8443/a#frag", "GET https://api.example.com:8443/a"),
        (
            "http://h/x?api_key=K&page=2&access_token=T&sig=S&X-Amz-Signature=A&q=key",
            "GET http://h/x?api_key=***&page=2&access_token=***&sig=***&X-Amz-Signature=***&q=key"
        ),
        (
            "http://h/x?Client_Secret=c&PASSWORD=p&design=d&flag",
            "GET http://h/x?Client_Secret=***&PASSWORD=***&design=d&flag"
        ),
        ("http://h/x?token=&a=b=c&&", "GET http://h/x?token=***&a=b=c&&"),
    ])
    func descriptionDropsUserInfoAndRedactsSecretQueryValues(url: String, expected: String) {
        #expect(RequestTarget(StepRequest(method: "GET", url: url)).description == expected)
    }

    @Test(arguments: [
        ("http://example.com/a", "example.com:80"),
        ("https://example.com", "example.com:443"),
        ("HTTPS://example.com:8443/a?b", "example.com:8443"),
        ("http://u:p@127.0.0.1:9000/", "127.0.0.1:9000"),
        ("http://[::1]:8080/x", "[::1]:8080"),
        ("https://[::1]/x", "[::1]:443"),
    ])
    func authorityHasTheEffectivePort(url: String, authority: String) {
        #expect(RequestTarget(StepRequest(method: "GET", url: url)).authority == authority)
    }

    @Test func schemeIsLowerCasedAndMissingWithoutSeparator() {
        #expect(RequestTarget(StepRequest(method: "GET", url: "HTTP://h/")).scheme == "http")
        #expect(RequestTarget(StepRequest(method: "GET", url: "/relative")).scheme == nil)
        #expect(RequestTarget(StepRequest(method: "GET", url: "/relative")).host.isEmpty)
    }
}

struct RequestTargetNonASCIITests {
    /// A URL that is not ASCII is split on its Characters, as it always was.
    @Test(arguments: [
        ("https://us\u{E9}r@h\u{F6}st:81/caf\u{E9}?token=\u{E9}#x", "GET https://h\u{F6}st:81/caf\u{E9}?token=***", "h\u{F6}st:81"),
        ("http://h/x?\u{301}a=1", "GET http://h/x?\u{301}a=1", "h:80"),
        ("http://[::1]\u{E9}/p", "GET http://[::1]\u{E9}/p", "[::1]\u{E9}:80"),
        ("Http\u{E9}://h/p", "GET http\u{E9}://h/p", "h:80"),
    ])
    func nonASCIIURLsAreSplitByCharacters(url: String, description: String, authority: String) {
        let target = RequestTarget(StepRequest(method: "GET", url: url))
        #expect(target.description == description)
        #expect(target.authority == authority)
    }

    @Test func schemeMatchesIgnoringCaseOnlyForLetters() {
        #expect(RequestTarget(StepRequest(method: "GET", url: "hTtPs://h/")).scheme == "https")
        #expect(RequestTarget(StepRequest(method: "GET", url: "http:/h/")).scheme == nil)
        #expect(RequestTarget(StepRequest(method: "GET", url: "a:b://h/")).scheme == "a:b")
        #expect(RequestTarget(StepRequest(method: "GET", url: "ftp://h/")).hasHost)
        #expect(!RequestTarget(StepRequest(method: "GET", url: "http:///p")).hasHost)
    }
}
