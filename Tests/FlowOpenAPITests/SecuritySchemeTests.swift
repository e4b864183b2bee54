import FlowCore
import FlowHTTP
import FlowOpenAPI
import FlowTestServer
import Foundation
import Logging
import Testing

/// A source's `security:` gives the credentials of the document's security schemes; each operation step that
/// needs a scheme sends it through an interceptor.
struct SecuritySchemeTests {
    static let document = """
        openapi: 3.1.0
        info: { title: Vault, version: "1" }
        servers: [{ url: "https://vault.example" }]
        security: [{ bearerAuth: [] }, { apiKey: [] }]
        paths:
          /secrets:
            get:
              operationId: listSecrets
              responses: { "200": { description: ok } }
          /admin:
            post:
              operationId: rotate
              security: [{ basicAuth: [], apiKey: [] }]
              parameters: [{ name: X-Key-Version, in: header, schema: { type: integer } }]
              responses: { "204": { description: rotated } }
          /health:
            get:
              operationId: health
              security: []
              responses: { "204": { description: up } }
        components:
          securitySchemes:
            bearerAuth: { type: http, scheme: bearer }
            apiKey: { type: apiKey, in: query, name: key }
            basicAuth: { type: http, scheme: basic }
            session: { type: apiKey, in: cookie, name: sid }
            oauth:
              type: oauth2
              flows: { clientCredentials: { tokenUrl: "https://vault.example/token", scopes: {} } }
        """

    static let workflow = """
        flowrun: 1
        env: { VAULT_URL: {} }
        inputs:
          type: object
          properties: { token: { type: string, format: password }, password: { type: string, format: password } }
        openapi:
          vault:
            path: vault.yaml
            security:
              bearerAuth: $inputs.token
              apiKey: k-1
              basicAuth: { username: admin, password: $inputs.password }
        servers: { vault: "{$env.VAULT_URL}" }
        steps:
          - id: list
            operation: vault.listSecrets
          - id: rotate
            operation: vault.rotate
            after: list
            parameters: { X-Key-Version: 2 }
          - id: health
            operation: vault.health
            after: rotate
        """

    @Test func eachOperationSendsTheCredentialsOfItsFirstSatisfiedRequirement() async throws {
        let compiler = OpenAPIFixtures.compiler(["flows/vault.yaml": Self.document])
        let result = compiler.check(yaml: Self.workflow, path: "flows/w.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let plan = try #require(result.plan)
        let interceptors = Dictionary(uniqueKeysWithValues: plan.workflow.steps.map {
            ($0.id.value, $0.interceptors?.map(\.value) ?? [])
        })
        #expect(interceptors["list"] == ["vault.bearerAuth"])
        #expect(interceptors["rotate"] == ["vault.apiKey", "vault.basicAuth"])
        #expect(interceptors["health"] == [])

        let json = [("Content-Type", "application/json")]
        let requests = try await withTestServer({ _ in .text("{}", status: 200, headers: json) }) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "v"))
                let report = await engine.run(
                    plan, inputs: ["token": "t-1", "password": "pw"], environment: ["VAULT_URL": server.baseURL])
                #expect(report.error == nil, "\(String(describing: report.error))")
                return server.requests
            }
        }
        #expect(requests.map { "\($0.method) \($0.uri)" } == ["GET /secrets", "POST /admin?key=k-1", "GET /health"])
        #expect(requests[0].values("Authorization") == ["Bearer t-1"])
        #expect(requests[1].values("Authorization") == ["Basic " + Data("admin:pw".utf8).base64EncodedString()])
        #expect(requests[1].values("X-Key-Version") == ["2"])
        #expect(requests[2].values("Authorization") == [])
    }

    @Test func unknownUnsupportedAndMissingCredentialsAreLocatedErrors() {
        let workflow = """
            flowrun: 1
            openapi:
              vault:
                path: vault.yaml
                security:
                  bearerAuht: t
                  session: s
                  basicAuth: pw
                  oauth: o
            steps:
              - id: list
                operation: vault.listSecrets
              - id: rotate
                operation: vault.rotate
            """
        let result = OpenAPIFixtures.compiler(["flows/vault.yaml": Self.document]).check(yaml: workflow, path: "flows/w.yaml")
        let errors = OpenAPIFixtures.errorLines(result)
        #expect(errors == [
            "6:7: OpenAPI document 'vault' has no security scheme 'bearerAuht'; did you mean 'bearerAuth'?",
            "7:7: security scheme 'session' of OpenAPI document 'vault' is an API key in a cookie, which flowrun does "
                + "not send; declare an interceptor that does and list it on the steps",
            "8:7: security scheme 'basicAuth' is HTTP basic authentication: give it as { username: …, password: … }",
            "12:16: operation 'listSecrets' needs the credentials of 'bearerAuth' or 'apiKey'; give them under "
                + "'security' of OpenAPI document 'vault'",
            "14:16: operation 'rotate' needs the credentials of 'apiKey' and 'basicAuth'; give them under 'security' "
                + "of OpenAPI document 'vault'",
        ])
        // `oauth` (OAuth 2, sent as a bearer token) is a scheme flowrun sends, so it is not reported, though no
        // operation here asks for it.
    }

    @Test func aSourceWithoutSecurityLeavesCredentialsToTheWorkflowsOwnInterceptors() throws {
        let workflow = """
            flowrun: 1
            openapi: { vault: vault.yaml }
            interceptors: { auth: { bearer: t-0 } }
            defaults: { interceptors: [auth] }
            steps:
              - id: list
                operation: vault.listSecrets
            """
        let result = OpenAPIFixtures.compiler(["flows/vault.yaml": Self.document]).check(yaml: workflow, path: "flows/w.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics)")
        #expect(result.plan?.workflow.steps.first?.interceptors == nil)
    }
}
