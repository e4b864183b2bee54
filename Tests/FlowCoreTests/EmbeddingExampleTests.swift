import FlowCore
import Foundation
import Logging
import Testing

/// The README's embedding example, kept compiling and working.
private struct InMemoryBank: Dispatcher {
    func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
        let body = switch context.stepID {
        case "user": #"{"userId": "u-1", "username": "ada"}"#
        case "account": #"{"accountId": "a-1", "balance": 10.5}"#
        default: "[]"
        }
        return StepResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }
}

struct EmbeddingExampleTests {
    @Test func theREADMEExampleRunsTheBankingWorkflowOnACustomDispatcher() async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("workflows/banking.yaml").path
        let plan = try WorkflowCompiler().compile(
            yaml: try String(contentsOfFile: path, encoding: .utf8), path: "workflows/banking.yaml")
        var engine = Engine(dispatchers: DispatcherRegistry(["bank": InMemoryBank()]), logger: Logger(label: "bank"))
        engine.dispatcherOverride = "bank"
        let report = await engine.run(plan, inputs: ["token": "t-1"], environment: ["BANK_URL": "https://bank.test"])
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs == ["username": "ada", "balance": 10.5, "transactions": []])
        // What the README prints: JSON, not `JSONValue.double(10.5)`.
        #expect(JSONValue.object(report.outputs).serialized(pretty: true) == """
            {
              "balance": 10.5,
              "transactions": [],
              "username": "ada"
            }
            """)
    }
}
