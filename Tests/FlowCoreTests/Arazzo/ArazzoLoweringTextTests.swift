import Testing
@testable import FlowCore

/// How the Arazzo lowering reads a runtime expression as flowrun reads it.
struct ArazzoLoweringTextTests {
    @Test(arguments: [
        ("$steps.find.petId", "$steps.find.outputs.petId"),
        ("$steps.find.outputs.petId#/0", "$steps.find.outputs.petId#/0"),
        ("$workflows.sign-in.outputs.token", "$steps.dependsOn-sign-in.outputs.token"),
        ("$workflows.sign-in.inputs.username#/first", "$inputs.username#/first"),
        ("$statusCode", "$statusCode"),
    ])
    func anExpressionIsReadAsFlowrunReadsIt(_ arazzo: String, _ flowrun: String) {
        #expect(ArazzoLowering.flowrunText(arazzo) == flowrun)
    }

    @Test func anOutputOfAStepThatRunsAWorkflowReadsTheWorkflowsOutput() {
        let aliases = ["auth": ["myToken": "access_token"]]
        #expect(ArazzoLowering.flowrunText("$steps.auth.outputs.myToken", aliases: aliases)
            == "$steps.auth.outputs.access_token")
        #expect(ArazzoLowering.flowrunText("$steps.auth.outputs.other", aliases: aliases) == "$steps.auth.outputs.other")
    }
}
