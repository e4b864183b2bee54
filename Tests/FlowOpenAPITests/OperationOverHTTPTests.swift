import FlowCore
import FlowHTTP
import FlowOpenAPI
import FlowTestServer
import Foundation
import Logging
import Testing

/// Operation steps run against a real HTTP server on 127.0.0.1: what arrives is what the document describes.
struct OperationOverHTTPTests {
    static let workflow = """
        flowrun: 1
        env: { SHOP_URL: {} }
        inputs: { type: object, properties: { id: { type: string } } }
        openapi: { shop: shop.yaml }
        servers: { shop: "{$env.SHOP_URL}/v1" }
        steps:
          - id: orders
            operation: shop.listOrders
            parameters:
              userId: "{$inputs.id}/x"
              limit: 5
              status: [open, "on hold"]
              tag: [a, b]
              X-Request-Id: "r-{$inputs.id}"
              X-Tags: [$inputs.id, b]
              filter: { status: open, owner: $inputs.id }
            outputs: { first: $response.body#/0/id }
          - id: create
            operation: shop.createOrder
            parameters: { userId: $inputs.id }
            body: { sku: $steps.orders.outputs.first, quantity: 2 }
            outputs: { id: $response.body#/id }
        outputs: { created: $steps.create.outputs.id }
        """

    @Test func methodPathQueryHeaderAndBodyAreEncodedAsTheDocumentSays() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-openapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(OpenAPIFixtures.shop30.utf8).write(to: folder.appendingPathComponent("shop.yaml"))
        let path = folder.appendingPathComponent("orders.yaml").path
        try Data(Self.workflow.utf8).write(to: URL(fileURLWithPath: path))

        let json = [("Content-Type", "application/json")]
        let (report, requests) = try await withTestServer({ request in
            request.method == "GET"
                ? .text(#"[{"id": "o-1", "total": 3}]"#, headers: json)
                : .text(#"{"id": "o-2", "total": 6}"#, status: 201, headers: json)
        }) { server in
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { dispatcher in
                let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Logger(label: "oa"))
                let plan = try WorkflowCompiler().withOpenAPI().compile(
                    yaml: Self.workflow, path: path)
                let report = await engine.run(
                    plan, inputs: ["id": "u 7"], environment: ["SHOP_URL": server.baseURL])
                return (report, server.requests)
            }
        }
        #expect(report.error == nil, "\(String(describing: report.error))")
        #expect(report.outputs["created"] == "o-2")
        #expect(requests.count == 2)
        let list = try #require(requests.first)
        #expect(list.method == "GET")
        // deepObject: one parameter per member, its name with the member in brackets.
        #expect(list.uri == "/v1/users/u%207%2Fx/orders?limit=5&status=open,on%20hold&tag=a&tag=b"
                    + "&filter%5Bowner%5D=u%207&filter%5Bstatus%5D=open")
        #expect(list.values("X-Request-Id") == ["r-u 7"])
        #expect(list.values("X-Tags") == ["u 7,b"])   // a list header, style simple
        let create = try #require(requests.last)
        #expect(create.method == "POST")
        #expect(create.uri == "/v1/users/u%207/orders")
        #expect(create.values("Content-Type") == ["application/json"])
        let body = try JSONValue(parsing: create.body)
        #expect(body == ["sku": "o-1", "quantity": 2])
    }
}
