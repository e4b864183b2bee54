import Testing

@testable import FlowCore

/// Secrets under 4 characters are replaced where a whole value equals them, and nowhere else.
struct ShortSecretRedactionTests {
    @Test(arguments: ["q", "q7", "q+7"])
    func wholeValuesEqualToAShortSecretAreRedacted(secret: String) {
        let redactor = SecretRedactor()
        redactor.add(.string(secret))
        let query = URLEncoding.percentEncodeQueryComponent(secret)
        let segment = URLEncoding.percentEncodePathSegment(secret)
        #expect(redactor.redact(url: "http://h/items/\(segment)?pw=\(query)&n=1") == "http://h/items/***?pw=***&n=1")
        #expect(redactor.redact(url: "http://h/\(segment)/x?pw=\(query)") == "http://h/***/x?pw=***")
        #expect(redactor.redact(secret) == "***")
        #expect(redactor.redact("Bearer \(secret)") == "Bearer ***")
        #expect(redactor.redact("> X-Token: \(secret)\n< HTTP/1.1 200") == "> X-Token: ***\n< HTTP/1.1 200")
        #expect(redactor.redact(#"{"pw":"\#(secret)","\#(secret)":1}"#) == #"{"pw":"***","\#(secret)":1}"#)
        #expect(redactor.redact("GET http://h/a?pw=\(query)  200") == "GET http://h/a?pw=***  200")
        let form = String(URLEncoding.formURLEncode([("", secret)]).dropFirst())
        #expect(redactor.redact("user=u&pass=\(form)") == "user=u&pass=***")
        let value: JSONValue = ["direct": .string(secret), "list": [.string(secret), "other"], "n": 1]
        #expect(redactor.redact(value) == ["direct": "***", "list": ["***", "other"], "n": 1])
    }

    @Test func aShortSecretInsideLongerTextIsKept() {
        let redactor = SecretRedactor()
        redactor.add("a")
        redactor.add("ok")
        redactor.add("")  // No secret at all.
        let text = #"{"status":"okay","name":"banana"} a b /okay/ ?q=a1 task ok"#
        #expect(redactor.redact(text) == text)
        #expect(redactor.redact(JSONValue.string("banana")) == "banana")
        // Longer secrets are still replaced wherever they occur.
        redactor.add("long-secret")
        #expect(redactor.redact("xlong-secretx") == "x***x")
    }
}
