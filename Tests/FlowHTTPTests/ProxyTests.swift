import FlowCore
import FlowTestServer
import Logging
import Testing

@testable import FlowHTTP

/// Requests through an HTTP proxy: a real `CONNECT` proxy and a real server, both on 127.0.0.1.
struct ProxyTests {
    private func context() -> StepContext {
        StepContext(
            stepID: "s", attempt: 1, attemptTimeout: .seconds(5),
            logger: Logger(label: "ProxyTests") { _ in SwiftLogNoOpLogHandler() })
    }

    private func send(_ url: String, proxies: ProxySettings) async throws -> StepResponse {
        try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false, proxies: proxies) { dispatcher in
            try await dispatcher.dispatch(StepRequest(method: "GET", url: url), context: context())
        }
    }

    @Test func aRequestGoesToItsServerThroughAProxyTunnel() async throws {
        try await withTestServer({ _ in .text("through") }) { server in
            try await withTestProxy { proxy in
                let proxies = ProxySettings(http: try ProxyServer(url: proxy.url), https: nil, noProxy: [])
                let response = try await send(server.baseURL + "/items?page=2", proxies: proxies)
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "through")
                #expect(proxy.connects.map(\.target) == ["127.0.0.1:\(server.port)"])
                #expect(server.requests.map(\.uri) == ["/items?page=2"])
            }
        }
    }

    @Test func aHostNoProxyNamesIsReachedDirectly() async throws {
        try await withTestServer { server in
            try await withTestProxy { proxy in
                let through = try ProxyServer(url: proxy.url)
                for entry in ["127.0.0.1", "127.0.0.1:\(server.port)", "*"] {
                    let proxies = ProxySettings(http: through, https: through, noProxy: ["other.example", entry])
                    #expect(try await send(server.baseURL + "/direct", proxies: proxies).status == 200)
                }
                #expect(proxy.connects.isEmpty)
                #expect(server.requests.count == 3)
            }
        }
    }

    @Test func proxyCredentialsGoInProxyAuthorizationAndNeverInAMessage() async throws {
        // Basic base64("ada:s3cret")
        try await withTestServer { server in
            try await withTestProxy(requiring: "Basic YWRhOnMzY3JldA==") { proxy in
                let good = ProxySettings(
                    http: try ProxyServer(url: "http://ada:s3cret@127.0.0.1:\(proxy.port)"), https: nil, noProxy: [])
                #expect(try await send(server.baseURL + "/ok", proxies: good).status == 200)

                let wrong = ProxySettings(
                    http: try ProxyServer(url: "http://ada:wr0ng-pass@127.0.0.1:\(proxy.port)"), https: nil, noProxy: [])
                let error = await #expect(throws: FlowError.self) {
                    try await send(server.baseURL + "/refused", proxies: wrong)
                }
                #expect(error?.code == .transport)
                #expect(error?.message.contains("through the proxy http://***@127.0.0.1:\(proxy.port)") == true,
                        "\(error?.message ?? "")")
                #expect(error.map { "\($0)" }?.contains("wr0ng-pass") == false)
                #expect(proxy.connects.map(\.authorization) == ["Basic YWRhOnMzY3JldA==", "Basic YWRhOndyMG5nLXBhc3M="])
                #expect(server.requests.map(\.path) == ["/ok"])
            }
        }
    }

    @Test func anUnreachableProxyFailsNamingTheProxy() async throws {
        try await withTestServer { server in
            try await withRefusingPort { port in
                let proxies = ProxySettings(http: try ProxyServer(url: "127.0.0.1:\(port)"), https: nil, noProxy: [])
                let error = await #expect(throws: FlowError.self) {
                    try await send(server.baseURL + "/never", proxies: proxies)
                }
                #expect(error?.code == .transport)
                #expect(error?.message.contains("through the proxy http://127.0.0.1:\(port)") == true,
                        "\(error?.message ?? "")")
                #expect(server.requests.isEmpty)
            }
        }
    }
}
