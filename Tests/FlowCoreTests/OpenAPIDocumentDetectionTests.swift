import Testing
@testable import FlowCore

/// The byte pre-check that `flowrun lint` runs on every file before reading one a second time as an OpenAPI
/// document: a YAML document's `openapi:` starts a line, a JSON document's `"openapi"` may be anywhere.
struct OpenAPIDocumentDetectionTests {
    @Test(arguments: [
        "openapi: 3.1.0\ninfo: { title: Shop, version: '1' }\n",
        "# The shop\nopenapi: 3.0.3\n",
        "{\n  \"openapi\": \"3.1.0\",\n  \"info\": { \"title\": \"Shop\", \"version\": \"1\" }\n}\n",
        "{\"info\":{\"title\":\"Shop\",\"version\":\"1\"},\"openapi\":\"3.1.0\",\"paths\":{}}",
        "\u{FEFF}\r\n\t {\"openapi\": \"3.0.3\"}",
        "swagger: \"2.0\"\ninfo: { title: Pets, version: '1' }\n",
        "{\"swagger\": \"2.0\", \"paths\": {}}",
    ])
    func aDocumentInYAMLOrJSONMayBeOne(text: String) {
        #expect(OpenAPIDocumentDetection.mayBeOpenAPIDocument(Array(text.utf8)))
    }

    @Test(arguments: [
        "flowrun: 1\nsteps: []\n",
        "flowrun: 1\nopenapi:\n  shop: shop.openapi.yaml\n",
        "{\"flowrun\": 1, \"steps\": []}",
        "steps:\n  - { id: a, request: { method: GET, url: \"https://api.example/openapi\" } }\n",
        "",
    ])
    func aWorkflowIsNotReadAgain(text: String) {
        #expect(!OpenAPIDocumentDetection.mayBeOpenAPIDocument(Array(text.utf8)))
    }
}
