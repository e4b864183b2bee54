import Testing

@testable import FlowHTTP

/// Reading `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY` and proxy URLs.
struct ProxySettingsTests {
    @Test func eachSchemeHasItsVariableAndLowerCaseWins() throws {
        let settings = try ProxySettings(environment: [
            "HTTP_PROXY": "http://upper:3128", "http_proxy": "http://lower:3128", "HTTPS_PROXY": "secure.proxy:8443",
        ])
        #expect(settings.http == (try ProxyServer(url: "http://lower:3128")))
        #expect(settings.server(forScheme: "https", host: "api.example", port: nil)?.host == "secure.proxy")
        #expect(settings.server(forScheme: "https", host: "api.example", port: nil)?.port == 8443)
        #expect(settings.server(forScheme: "http", host: "api.example", port: 80)?.host == "lower")
    }

    @Test func anEmptyOrMissingVariableMeansNoProxy() throws {
        #expect(try ProxySettings(environment: ["HTTPS_PROXY": " "]).https == nil)
        #expect(try ProxySettings(environment: [:]) == ProxySettings())
        #expect(ProxySettings().server(forScheme: "https", host: "api.example", port: 443) == nil)
    }

    @Test(arguments: [
        ("*", "anything.example", 443, true),
        ("api.example", "api.example", 443, true),
        ("API.Example", "api.example", 443, true),
        ("example.com", "api.example.com", 443, true),
        (".example.com", "api.example.com", 443, true),
        (".example.com", "example.com", 443, true),
        ("example.com", "notexample.com", 443, false),
        ("api.example:8443", "api.example", 8443, true),
        ("api.example:8443", "api.example", 443, false),
        ("::1", "[::1]", 443, true),
        ("[::1]:8080", "[::1]", 8080, true),
        ("10.0.0.1", "10.0.0.2", 443, false),
    ])
    func noProxyEntries(entry: String, host: String, port: Int, bypasses: Bool) {
        let settings = ProxySettings(http: nil, https: nil, noProxy: ["unrelated.test", " \(entry) "])
        #expect(settings.bypasses(host: host, port: port) == bypasses)
    }

    @Test func proxyURLs() throws {
        let plain = try ProxyServer(url: "proxy.corp")
        #expect(plain.host == "proxy.corp" && plain.port == 1080 && plain.username == nil)
        let full = try ProxyServer(url: "http://ada%40corp:p%3Ass@[::1]:3128/")
        #expect(full.host == "::1" && full.port == 3128)
        #expect(full.username == "ada@corp" && full.password == "p:ss")
        #expect(full.description == "http://***@[::1]:3128")
        #expect(try ProxyServer(url: "http://proxy:3128").description == "http://proxy:3128")
    }

    @Test(arguments: [
        ("socks5://proxy:1080", "'socks5' proxies are not supported"),
        ("https://proxy:443", "'https' proxies are not supported"),
        ("http://proxy:99999", "is not a number from 1 to 65535"),
        ("http://proxy:3128/path", "a proxy URL has no path"),
        ("http://user:secret@", "names no host"),
    ])
    func unusableProxyURLsAreRefusedWithoutTheirCredentials(url: String, reason: String) {
        #expect(throws: ProxyServer.Invalid.self) { try ProxyServer(url: url) }
        do {
            _ = try ProxyServer(url: url)
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
            #expect(!error.reason.contains("secret"))
        }
    }

    @Test func aBadVariableIsNamed() {
        do {
            _ = try ProxySettings(environment: ["https_proxy": "socks5://user:hunter2@proxy:1080"])
            Issue.record("a SOCKS proxy was accepted")
        } catch {
            #expect(error.source == "https_proxy")
            #expect(!"\(error)".contains("hunter2"))
        }
    }

    @Test func oneProxyForEverythingKeepsNoProxy() throws {
        let settings = try ProxySettings(environment: ["NO_PROXY": "localhost,.internal"])
            .using(try ProxyServer(url: "http://proxy:3128"))
        #expect(settings.server(forScheme: "http", host: "api.example", port: nil)?.host == "proxy")
        #expect(settings.server(forScheme: "https", host: "api.example", port: nil)?.host == "proxy")
        #expect(settings.server(forScheme: "https", host: "db.internal", port: nil) == nil)
        #expect(settings.server(forScheme: "ftp", host: "api.example", port: nil) == nil)
    }
}
