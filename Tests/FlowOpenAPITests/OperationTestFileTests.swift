import FlowCore
import FlowOpenAPI
import FlowTesting
import Foundation
import Logging
import Testing

/// The example's test file, loaded and run from Swift as docs/openapi.md shows.
struct OperationTestFileTests {
    @Test func theExampleTestFileLoadsAndPassesWithTheOpenAPICompiler() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("workflows/user-orders.test.yaml").path
        let loaded = WorkflowTestSuite.load(path: path, compiler: WorkflowCompiler().withOpenAPI())
        let suite = try #require(loaded.suite, "\(loaded.diagnostics)")
        let results = await WorkflowTestRunner(logger: Logger(label: "openapi-tests")).run(suite)
        #expect(results.count == 2)
        let failures = results.flatMap(\.failures)
        #expect(failures.isEmpty, "\(failures)")

        // Without OpenAPI support the workflow is refused, with the reason.
        let plain = WorkflowTestSuite.load(path: path)
        #expect(plain.suite == nil)
        #expect(plain.diagnostics.contains { $0.message.contains("WorkflowCompiler.withOpenAPI()") })
    }
}
