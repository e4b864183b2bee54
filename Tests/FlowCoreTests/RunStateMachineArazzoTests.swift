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
              - { id: other, on-demand: true, request: { method: GET, path: "https://api.test/other" } }
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

    /// A `retry` failure action with a `stepId`: the step runs, then the failed step again, reading what the
    /// step produced now; at most `retryLimit` times, after which the next action is tried.
    @Test func aRetryThatRunsAStepFirstRunsItThenTheFailedStepUpToItsLimit() throws {
        var retry = CatchRule(
            step: nil, when: ErrorMatcher(), action: .run(Located("c", at: at), then: .retry), location: at)
        retry.retryLimit = 2
        retry.retryDelay = .milliseconds(500)
        let end = CatchRule(step: nil, when: ErrorMatcher(), action: .fail, location: SourceLocation(path: "t.yaml", line: 2, column: 1))
        var run = try machine(onError: ["d": [retry, end]])
        _ = run.start()
        _ = run.stepFinished(base.succeeded("a"), runCancelled: false)
        _ = run.stepFinished(base.succeeded("b"), runCancelled: false)
        _ = run.stepFinished(base.succeeded("c", ["x": 1]), runCancelled: false)
        #expect(base.words(run.stepFinished(base.failed("d", status: 409), runCancelled: false))
            == ["caught d by run (http)", "record d recovered", "run handler c after 500ms, then retry"])
        #expect(base.words(run.handlerFinished(base.succeeded("c", ["x": 2])))
            == ["record c succeeded", "start d after a,b,c"])
        #expect(run.completedOutputs["c"] == ["x": 2])
        _ = run.stepFinished(base.failed("d", status: 409), runCancelled: false)
        #expect(base.words(run.handlerFinished(base.succeeded("c", ["x": 3]))) == ["record c succeeded", "start d after a,b,c"])
        // The limit is used up: the `end` action after it fails the run.
        #expect(base.words(run.stepFinished(base.failed("d", status: 409), runCancelled: false))
            == ["record d failed", "cancel running"])
        #expect(base.words(run.drained()) == ["finish: http: status 409"])
    }

    @Test func aRetrysLimitCountsFromTheStepsLastSuccess() throws {
        var retry = CatchRule(
            step: nil, when: ErrorMatcher(), action: .run(Located("a", at: at), then: .retry), location: at)
        retry.retryLimit = 1
        var run = try machine(onSuccess: ["c": [rule(.goto(Located("b", at: at)))]], onError: ["b": [retry]])
        _ = run.start()
        _ = run.stepFinished(base.succeeded("a"), runCancelled: false)
        _ = run.stepFinished(base.failed("b"), runCancelled: false)
        _ = run.handlerFinished(base.succeeded("a"))
        _ = run.stepFinished(base.succeeded("b"), runCancelled: false)
        #expect(base.words(run.stepFinished(chose(base.succeeded("c", ["x": 1]), 0), runCancelled: false))
            == ["record c succeeded", "start b after a"])
        // b succeeded since its retry: the rule may retry it once more.
        #expect(base.words(run.stepFinished(base.failed("b"), runCancelled: false))
            == ["caught b by run (http)", "record b recovered", "run handler a after 0s, then retry"])
    }

    /// A `goto` to a workflow, on success or failure: the step that calls it runs, then the run ends, succeeded.
    @Test func aGotoToAWorkflowRunsItsStepThenEndsTheRun() throws {
        var run = try machine(onSuccess: ["c": [rule(.run(Located("other", at: at)))]])
        _ = run.start()
        _ = run.stepFinished(base.succeeded("a"), runCancelled: false)
        _ = run.stepFinished(base.succeeded("b"), runCancelled: false)
        #expect(base.words(run.stepFinished(chose(base.succeeded("c", ["x": 1]), 0), runCancelled: false))
            == ["record c succeeded", "run handler other"])
        #expect(base.words(run.handlerFinished(base.succeeded("other"))) == ["record other succeeded", "cancel running"])
        #expect(base.words(run.drained()) == ["record d skipped", #"finish early: {"fromC":1}"#])

        let onFailure = CatchRule(
            step: nil, when: ErrorMatcher(), action: .run(Located("other", at: at), then: .end), location: at)
        var failing = try machine(onError: ["a": [onFailure]])
        _ = failing.start()
        #expect(base.words(failing.stepFinished(base.failed("a"), runCancelled: false))
            == ["caught a by run (http)", "record a recovered", "run handler other"])
        _ = failing.handlerFinished(base.succeeded("other"))
        #expect(base.words(failing.drained())
            == ["record b skipped", "record c skipped", "record d skipped", "finish early: {}"])
        // The workflow failing fails the run.
        var failed = try machine(onError: ["a": [onFailure]])
        _ = failed.start()
        _ = failed.stepFinished(base.failed("a"), runCancelled: false)
        #expect(base.words(failed.handlerFinished(base.failed("other", status: 503))) == ["record other failed", "cancel running"])
        #expect(base.words(failed.drained()).last == "finish: http: status 503")
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
