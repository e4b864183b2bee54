import Foundation
import Testing
@testable import FlowCore

/// The run state machine's transitions for a workflow lowered from an Arazzo document: success actions (`goto` back
/// and forward, `end`), the `end` failure action, and the `goto` bound; driven by hand-made step results.
struct RunStateMachineArazzoTests {
    private let base = RunStateMachineTests()

    /// Arazzo's shape: four steps in order (each after the one before), as ``ArazzoLowering`` makes them, with the
    /// success rules `rules` gives by step id and the Arazzo flag set.
    func machine(
        onSuccess rules: [String: [SuccessRule]] = [:], onError: [String: [CatchRule]] = [:]
    ) throws -> RunStateMachine {
        var decoder = WorkflowDecoder()
        var workflow = decoder.decode(try YAMLLoader().load("""
            flowrun: 1
            steps:
              - { id: a, request: { method: GET, path: "https://api.test/a" } }
              - { id: b, after: [a], request: { method: GET, path: "https://api.test/b" } }
              - { id: c, after: [b], request: { method: GET, path: "https://api.test/c" } }
              - { id: d, after: [c], request: { method: GET, path: "https://api.test/d" } }
            outputs: { fromC: $steps.c.outputs.x, fromD: $steps.d.outputs.y }
            """, path: "t.yaml"), path: "t.yaml")
        #expect(decoder.diagnostics.filter { $0.severity == .error }.isEmpty)
        workflow.arazzoWorkflowID = "w"
        for index in workflow.steps.indices {
            workflow.steps[index].onSuccess = rules[workflow.steps[index].id.value] ?? []
            workflow.steps[index].onError = onError[workflow.steps[index].id.value] ?? []
        }
        // Outputs reads of steps that declare none: allowed here, as the Arazzo lowering's are (absent when unread).
        workflow.steps[2].outputs = [Binding(name: Located("x", at: at), value: .literal(1))]
        workflow.steps[3].outputs = [Binding(name: Located("y", at: at), value: .literal(2))]
        let result = WorkflowCompiler().check(workflow)
        let plan = try #require(result.plan, "\(result.diagnostics)")
        let scope = RunScope(inputs: [:], environment: [:], variables: RunVariables([:]), response: nil)
        return RunStateMachine(plan: plan, scope: scope, limit: 8, seed: nil)
    }

    private let at = SourceLocation(path: "t.yaml", line: 1, column: 1)

    func rule(_ action: SuccessRule.Action, maxVisits: Int = 100) -> SuccessRule {
        SuccessRule(name: "next", criteria: [], action: action, location: at, maxVisits: maxVisits)
    }

    func chose(_ result: StepResult, _ rule: Int) -> StepResult {
        var result = result
        result.successRule = rule
        return result
    }

    @Test func aSuccessGotoForwardPassesOverTheStepsBetween() throws {
        var run = try machine(onSuccess: ["a": [rule(.goto(Located("d", at: at)))]])
        #expect(base.words(run.start()) == ["start a"])
        #expect(base.words(run.stepFinished(chose(base.succeeded("a"), 0), runCancelled: false))
            == ["record a succeeded", "record b skipped", "record c skipped", "start d after a"])
        #expect(base.words(run.stepFinished(base.succeeded("d", ["y": 2]), runCancelled: false))
            == ["record d succeeded", "finish"])
    }

    @Test func aSuccessGotoBackRunsTheTargetAndWhatFollowsAgainWithinItsBound() throws {
        var run = try machine(onSuccess: ["b": [rule(.goto(Located("a", at: at)), maxVisits: 2)]])
        _ = run.start()
        _ = run.stepFinished(base.succeeded("a"), runCancelled: false)
        #expect(base.words(run.stepFinished(chose(base.succeeded("b"), 0), runCancelled: false))
            == ["record b succeeded", "start a"])
        _ = run.stepFinished(base.succeeded("a"), runCancelled: false)
        #expect(base.words(run.stepFinished(chose(base.succeeded("b"), 0), runCancelled: false))
            == ["record b succeeded", "cancel running"])
        #expect(base.words(run.drained()) == [
            "record c skipped", "record d skipped",
            "finish: loop-limit: success action 'next' of step 'b' would run step 'a' a 3rd time; 'goto' runs a step "
                + "at most 2 times in a run",
        ])
    }

    @Test func aSuccessEndFinishesWithTheOutputsThatCanBeProduced() throws {
        var run = try machine(onSuccess: ["c": [rule(.end)]])
        _ = run.start()
        _ = run.stepFinished(base.succeeded("a"), runCancelled: false)
        _ = run.stepFinished(base.succeeded("b"), runCancelled: false)
        #expect(base.words(run.stepFinished(chose(base.succeeded("c", ["x": 1]), 0), runCancelled: false))
            == ["record c succeeded", "cancel running"])
        // `fromD` reads a step that never ran: an Arazzo workflow leaves it out rather than failing.
        #expect(base.words(run.drained()) == ["record d skipped", #"finish early: {"fromC":1}"#])
    }

    @Test func anEndFailureActionFailsTheRunWithoutTryingLaterRules() throws {
        let end = CatchRule(step: nil, when: ErrorMatcher(), action: .fail, location: at)
        let fallback = CatchRule(step: nil, when: ErrorMatcher(), action: .fallback([]), location: at)
        var run = try machine(onError: ["a": [end, fallback]])
        _ = run.start()
        #expect(base.words(run.stepFinished(base.failed("a"), runCancelled: false))
            == ["record a failed", "cancel running"])
        #expect(base.words(run.drained())
            == ["record b skipped", "record c skipped", "record d skipped", "finish: http: status 500"])
    }
}
