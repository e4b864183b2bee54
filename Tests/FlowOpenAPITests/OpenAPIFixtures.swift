import FlowCore
import FlowOpenAPI
import Foundation

/// OpenAPI documents and a compiler that reads them from memory, for the tests of this target.
enum OpenAPIFixtures {
    /// A compiler with OpenAPI support that reads `files` (by path) instead of the disk.
    static func compiler(_ files: [String: String]) -> WorkflowCompiler {
        var compiler = WorkflowCompiler().withOpenAPI()
        compiler.readFile = { path in
            guard let text = files[path] else {
                return .failure(FlowError(.unreadableFile, "cannot read '\(path)': no such file"))
            }
            return .success(Array(text.utf8))
        }
        return compiler
    }

    /// Checks `workflow` (as `flows/w.yaml`) with `document` at `flows/shop.yaml`.
    static func check(_ workflow: String, document: String = shop30) -> WorkflowCompiler.Result {
        compiler(["flows/shop.yaml": document]).check(yaml: workflow, path: "flows/w.yaml")
    }

    /// The errors of checking `workflow`, as `line:col: message`.
    static func errors(_ workflow: String, document: String = shop30) -> [String] {
        errorLines(check(workflow, document: document))
    }

    /// The errors of a result, as `line:col: message` (`path:line:col: message` outside `flows/w.yaml`).
    static func errorLines(_ result: WorkflowCompiler.Result) -> [String] {
        result.diagnostics.filter { $0.severity == .error }.map {
            "\($0.location.map { "\($0.path == "flows/w.yaml" ? "" : $0.path + ":")\($0.line):\($0.column)" } ?? "-"): \($0.message)"
        }
    }

    /// An OpenAPI 3.0 document in YAML: path-item and operation parameters, `$ref`s to components of every kind,
    /// a server with a variable, query lists in both explode styles, a header and a cookie parameter.
    static let shop30 = """
        openapi: 3.0.3
        info: { title: Shop, version: 1.0.0 }
        servers:
          - url: "https://{region}.shop.example/v1"
            variables: { region: { default: eu } }
        paths:
          /users/{userId}:
            parameters:
              - { name: userId, in: path, required: true, schema: { type: string } }
            get:
              operationId: getUser
              parameters:
                - { name: session, in: cookie, schema: { type: string } }
              responses:
                "200":
                  description: The user.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/User" }
                default: { $ref: "#/components/responses/Problem" }
          /users/{userId}/orders:
            get:
              operationId: listOrders
              parameters:
                - { $ref: "#/components/parameters/UserId" }
                - { name: status, in: query, explode: false, schema: { type: array, items: { type: string } } }
                - { name: tag, in: query, schema: { type: array, items: { type: string } } }
                - { name: limit, in: query, required: true, schema: { type: integer, maximum: 100 } }
                - { name: X-Request-Id, in: header, schema: { type: string } }
                - { name: X-Tags, in: header, schema: { type: array, items: { type: string } } }
                - { name: filter, in: query, style: deepObject, schema: { type: object } }
              responses:
                "200":
                  description: The orders.
                  content:
                    application/json:
                      schema: { type: array, items: { $ref: "#/components/schemas/Order" } }
            post:
              operationId: createOrder
              parameters:
                - { $ref: "#/components/parameters/UserId" }
              requestBody: { $ref: "#/components/requestBodies/NewOrder" }
              responses:
                "201":
                  description: The order.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Order" }
                4XX: { $ref: "#/components/responses/Problem" }
          /health:
            get:
              responses:
                "204": { description: Up. }
        components:
          parameters:
            UserId: { name: userId, in: path, required: true, schema: { type: string } }
          requestBodies:
            NewOrder:
              required: true
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/NewOrder" }
          responses:
            Problem:
              description: What went wrong.
              content:
                application/problem+json:
                  schema: { $ref: "#/components/schemas/Problem" }
          schemas:
            User:
              type: object
              required: [id, name]
              properties:
                id: { type: string }
                name: { type: string }
                email: { type: string, nullable: true }
                address: { $ref: "#/components/schemas/Address" }
            Address:
              type: object
              properties: { city: { type: string } }
            Order:
              type: object
              required: [id, total]
              properties:
                id: { type: string }
                total: { type: number }
                parent: { $ref: "#/components/schemas/Order" }
            NewOrder:
              type: object
              required: [sku]
              properties: { sku: { type: string }, quantity: { type: integer, minimum: 1 } }
            Problem:
              type: object
              properties: { title: { type: string } }
        """

    /// The same shop as an OpenAPI 3.1 document in JSON, reduced to `getUser`, with a 3.1 type list.
    static let shop31JSON = """
        {
          "openapi": "3.1.0",
          "info": { "title": "Shop", "version": "1.0.0" },
          "servers": [{ "url": "https://shop.example/v2" }],
          "paths": {
            "/users/{userId}": {
              "get": {
                "operationId": "getUser",
                "parameters": [{ "name": "userId", "in": "path", "required": true, "schema": { "type": "string" } }],
                "responses": {
                  "200": {
                    "description": "The user.",
                    "content": { "application/json": { "schema": { "$ref": "#/components/schemas/User" } } }
                  }
                }
              }
            }
          },
          "components": {
            "schemas": {
              "User": {
                "type": "object",
                "required": ["id"],
                "properties": { "id": { "type": "string" }, "nickname": { "type": ["string", "null"] } }
              }
            }
          }
        }
        """
}
