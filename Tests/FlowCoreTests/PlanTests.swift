import Testing

@testable import FlowCore

struct PlanTests {
    private func plan(_ steps: String) throws -> Plan {
        try WorkflowCompiler().compile(yaml: "flowrun: 1\nsteps:\n" + steps, path: "t.yaml")
    }

    @Test func stepsAreFoundByIdIncludingOnDemandOnes() throws {
        let plan = try plan("""
              - id: b
                request: { method: GET, path: "http://h/b/{$steps.a.outputs.id}" }
              - id: a
                request: { method: GET, path: "http://h/a" }
                outputs: { id: $response.body#/id }
              - id: later
                on-demand: true
                request: { method: POST, path: "http://h/later" }
            """)
        #expect(plan.steps.map(\.id) == ["a", "b", "later"])
        #expect(plan.step("b")?.dependencies == ["a"])
        #expect(plan.step("later")?.step.onDemand == true)
        #expect(plan.step("missing") == nil)
    }

    @Test func changingACopysDependenciesLeavesTheOriginal() throws {
        let plan = try plan("""
              - id: a
                request: { method: GET, path: "http://h/a" }
            """)
        var copy = try #require(plan.step("a"))
        copy.dependencies = ["x"]
        #expect(copy.dependencies == ["x"])
        #expect(copy.id == "a")
        #expect(plan.step("a")?.dependencies == [])
    }
}
