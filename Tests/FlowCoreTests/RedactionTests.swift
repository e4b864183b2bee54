import FlowTestServer
import Logging
import Synchronization
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

    @Test func theByteShortcutIgnoresCaseWithoutCopyingTheQuery() {
        #expect(!URLRedaction.hasNothingToRedact("https://h/items?X-Amz-SIGNATURE=1"))
        #expect(!URLRedaction.hasNothingToRedact("https://h/items?limit=1&Auth=2"))
        #expect(URLRedaction.hasNothingToRedact("https://h/key/token?limit=1"))
    }

    @Test func valuesWithoutSecretsComeBackUnchanged() {
        let redactor = SecretRedactor()
        let value: JSONValue = ["list": [["id": "t-1", "n": 2], "plain"], "flag": true]
        #expect(redactor.redact(value) == value)
        redactor.add("bench-token-1234")
        #expect(redactor.redact(value) == value)
        let secretInside: JSONValue = ["a": ["x", "the bench-token-1234 here", "y", ["k": "bench-token-1234"]], "b": "z"]
        #expect(redactor.redact(secretInside) == ["a": ["x", "the *** here", "y", ["k": "***"]], "b": "z"])
    }

    @Test func shortSecretsAreIgnoredCountingCharacters() {
        let redactor = SecretRedactor()
        redactor.add("abc")  // Too short.
        redactor.add("\r\nab")  // Three characters: CR LF is one.
        redactor.add("e\u{301}e\u{301}")  // Two characters in six bytes.
        redactor.add("abcd")
        #expect(redactor.redact("abc \r\nab e\u{301}e\u{301} abcd") == "abc \r\nab e\u{301}e\u{301} ***")
    }

    @Test(arguments: [
        ("https://h/x", "?", false),
        ("https://h/x?a=1", "?", true),
        ("https://h/caf\u{E9}?a=1", "?", true),
        ("https://h/x?\u{301}", "?", false),  // `?` with a combining mark is another Character.
        ("a\r\nb", "\r", false),  // CR LF is one Character.
        ("a\rb", "\r", true),
    ] as [(String, Unicode.Scalar, Bool)])
    func containsAnswersAsCharacterSearchDoes(text: String, character: Unicode.Scalar, expected: Bool) {
        #expect(ASCIISearch.contains(character, in: text) == expected)
        #expect(text.contains(Character(character)) == expected)
    }

    /// Issue 9 item 1: FlowCore and FlowHTTP had two URL redactors with different rules; one rule set now.
    @Test(arguments: [
        ("https://h/x?design=d&author=a&signal=s", "https://h/x?design=d&author=a&signal=s"),
        ("https://h/x?sig=1&x-sig=2&auth=3&OAuth_Token=4", "https://h/x?sig=***&x-sig=***&auth=***&OAuth_Token=***"),
        (
            "https://h/x?Client_Secret=c&PASSWORD=p&X-Amz-Signature=s",
            "https://h/x?Client_Secret=***&PASSWORD=***&X-Amz-Signature=***"
        ),
    ])
    func oneSetOfURLRules(url: String, expected: String) {
        #expect(URLRedaction.redact(url) == expected)
        #expect(SecretRedactor().redact(url: url) == expected)
    }

    /// Issue 9 item 1: a key in a parameter with an ordinary name stays in the URL, its value redacted.
    @Test func aSecretInAnOrdinaryQueryParameterIsRedactedInPlace() {
        let redactor = SecretRedactor()
        redactor.add("weather key/1")
        #expect(redactor.redact(url: "https://h/w?q=Oslo&appid=weather%20key%2F1") == "https://h/w?q=Oslo&appid=***")
        #expect(redactor.redact(url: "https://u:p@h/w?appid=weather%20key%2F1") == "https://***@h/w?appid=***")
    }

    /// Issue 9 item 4c: the forms a server echoes a secret in are redacted too.
    @Test func encodedFormsOfASecretAreRedacted() {
        let redactor = SecretRedactor()
        let secret = "s3cr\"t/with+plus?"
        redactor.add(.string(secret))
        let base64 = "czNjciJ0L3dpdGgrcGx1cz8="
        for form in [
            secret, "s3cr%22t%2Fwith%2Bplus%3F", #"s3cr\"t/with+plus?"#, #"s3cr\"t\/with+plus?"#, base64,
            String(base64.dropLast()), "czNjciJ0L3dpdGgrcGx1cz8",
        ] {
            #expect(redactor.redact("before \(form) after") == "before *** after", "\(form)")
        }
        #expect(redactor.redact(JSONValue.string(#"{"echo":"s3cr\"t/with+plus?"}"#)) == #"{"echo":"***"}"#)
    }

    /// A secret whose base64 has `+` and `/` is also redacted in base64url, padded or not, and nowhere else.
    @Test func aSecretIsRedactedInBase64AndBase64URL() {
        let redactor = SecretRedactor()
        redactor.add(.string("token>>>???~~~"))
        for form in ["dG9rZW4+Pj4/Pz9+fn4=", "dG9rZW4+Pj4/Pz9+fn4", "dG9rZW4-Pj4_Pz9-fn4", "dG9rZW4-Pj4_Pz9-fn4="] {
            #expect(redactor.redact("x=\(form)&y") == "x=***&y", "\(form)")
        }
        #expect(redactor.redact("dG9rZW4") == "dG9rZW4")
        #expect(Base64URL.encode(Array("token>>>???~~~".utf8)) == "dG9rZW4-Pj4_Pz9-fn4")
        #expect(Base64URL.encode([]) == "")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test(arguments: [
        ("Authorization", "Bearer t-1", "Bearer ***"),
        ("authorization", "Basic dTpw", "Basic ***"),
        ("X-Api-Key", "k-1", "***"),
        ("Cookie", "session=abc; theme=dark", "***"),
        ("Accept", "application/json", "application/json"),
    ])
    func aCredentialHeaderValueIsRedactedByItsNameKeepingTheScheme(name: String, value: String, shown: String) {
        #expect(SecretRedactor.redact(headerValue: value, named: name) == shown)
    }

    @Test func aQueryParameterIsACredentialByTheSameRulesAsInURLs() {
        for name in ["api_key", "access_token", "Client_Secret", "sig", "x-sig"] {
            #expect(SecretRedactor.isCredentialParameter(name), "\(name)")
        }
        for name in ["page", "limit", "design", "author"] {
            #expect(!SecretRedactor.isCredentialParameter(name), "\(name)")
        }
    }

    @Test func urlSafeBase64IsRedacted() {
        let redactor = SecretRedactor()
        redactor.add("??>>??>>")  // Base64 `Pz8+Pj8/Pj4=`, URL-safe `Pz8-Pj8_Pj4`.
        #expect(redactor.redact("a Pz8+Pj8/Pj4= b Pz8-Pj8_Pj4 c") == "a *** b *** c")
    }
}

/// Issue 9 item 4c: secrets that the inputs, `$env` and the initial vars determine are known before the first
/// request.
struct SecretsKnownBeforeTheFirstRequestTests {
    @Test func anAPIKeyFromEnvIsRedactedInTheFirstAttemptsTraceLines() async throws {
        let plan = try WorkflowCompiler().compile(
            yaml: """
                flowrun: 1
                servers: { api: https://api.test }
                interceptors:
                  key: { apiKey: { query: appid, value: $env.KEY } }
                  sign: { sign: { key: $env.HMAC } }
                defaults: { server: api, interceptors: [key, sign] }
                steps:
                  - id: get
                    request: { method: GET, path: "/keys/{$env.KEY}", headers: { X-Echo: "{$env.HMAC}" } }
                env: { KEY: {}, HMAC: {} }
                """,
            path: "keys.yaml")
        let capture = CapturedLogs()
        var logger = Logger(label: "test") { _ in capture.handler() }
        logger.logLevel = .trace
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let echoing = EchoingDispatcher(inner: dispatcher)
        let engine = Engine(dispatchers: DispatcherRegistry(["http": echoing]), logger: logger)
        let report = await engine.run(
            plan, inputs: [:], environment: ["KEY": "env-api-key-1234", "HMAC": "env-hmac-key-5678"])
        #expect(report.succeeded)
        #expect(dispatcher.requests.first?.url.contains("env-api-key-1234") == true)
        #expect(capture.entries.contains { $0.message == "sending request" })
        for entry in capture.entries {
            #expect(!entry.text.contains("env-api-key-1234"), "\(entry.text)")
            #expect(!entry.text.contains("env-hmac-key-5678"), "\(entry.text)")
        }
        // The dispatcher's redactor already knew both when the request arrived.
        #expect(echoing.seen == ["https://api.test/keys/***?appid=*** ***"])
    }
}

/// Records what the run's redactor makes of each request's URL and `X-Echo` header, then passes it on.
private final class EchoingDispatcher: Dispatcher {
    let inner: ScriptedDispatcher
    private let texts = Mutex<[String]>([])

    init(inner: ScriptedDispatcher) { self.inner = inner }

    var seen: [String] { texts.withLock { $0 } }

    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        let echo = context.redactor.redact(request.headers["X-Echo"] ?? "")
        texts.withLock { $0.append(context.redactor.redact(url: request.url) + " " + echo) }
        return try await inner.dispatch(request, context: context)
    }
}
