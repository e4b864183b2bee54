import FlowCore
import Foundation
import Testing

@testable import FlowOpenAPI

/// Reading OpenAPI 3.0 and 3.1 documents, in YAML and JSON, and every way a document can be wrong.
struct OpenAPIDocumentLoaderTests {
    private func load(_ text: String, path: String = "api.yaml") -> OperationSourceDocument {
        OpenAPIDocumentLoader(limits: .default).load(Array(text.utf8), path: path, typePrefix: "shop.")
    }

    /// The errors of loading `text`, as `line:col: message`.
    private func errors(_ text: String) -> [String] {
        load(text).diagnostics.filter { $0.severity == .error }.map {
            "\($0.location.map { "\($0.line):\($0.column)" } ?? "-"): \($0.message)"
        }
    }

    @Test func anOpenAPI30DocumentInYAMLGivesItsOperationsServersAndTypes() throws {
        let document = load(OpenAPIFixtures.shop30)
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
        #expect(document.servers == ["https://eu.shop.example/v1"])
        #expect(document.operations.map(\.id) == ["getUser", "listOrders", "createOrder", nil])
        #expect(document.operations.map(\.method) == ["GET", "GET", "POST", "GET"])
        #expect(document.operations[3].pointer == "/paths/~1health/get")
        #expect(document.types.map(\.name.value) == ["shop.User", "shop.Address", "shop.Order", "shop.NewOrder",
                                                      "shop.Problem"])

        let getUser = document.operations[0]
        #expect(getUser.path == "/users/{userId}")
        #expect(getUser.location.line == 11)   // the operation's first key
        // The path item's parameter and the operation's own.
        #expect(getUser.parameters.map(\.name) == ["userId", "session"])
        #expect(getUser.parameters.map(\.placement) == [.path, .cookie])
        #expect(getUser.responses.map(\.status.value.description) == ["200", "default"])
        // `$ref`s to component schemas stay references by name; a referenced response is read from components.
        #expect(getUser.responses[0].schema.ref?.value == "shop.User")
        #expect(getUser.responses[1].schema.ref?.value == "shop.Problem")

        let listOrders = document.operations[1]
        let byName = Dictionary(uniqueKeysWithValues: listOrders.parameters.map { ($0.name, $0) })
        #expect(byName["userId"]?.placement == .path)   // from `#/components/parameters/UserId`
        #expect(byName["status"]?.explode == false)
        #expect(byName["tag"]?.explode == true)
        #expect(byName["tag"]?.style == "form")
        #expect(byName["limit"]?.required == true)
        #expect(byName["X-Request-Id"]?.placement == .header)
        #expect(byName["filter"]?.style == "deepObject")
        #expect(listOrders.responses[0].schema.types == [.array])
        #expect(listOrders.responses[0].schema.items?.ref?.value == "shop.Order")

        let createOrder = document.operations[2]
        #expect(createOrder.body?.required == true)
        #expect(createOrder.body?.schema?.ref?.value == "shop.NewOrder")
        #expect(createOrder.responses.map(\.status.value.description) == ["201", "4XX"])

        let user = try #require(document.types.first { $0.name.value == "shop.User" })
        #expect(user.schema.property("email")?.types == [.string, .null])
        #expect(user.schema.required.map(\.value) == ["id", "name"])
        #expect(user.name.location.line == 71)
    }

    @Test func anOpenAPI31DocumentInJSONIsReadTheSameWay() throws {
        let document = load(OpenAPIFixtures.shop31JSON, path: "api.json")
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
        #expect(document.servers == ["https://shop.example/v2"])
        #expect(document.operations.map(\.id) == ["getUser"])
        #expect(document.operations[0].location == SourceLocation(path: "api.json", line: 7, column: 14))
        let user = try #require(document.types.first)
        let nickname = try #require(user.schema.property("nickname"))
        #expect(Set(nickname.types ?? []).union(nickname.anyOf.flatMap { $0.types ?? [] }) == [.string, .null])
    }

    @Test func anOpenAPI31DocumentInYAMLAndA30DocumentInJSONAreRead() throws {
        let yaml31 = OpenAPIFixtures.shop30.replacingOccurrences(of: "openapi: 3.0.3", with: "openapi: 3.1.0")
            .replacingOccurrences(of: "email: { type: string, nullable: true }", with: "email: { type: [string, 'null'] }")
        #expect(load(yaml31).diagnostics.isEmpty, "\(load(yaml31).diagnostics)")
        #expect(load(yaml31).operations.count == 4)
        let json30 = OpenAPIFixtures.shop31JSON.replacingOccurrences(of: "3.1.0", with: "3.0.3")
            .replacingOccurrences(of: #"["string", "null"]"#, with: #""string", "nullable": true"#)
        #expect(load(json30, path: "api.json").diagnostics.isEmpty, "\(load(json30).diagnostics)")
        #expect(load(json30, path: "api.json").operations.map(\.id) == ["getUser"])
    }

    @Test(arguments: [
        ("openapi: [3.1.0\n", "2:1: did not find expected"),
        ("- a\n- b\n", "1:1: expected an OpenAPI document"),
        ("swagger: '2.0'\ninfo: {}\n", "1:10: Swagger 2.0 documents are not supported"),
        ("info: { title: x }\n", "1:1: not an OpenAPI document"),
        ("openapi: 4.0.0\ninfo: {}\n", "1:10: unsupported OpenAPI version '4.0.0'"),
        ("openapi: 3.1.0\n", "1:1: invalid OpenAPI document"),
        ("openapi: 3.1.0\ninfo: { title: x, version: '1' }\npaths:\n  /a:\n    get:\n      responses: 5\n",
         "6:18: invalid OpenAPI document"),
        ("openapi: 3.0.3\ninfo: { title: x, version: '1' }\npaths:\n  /a:\n    get:\n      parameters:\n"
            + "        - { name: a, in: nowhere }\n      responses: {}\n", "7:11: invalid OpenAPI document"),
    ])
    func aMalformedOrUnsupportedDocumentIsOneLocatedError(text: String, expected: String) {
        let found = errors(text)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(expected) == true, "\(found)")
    }

    @Test func referencesThatDoNotResolveAreErrorsAtTheirRef() {
        let found = errors("""
            openapi: 3.0.3
            info: { title: x, version: '1' }
            paths:
              /a/{id}:
                get:
                  operationId: getA
                  parameters:
                    - $ref: '#/components/parameters/Idd'
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: { $ref: '#/components/schemas/Aa' }
                    "404": { $ref: 'other.yaml#/components/responses/NotFound' }
            components:
              parameters:
                Id: { name: id, in: path, required: true, schema: { type: string } }
              schemas:
                A: { type: object }
            """)
        #expect(found == [
            "8:17: the parameter reference '#/components/parameters/Idd' does not resolve; did you mean 'Id'?",
            "14:31: the schema reference '#/components/schemas/Aa' does not resolve; did you mean 'A'?",
            "15:24: the response refers to 'other.yaml#/components/responses/NotFound' in another file; flowrun "
                + "resolves references within the document only",
        ])
    }

    @Test func aCycleOfReferencesIsAnErrorNotAHang() {
        let found = errors("""
            openapi: 3.1.0
            info: { title: x, version: '1' }
            paths:
              /b:
                get:
                  parameters: [{ $ref: '#/components/parameters/P' }]
                  responses: { "200": { $ref: '#/components/responses/R' } }
            components:
              parameters:
                P: { $ref: '#/components/parameters/Q' }
                Q: { $ref: '#/components/parameters/P' }
              responses:
                R: { $ref: '#/components/responses/R' }
            """)
        #expect(found == [
            "6:28: the parameter reference '#/components/parameters/P' cannot be followed: it leads to a cycle of "
                + "references or to one that does not resolve",
            "7:35: the response reference '#/components/responses/R' cannot be followed: it leads to a cycle of "
                + "references or to one that does not resolve",
        ])
    }

    @Test func aDuplicateOperationIdIsAnError() {
        let found = errors("""
            openapi: 3.1.0
            info: { title: x, version: '1' }
            paths:
              /a: { get: { operationId: same, responses: { "200": { description: ok } } } }
              /b: { get: { operationId: same, responses: { "200": { description: ok } } } }
            """)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("5:14: duplicate operationId 'same' (first at line 4)") == true, "\(found)")
    }

    @Test func recursiveSchemasAreReadByNameWithoutLooping() throws {
        let document = load(OpenAPIFixtures.shop30)
        let order = try #require(document.types.first { $0.name.value == "shop.Order" })
        #expect(order.schema.property("parent")?.ref?.value == "shop.Order")
    }

    @Test(arguments: [
        "", "null", "42", "openapi: 3.1.0\ninfo: 7\n", "openapi: 3.0.0\npaths: [1, 2]\n",
        "openapi: 3.1.0\ninfo: { title: x, version: '1' }\npaths: { /a: { $ref: '#/components/pathItems/Nope' } }\n",
        "openapi: 3.1.0\ninfo: { title: x, version: '1' }\ncomponents: { schemas: { A: { $ref: '#/components/schemas/A' } } }\n",
        "openapi: 3.1.0\ninfo: { title: x, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: x\n          content: { application/json: { schema: { type: number, minimum: .nan } } }\n",
        "openapi: 3.0.3\ninfo: { title: x, version: '1' }\na: &a [*a]\n",
    ])
    func noDocumentMakesTheLoaderCrash(text: String) {
        // Each either loads or reports; none traps or hangs.
        let document = load(text)
        #expect(document.operations.count <= 1)
    }

    @Test func headerParametersThatOpenAPISaysToIgnoreAreLeftOut() throws {
        let document = load("""
            openapi: 3.1.0
            info: { title: Auth, version: '1' }
            paths:
              /token:
                post:
                  operationId: token
                  parameters:
                    - { name: Content-Type, in: header, required: true, schema: { type: string } }
                    - { name: authorization, in: header, schema: { type: string } }
                    - { name: Accept, in: header, schema: { type: string } }
                    - { name: X-Client, in: header, required: true, schema: { type: string } }
                  responses: { '200': { description: The token. } }
            """)
        #expect(document.diagnostics.isEmpty)
        // A step need not give a required Content-Type: the body's kind sets it.
        #expect(try #require(document.operations.first).parameters.map(\.name) == ["X-Client"])
    }

    /// The Arazzo conformance examples' folder: `$FLOWRUN_CONFORMANCE_DIR/arazzo/examples`, or
    /// `../shared/conformance/arazzo/examples` beside the repository (as in CI).
    static let conformanceFolder: String = {
        let configured = ProcessInfo.processInfo.environment["FLOWRUN_CONFORMANCE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let base = configured.map { URL(fileURLWithPath: $0) }
            ?? repository.appendingPathComponent("../shared/conformance").standardizedFileURL
        return base.appendingPathComponent("arazzo/examples").path
    }()

    static var conformanceDocuments: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: conformanceFolder)) ?? []
        return names.filter { $0.hasSuffix(".openapi.yaml") || $0 == "bnpl-openapi.yaml" }.sorted()
    }

    @Test func theConformanceExamplesOpenAPIDocumentsLoadWithoutErrors() throws {
        let names = Self.conformanceDocuments
        guard !names.isEmpty else {
            print("notice: \(Self.conformanceFolder) is absent; the conformance documents are not checked")
            return
        }
        for name in names {
            let path = Self.conformanceFolder + "/" + name
            let bytes = try #require(FileManager.default.contents(atPath: path))
            let document = OpenAPIDocumentLoader(limits: .default).load(Array(bytes), path: path, typePrefix: "x.")
            #expect(document.diagnostics.isEmpty, "\(name): \(document.diagnostics)")
            #expect(!document.operations.isEmpty, "\(name) has no operations")
        }
    }
}
