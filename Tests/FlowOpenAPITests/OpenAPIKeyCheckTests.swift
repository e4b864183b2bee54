import FlowCore
import Foundation
import Testing

@testable import FlowOpenAPI

/// The keys of an OpenAPI document that its objects do not define, each found at the key with a did-you-mean.
struct OpenAPIKeyCheckTests {
    private func findings(_ text: String) throws -> [String] {
        var check = OpenAPIKeyCheck()
        check.check(try YAMLLoader().load(text, path: "api.yaml"))
        return check.diagnostics.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
    }

    static let document = """
        openapi: 3.1.0
        info: { title: Shop, version: 1.0.0, x-team: orders }
        paths:
          /orders/{id}:
            parameters: [{ name: id, in: path, required: true, schema: { type: string, x-anything: 1 } }]
            get:
              operationId: getOrder
              responses:
                "200":
                  description: The order.
                  content: { application/json: { schema: { $ref: "#/components/schemas/Order" } } }
                default: { $ref: "#/components/responses/Problem" }
          /mirror: { $ref: "#/components/pathItems/Mirror" }
        components:
          schemas:
            Order: { type: object, properties: { id: { type: string } }, anyKeywordAtAll: true }
          responses:
            Problem: { description: What went wrong. }
          pathItems:
            Mirror: { query: { responses: { "204": { description: Fine. } } } }
        """

    @Test func aDocumentOfKnownKeysHasNoFindings() throws {
        // Extensions anywhere; schemas are JSON Schema's to define; OpenAPI 3.2's `query` and `pathItems` pass too.
        #expect(try findings(Self.document) == [])
    }

    @Test func aMisspeltKeyIsFoundAtItsKeyWithASuggestion() throws {
        let cases: [(String, String, String)] = [
            ("      operationId: getOrder", "      operationID: getOrder", "7:7 unknown key 'operationID' in an operation; did you mean 'operationId'?"),
            ("description: The order.", "descripton: The order.", "10:11 unknown key 'descripton' in a response; did you mean 'description'?"),
            ("required: true, schema", "requred: true, schema", "5:40 unknown key 'requred' in a parameter; did you mean 'required'?"),
            ("info: { title: Shop,", "info: { titel: Shop,", "2:9 unknown key 'titel' in 'info'; did you mean 'title'?"),
            ("paths:", "pahts:", "3:1 unknown key 'pahts' in the OpenAPI document; did you mean 'paths'?"),
            ("Problem: { description", "Problem: { summry: x, description", "18:16 unknown key 'summry' in a response; did you mean 'summary'?"),
        ]
        for (original, replacement, expected) in cases {
            let text = Self.document.replacingOccurrences(of: original, with: replacement)
            #expect(text != Self.document, "\(original)")
            #expect(try findings(text) == [expected], "\(replacement)")
        }
    }

    @Test func theLoaderReportsThemBeforeDecoding() {
        let text = Self.document.replacingOccurrences(of: "      operationId: getOrder", with: "      operationID: getOrder")
        let document = OpenAPIDocumentLoader(limits: .default).load(Array(text.utf8), path: "api.yaml", typePrefix: "shop.")
        #expect(document.operations.isEmpty)
        #expect(document.diagnostics.map(\.message) == ["unknown key 'operationID' in an operation; did you mean 'operationId'?"])
    }
}
