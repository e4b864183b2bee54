import FlowCore
import FlowOpenAPI
import Foundation
import Testing

/// Compiling `operation:` steps: lowering into requests, and every located error.
struct OperationStepTests {
    private func workflow(_ steps: String, extra: String = "") -> String {
        """
        flowrun: 1
        inputs: { type: object, properties: { id: { type: string }, filter: { type: object }, on: { type: boolean } } }
        openapi: { shop: shop.yaml }
        \(extra)
        steps:
        \(steps)
        """
    }

    @Test func anOperationStepBecomesTheOperationsRequestWithTheDocumentsTypes() throws {
        let result = OpenAPIFixtures.check(workflow("""
              - id: orders
                operation: shop.listOrders
                parameters: { userId: "a b", limit: 5, status: [open, shipped], X-Request-Id: "r-{$inputs.id}" }
                outputs: { first: $response.body#/0/id, parent: $response.body#/0/parent/total }
            """))
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let plan = try #require(result.plan)
        let step = try #require(plan.workflow.steps.first)
        #expect(step.request.method.value == "GET")
        #expect(step.request.path == .literal(.string("/users/a%20b/orders")))
        #expect(step.request.query.map(\.name.value) == ["limit", "status"])
        #expect(step.request.commaSeparatedQuery == ["status"])
        #expect(step.request.headers.map(\.name.value) == ["X-Request-Id"])
        #expect(step.responses.map(\.status.value.description) == ["200"])
        #expect(step.server?.value == "shop")
        // The document's first server, its variable at its default, joins the workflow's servers.
        #expect(plan.workflow.servers.map(\.name.value) == ["shop"])
        #expect(plan.workflow.servers.first?.url == .literal(.string("https://eu.shop.example/v1")))
    }

    @Test func aBindingThatReadsAPropertyTheResponseDoesNotHaveIsALocatedError() {
        let errors = OpenAPIFixtures.errors(workflow("""
              - id: user
                operation: shop.getUser
                parameters: { userId: $inputs.id }
                outputs: { nick: $response.body#/nickname, city: $response.body#/address/town }
            """))
        #expect(errors == [
            "9:36: '$response.body#/nickname' reads nothing from the response of step 'user': type 'shop.User' has "
                + "no property 'nickname'",
            "9:68: '$response.body#/address/town' reads nothing from the response of step 'user': type "
                + "'shop.Address' has no property 'town'",
        ])
    }

    @Test func anObjectInAPathParameterAndAWrongLiteralAreLocatedErrors() {
        let errors = OpenAPIFixtures.errors(workflow("""
              - id: orders
                operation: shop.listOrders
                parameters: { userId: $inputs.filter, limit: many, X-Request-Id: $inputs.filter }
              - id: user
                operation: shop.getUser
                parameters: { userId: { a: 1 } }
            """))
        #expect(errors.count == 5, "\(errors)")
        #expect(errors[0].hasPrefix("8:27: '$inputs.filter' is an object, which cannot be bound into a URL path"))
        #expect(errors[1].hasPrefix("8:43: query parameter 'limit' of operation 'listOrders' does not accept this "
                                        + "value: expected an integer"))
        #expect(errors[2].hasPrefix("8:70: '$inputs.filter' is an object, which cannot be bound into a header"))
        #expect(errors[3].hasPrefix("8:70: header parameter 'X-Request-Id' of operation 'listOrders' is a string, "
                                        + "but the value bound to it is an object"))
        #expect(errors[4].hasPrefix("11:19: path parameter 'userId' of operation 'getUser' takes a string, number "
                                        + "or boolean"))
    }

    @Test func anExpressionOfTheWrongTypeForAQueryParameterIsAnError() {
        let errors = OpenAPIFixtures.errors(workflow("""
              - id: orders
                operation: shop.listOrders
                parameters: { userId: x, limit: $inputs.on }
            """))
        #expect(errors == [
            "8:37: query parameter 'limit' of operation 'listOrders' is an integer, but the value bound to it is a "
                + "boolean",
        ])
    }

    @Test func unknownSourcesOperationsAndParametersHaveSuggestions() {
        let errors = OpenAPIFixtures.errors(workflow("""
              - id: a
                operation: shp.getUser
              - id: b
                operation: shop.getUsr
              - id: c
                operation: shop.getUser
                parameters: { userid: x }
              - id: d
                operation: "shop#/paths/~1user/get"
            """))
        #expect(errors == [
            "7:16: unknown OpenAPI source 'shp'; did you mean 'shop'?",
            "9:16: OpenAPI document 'shop' has no operation 'getUsr'; did you mean 'getUser'?",
            "12:17: operation 'getUser' needs its path parameter 'userId'; give it under 'parameters:'",
            "12:19: operation 'getUser' has no parameter 'userid'; did you mean 'userId'?",
            "14:16: OpenAPI document 'shop' has no operation at '#/paths/~1user/get'; did you mean "
                + "'/paths/~1health/get'?",
        ])
    }

    @Test func anOperationCanBeNamedByItsJSONPointer() throws {
        let result = OpenAPIFixtures.check(workflow("""
              - id: health
                operation: "shop#/paths/~1health/get"
            """))
        #expect(!result.hasErrors, "\(result.diagnostics)")
        #expect(result.plan?.workflow.steps.first?.request.path == .literal(.string("/health")))
    }

    @Test func bodiesCookiesAndStylesFlowrunCannotSendAreErrors() {
        let errors = OpenAPIFixtures.errors(workflow("""
              - id: create
                operation: shop.createOrder
                parameters: { userId: x }
              - id: create2
                operation: shop.createOrder
                parameters: { userId: x }
                body: { sku: 7 }
              - id: user
                operation: shop.getUser
                parameters: { userId: x, session: s }
                body: { a: 1 }
              - id: orders
                operation: shop.listOrders
                parameters: { userId: x, limit: 1, filter: $inputs.filter }
            """))
        #expect(errors.count == 4, "\(errors)")
        #expect(errors[0] == "7:16: operation 'createOrder' needs a request body; give it with 'body:' (JSON)")
        #expect(errors[1].hasPrefix("15:30: parameter 'session' of operation 'getUser' is a cookie"))
        #expect(errors[2].hasPrefix("16:11: operation 'getUser' takes no request body"))
        #expect(errors[3].hasPrefix("19:48: query parameter 'filter' of operation 'listOrders' has style 'deepObject': "
                                        + "write its members as a mapping in the step"))
    }

    @Test func aStepsResponseAndAServerNamedAfterTheSourceOverrideTheDocument() throws {
        let result = OpenAPIFixtures.check(workflow("""
              - id: user
                operation: shop.getUser
                parameters: { userId: x }
                response: { 200: { type: object, properties: { nickname: { type: string } } } }
                outputs: { nick: $response.body#/nickname }
            """, extra: "env: { SHOP_URL: {} }\nservers: { shop: \"{$env.SHOP_URL}\" }"))
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let plan = try #require(result.plan)
        #expect(plan.workflow.servers.count == 1)
        #expect(plan.workflow.steps.first?.server?.value == "shop")
    }

    @Test func aDocumentWithoutAnAbsoluteServerNeedsOneInTheWorkflow() {
        let document = OpenAPIFixtures.shop30.replacingOccurrences(
            of: "  - url: \"https://{region}.shop.example/v1\"", with: "  - url: /v1")
        let errors = OpenAPIFixtures.errors(workflow("""
              - id: health
                operation: "shop#/paths/~1health/get"
            """), document: document)
        #expect(errors == [
            "7:16: OpenAPI document 'shop' gives no server to send its operations to (its first server URL is '/v1', "
                + "which is not an absolute http(s) URL); declare one under 'servers:' named 'shop', or give the "
                + "step a 'server:'",
        ])
    }

    @Test func errorsOfTheDocumentAreLocatedInItAndNamedInTheWorkflow() {
        let errors = OpenAPIFixtures.errors(workflow("""
              - id: health
                operation: shop.health
            """), document: "openapi: 3.1.0\ninfo: { title: x }\n")
        #expect(errors.count == 2, "\(errors)")
        #expect(errors[0].hasPrefix("flows/shop.yaml:2:7: invalid OpenAPI document: Expected to find `version` key"))
        #expect(errors[1].hasPrefix("3:18: OpenAPI document 'shop' (flows/shop.yaml) has errors"))
    }

    @Test func aMissingDocumentIsAnErrorAtItsPath() {
        let result = OpenAPIFixtures.compiler([:]).check(yaml: workflow("""
              - id: health
                operation: shop.health
            """), path: "flows/w.yaml")
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.location?.line == 3)
        #expect(errors.first?.message.hasPrefix("cannot read OpenAPI document 'shop'") == true)
    }

    @Test func aCompilerWithoutOpenAPISupportRefusesTheSection() {
        let result = WorkflowCompiler().check(yaml: workflow("""
              - id: health
                operation: shop.health
            """), path: "w.yaml")
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.message) == [
            "this compiler reads no OpenAPI documents: FlowOpenAPI's WorkflowCompiler.withOpenAPI() gives one that "
                + "does (the flowrun command line does)",
        ])
    }

    @Test func operationKeysOnAStepWithARequestAreErrors() {
        let errors = OpenAPIFixtures.errors(workflow("""
              - id: a
                request: { method: GET, path: /x }
                server: api
                parameters: { a: 1 }
              - id: b
                operation: shop.getUser
                request: { method: GET, path: /x }
                parameters: { userId: x }
              - id: c
                operation: getUser
            """, extra: "servers: { api: https://api.example }"))
        #expect(errors.count == 3, "\(errors)")
        #expect(errors[0].hasPrefix("9:5: 'parameters' applies to a step with 'operation'"))
        #expect(errors[1].hasPrefix("12:5: step 'b' has both 'operation' and 'request'"))
        #expect(errors[2].hasPrefix("15:16: expected 'operation' to name an OpenAPI source"))
    }
}

/// Bodies of the kind the operation accepts, and operation steps in a called workflow.
struct OperationBodyAndCallTests {
    static let document = """
        openapi: 3.1.0
        info: { title: Tokens, version: "1" }
        servers: [{ url: "https://auth.example" }]
        paths:
          /token:
            post:
              operationId: token
              requestBody:
                required: true
                content:
                  application/x-www-form-urlencoded:
                    schema: { type: object, properties: { grant_type: { type: string } } }
              responses:
                "200":
                  description: The token.
                  content:
                    application/json:
                      schema: { type: object, required: [access_token], properties: { access_token: { type: string } } }
        """

    @Test func aBodyOfAKindTheOperationDoesNotTakeIsAnError() {
        let result = OpenAPIFixtures.compiler(["flows/auth.yaml": Self.document]).check(yaml: """
            flowrun: 1
            openapi: { auth: auth.yaml }
            steps:
              - id: good
                operation: auth.token
                form: { grant_type: client_credentials }
              - id: bad
                operation: auth.token
                body: { grant_type: client_credentials }
            """, path: "flows/w.yaml")
        let errors = OpenAPIFixtures.errorLines(result)
        #expect(errors == [
            "9:11: operation 'token' takes 'application/x-www-form-urlencoded'; give the body with 'form:'",
        ])
    }

    @Test func aCalledWorkflowReadsItsDocumentRelativeToItself() throws {
        let compiler = OpenAPIFixtures.compiler([
            "flows/login/auth.yaml": Self.document,
            "flows/login/login.yaml": """
                flowrun: 1
                openapi: { auth: auth.yaml }
                steps:
                  - id: token
                    operation: auth.token
                    form: { grant_type: client_credentials }
                    outputs: { token: $response.body#/access_token }
                outputs: { token: $steps.token.outputs.token }
                """,
        ])
        let result = compiler.check(yaml: """
            flowrun: 1
            steps:
              - id: login
                workflow: login/login.yaml
            outputs: { token: $steps.login.outputs.token }
            """, path: "flows/main.yaml")
        #expect(!result.hasErrors, "\(result.diagnostics)")
    }
}

/// What lint warns about in the `openapi:` section.
struct OpenAPISectionWarningTests {
    @Test func aSourceNoStepUsesIsReportedUnused() {
        let result = OpenAPIFixtures.check("""
            flowrun: 1
            openapi: { shop: shop.yaml, spare: shop.yaml }
            steps:
              - id: health
                operation: "shop#/paths/~1health/get"
            """)
        #expect(!result.hasErrors, "\(result.diagnostics)")
        #expect(result.diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.message)" } == [
            "2:29: OpenAPI document 'spare' is never used",
        ])
    }
}

/// Values of another JSON type that are sent as the text a parameter takes.
struct ParameterTextTests {
    @Test func numbersAndBooleansFitAStringParameterButNotAnIntegerOne() {
        let errors = OpenAPIFixtures.errors("""
            flowrun: 1
            openapi: { shop: shop.yaml }
            steps:
              - id: orders
                operation: shop.listOrders
                parameters: { userId: 7, limit: 10, X-Request-Id: true, tag: [1, x], status: 2 }
              - id: more
                operation: shop.listOrders
                parameters: { userId: 7, limit: "10" }
            """)
        #expect(errors == [
            "9:30: query parameter 'limit' of operation 'listOrders' does not accept this value: expected an integer, "
                + "found the string \"10\"",
        ])
    }
}
