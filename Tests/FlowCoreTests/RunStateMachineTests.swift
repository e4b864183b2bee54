import Foundation
import Testing
@testable import FlowCore

/// The run's decisions without I/O: every transition of ``RunStateMachine``, driven by hand-made step results.
struct RunStateMachineTests {
    /// A workflow whose steps `a`, `b`, `c` (and whatever `more` adds) call `https://api.test/<id>`.
    static func workflow(_ steps: String, more: String = "") -> String {
        """
        flowrun: 1
        steps:
        \(steps)
        \(more)
        """
    }

    static let chain = """
          - { id: a, request: { method: GET, path: "https://api.test/a" }, outputs: { x: $response.body#/x } }
          - { id: b, request: { method: GET, path: "https://api.test/b/{$steps.a.outputs.x}" }, outputs: { y: $response.body#/y } }
          - { id: c, request: { method: GET, path: "https://api.test/c/{$steps.b.outputs.y}" } }
        """

    func machine(_ yaml: String, limit: Int = 8) throws -> RunStateMachine {
        let scope = RunScope(inputs: [:], environment: [:], variables: RunVariables([:]), response: nil)
        return RunStateMachine(plan: try plan(yaml), scope: scope, limit: limit, seed: nil)
    }

    func succeeded(_ id: String, _ outputs: [String: JSONValue] = [:]) -> StepResult {
        StepResult(
            outputs: StepOutputs(outputs),
            report: StepReport(
                id: id, status: .succeeded, attempts: [], startedAfter: .zero, duration: .zero,
                outputs: StepOutputs(outputs)))
    }

    func failed(_ id: String, _ code: FlowError.Code = .httpStatus, status: Int? = 500) -> StepResult {
        var error = FlowError(code, "status \(status ?? 0)")
        error.status = status
        var report = StepReport(id: id, status: .failed, attempts: [], startedAfter: .zero, duration: .zero, outputs: [:])
        report.error = error
        return StepResult(
            outputs: [:], report: report, error: error,
            failedResponse: status.map { DecodedResponse(status: $0, headers: [:], body: .object(["reason": "down"])) })
    }

    /// The actions as short words, for readable expectations.
    func words(_ actions: [RunStateMachine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .startStep(let planned, let outputs):
                outputs.named.isEmpty
                    ? "start \(planned.id)"
                    : "start \(planned.id) after \(outputs.named.keys.sorted().joined(separator: ","))"
            case .startSwitchCase(let planned, let choice, _): "start \(planned.id) as \(choice.step) (\(choice.key))"
            case .record(let report): "record \(report.id) \(report.status.rawValue)"
            case .caught(let id, let action, let code): "caught \(id) by \(action) (\(code.name))"
            case .runHandler(let id, _, _, let retryDelay):
                "run handler \(id)" + (retryDelay.map { " after \($0.workflowText), then retry" } ?? "")
            case .cancelRunningSteps: "cancel running"
            case .runCompensation(let id, _): "compensate \(id)"
            case .finish(let outcome):
                if let error = outcome.error {
                    "finish: \(error.code.name): \(error.message)"
                } else if outcome.endedEarly {
                    "finish early: \(JSONValue.object(outcome.outputs).serialized())"
                } else {
                    "finish"
                }
            }
        }
    }

    // MARK: Scheduling

    @Test func aChainStartsEachStepWhenItsDependencyCompletes() throws {
        var run = try machine(Self.workflow(Self.chain))
        #expect(words(run.start()) == ["start a"])
        #expect(words(run.stepFinished(succeeded("a", ["x": 1]), runCancelled: false)) == ["record a succeeded", "start b after a"])
        #expect(words(run.stepFinished(succeeded("b", ["y": 2]), runCancelled: false)) == ["record b succeeded", "start c after a,b"])
        #expect(words(run.stepFinished(succeeded("c"), runCancelled: false)) == ["record c succeeded", "finish"])
        #expect(run.completedOutputs["b"] == ["y": 2])
        #expect(run.isEnding)
    }

    @Test func independentStepsStartUpToTheLimitInPlanOrder() throws {
        let steps = """
              - { id: a, request: { method: GET, path: "https://api.test/a" } }
              - { id: b, request: { method: GET, path: "https://api.test/b" } }
              - { id: c, request: { method: GET, path: "https://api.test/c" } }
            """
        var run = try machine(Self.workflow(steps), limit: 2)
        #expect(words(run.start()) == ["start a", "start b"])
        #expect(words(run.stepFinished(succeeded("b"), runCancelled: false)) == ["record b succeeded", "start c after b"])
        #expect(words(run.stepFinished(succeeded("a"), runCancelled: false)) == ["record a succeeded"])
        #expect(words(run.stepFinished(succeeded("c"), runCancelled: false)) == ["record c succeeded", "finish"])
    }

    /// A switch step `s` on `a`'s output `x`, with case steps `de` and `us` (and what `more` adds to `s`).
    static func switching(_ more: String = "") -> String {
        workflow("""
              - { id: a, request: { method: GET, path: "https://api.test/a" }, outputs: { x: $response.body#/x } }
              - { id: s, switch: $steps.a.outputs.x, cases: { DE: de, US: us }\(more) }
              - { id: de, on-demand: true, request: { method: GET, path: "https://api.test/de" }, outputs: { r: $response.body#/r } }
              - { id: us, on-demand: true, request: { method: GET, path: "https://api.test/us" }, outputs: { r: $response.body#/r } }
              - { id: c, request: { method: GET, path: "https://api.test/c" }, after: s }
            """)
    }

    @Test func aSwitchStepStartsAsTheCaseStepItsValueChooses() throws {
        var run = try machine(Self.switching())
        #expect(words(run.start()) == ["start a"])
        #expect(words(run.stepFinished(succeeded("a", ["x": "US"]), runCancelled: false))
            == ["record a succeeded", "start s as us (US)"])
        #expect(words(run.stepFinished(succeeded("s", ["r": 1]), runCancelled: false))
            == ["record s succeeded", "start c after a,s"])
        #expect(run.completedOutputs["s"] == ["r": 1])
    }

    @Test func aSwitchValueThatMatchesNoCaseSkipsTheStepWithItsElseValues() throws {
        var run = try machine(Self.switching(", else: { r: 0 }"))
        _ = run.start()
        let actions = run.stepFinished(succeeded("a", ["x": "FR"]), runCancelled: false)
        #expect(words(actions) == ["record a succeeded", "record s skipped", "start c after a,s"])
        let skipped = actions.compactMap { if case .record(let report) = $0, report.id == "s" { report } else { nil } }
        #expect(skipped.first?.skipReason == #"its 'switch' value "FR" matched none of its cases (DE, US)"#)
        #expect(run.completedOutputs["s"] == ["r": 0])
    }

    @Test func aSwitchValueThatMatchesNoCaseRunsTheDefault() throws {
        var run = try machine(Self.switching(", default: de"))
        _ = run.start()
        #expect(words(run.stepFinished(succeeded("a", ["x": "FR"]), runCancelled: false))
            == ["record a succeeded", "start s as de (default)"])
    }

    @Test func aWorkflowWithOnlyOnDemandStepsFinishesAtOnce() throws {
        var run = try machine(Self.workflow("""
              - { id: h, on-demand: true, request: { method: GET, path: "https://api.test/h" } }
            """))
        #expect(words(run.start()) == ["finish"])
    }

    // MARK: Failures

    @Test func anUnhandledFailureCancelsTheRunningStepsAndSkipsTheWaitingOnes() throws {
        let steps = """
              - { id: a, request: { method: GET, path: "https://api.test/a" } }
              - { id: b, request: { method: GET, path: "https://api.test/b" } }
              - { id: c, request: { method: GET, path: "https://api.test/c" }, after: [a, b] }
            """
        var run = try machine(Self.workflow(steps))
        #expect(words(run.start()) == ["start a", "start b"])
        #expect(words(run.stepFinished(failed("a"), runCancelled: false)) == ["record a failed", "cancel running"])
        #expect(run.isEnding)
        #expect(run.deadlinePassed(.seconds(1)).isEmpty)
        // b finished before its cancellation took effect: it is recorded, and compensation would see it.
        #expect(words(run.stepFinished(succeeded("b"), runCancelled: false)) == ["record b succeeded"])
        #expect(words(run.drained()) == ["record c skipped", "finish: http: status 500"])
    }

    @Test func aFailureAfterTheRunWasCancelledIsACancellation() throws {
        var run = try machine(Self.workflow(Self.chain))
        _ = run.start()
        #expect(words(run.stepFinished(failed("a", .cancelled, status: nil), runCancelled: true))
            == ["record a failed", "cancel running"])
        #expect(words(run.drained()) == ["record b skipped", "record c skipped", "finish: cancelled: the run was cancelled"])
    }

    @Test func fallbackGivesTheFailedStepItsOutputsAndTheRunContinues() throws {
        var run = try machine(Self.workflow(Self.chain, more: """
            catch:
              - { when: { step: a, status: 500 }, fallback: { x: $response.body#/reason } }
            """))
        _ = run.start()
        #expect(words(run.stepFinished(failed("a"), runCancelled: false))
            == ["caught a by fallback (http)", "record a recovered", "start b after a"])
        #expect(run.completedOutputs["a"] == ["x": "down"])
    }

    @Test func aFallbackThatCannotBeEvaluatedFailsTheStepWithoutACatchEvent() throws {
        var run = try machine(Self.workflow(Self.chain, more: """
            catch:
              - { when: { step: a, status: 500 }, fallback: { x: $response.body#/nope } }
            """))
        _ = run.start()
        #expect(words(run.stepFinished(failed("a"), runCancelled: false)) == ["record a failed", "cancel running"])
    }

    @Test func aRuleForAnotherStatusDoesNotMatch() throws {
        var run = try machine(Self.workflow(Self.chain, more: """
            catch:
              - { when: { step: a, status: 404 }, fallback: { x: none } }
            """))
        _ = run.start()
        #expect(words(run.stepFinished(failed("a"), runCancelled: false)) == ["record a failed", "cancel running"])
    }

    @Test func endFinishesSuccessfullyWithItsOutputsOnceTheRunningStepsAreDrained() throws {
        var run = try machine(Self.workflow(Self.chain, more: """
            outputs: { reason: $steps.a.outputs.x }
            catch:
              - { when: { step: a }, end: { reason: $response.body#/reason } }
            """))
        _ = run.start()
        #expect(words(run.stepFinished(failed("a"), runCancelled: false))
            == ["caught a by end (http)", "record a recovered", "cancel running"])
        #expect(words(run.drained()) == ["record b skipped", "record c skipped", #"finish early: {"reason":"down"}"#])
    }

    @Test func runThenContinueRunsTheHandlerAndGoesOnWithoutOutputs() throws {
        var run = try machine(Self.workflow(
            Self.chain.replacingOccurrences(of: #"/b/{$steps.a.outputs.x}" }"#, with: #"/b" }, after: a"#) + """

              - { id: notify, on-demand: true, request: { method: POST, path: "https://api.test/notify" } }
            """,
            more: """
            catch:
              - { when: { step: a, status: 500 }, run: notify, then: continue }
            """))
        _ = run.start()
        let actions = run.stepFinished(failed("a"), runCancelled: false)
        #expect(words(actions) == ["caught a by run (http)", "record a recovered", "run handler notify"])
        if case .runHandler(_, _, let response, nil) = actions.last {
            #expect(response?.status == 500)  // The handler reads the failed response.
        }
        #expect(words(run.handlerFinished(succeeded("notify"))) == ["record notify succeeded", "start b after a"])
        #expect(run.completedOutputs["a"] == [:])
    }

    @Test func runThenFailFailsWithTheOriginalErrorAndAFailedHandlerWithItsOwn() throws {
        let yaml = Self.workflow(Self.chain + """

              - { id: notify, on-demand: true, request: { method: POST, path: "https://api.test/notify" } }
            """,
            more: """
            catch:
              - { when: { step: a }, run: notify }
            """)
        var run = try machine(yaml)
        _ = run.start()
        #expect(words(run.stepFinished(failed("a"), runCancelled: false))
            == ["caught a by run (http)", "record a failed", "run handler notify"])
        #expect(words(run.handlerFinished(succeeded("notify"))) == ["record notify succeeded", "cancel running"])
        #expect(words(run.drained()).last == "finish: http: status 500")

        var failing = try machine(yaml)
        _ = failing.start()
        _ = failing.stepFinished(failed("a"), runCancelled: false)
        #expect(words(failing.handlerFinished(failed("notify", .transport, status: nil)))
            == ["record notify failed", "cancel running"])
        #expect(words(failing.drained()).last == "finish: transport: status 0")
    }

    @Test func gotoRunsTheTargetAndWhatFollowsAgainUpToMaxVisits() throws {
        var run = try machine(Self.workflow(Self.chain, more: """
            catch:
              - { when: { step: c }, goto: a, maxVisits: 2 }
            """))
        _ = run.start()
        _ = run.stepFinished(succeeded("a", ["x": 1]), runCancelled: false)
        _ = run.stepFinished(succeeded("b", ["y": 2]), runCancelled: false)
        #expect(words(run.stepFinished(failed("c"), runCancelled: false))
            == ["caught c by goto (http)", "record c recovered", "start a"])
        _ = run.stepFinished(succeeded("a", ["x": 3]), runCancelled: false)
        #expect(words(run.stepFinished(succeeded("b", ["y": 4]), runCancelled: false))
            == ["record b succeeded", "start c after a,b"])
        // Over its limit the goto does not apply: the step fails, and no catch event says otherwise.
        #expect(words(run.stepFinished(failed("c"), runCancelled: false)) == ["record c failed", "cancel running"])
        #expect(words(run.drained()) == ["finish: http: status 500 ('goto: a' already ran it 2 times)"])
    }

    // MARK: The deadline

    @Test func theDeadlineEndsTheRunAndNamesItselfInTheStepsItCancelled() throws {
        var run = try machine(Self.workflow(Self.chain))
        _ = run.start()
        #expect(words(run.deadlinePassed(.seconds(5))) == ["cancel running"])
        let actions = run.stepFinished(failed("a", .cancelled, status: nil), runCancelled: false)
        guard case .record(let report)? = actions.first else {
            Issue.record("expected a report, got \(words(actions))")
            return
        }
        #expect(report.error?.code == .totalTimeout)
        #expect(report.error?.message == "the run did not finish within its deadline of 5s")
        #expect(words(run.drained())
            == ["record b skipped", "record c skipped", "finish: timeout.total: the run did not finish within its deadline of 5s"])
    }

    // MARK: Compensation

    @Test func aSucceededStepWithACompensationIsRememberedWithTheOutputsOfItsTime() throws {
        var run = try machine(Self.workflow("""
              - id: a
                request: { method: POST, path: "https://api.test/a" }
                outputs: { x: $response.body#/x }
                compensate: { request: { method: DELETE, path: "https://api.test/a/{$steps.a.outputs.x}" } }
              - { id: b, request: { method: GET, path: "https://api.test/b/{$steps.a.outputs.x}" } }
            """))
        _ = run.start()
        _ = run.stepFinished(succeeded("a", ["x": 7]), runCancelled: false)
        _ = run.stepFinished(failed("b"), runCancelled: false)
        #expect(run.succeeded.map(\.id) == ["a"])
        #expect(run.succeeded.first?.outputs.named == ["a": ["x": 7]])
    }

    /// Steps `a` (compensated by an inline request) and `b` (by the on-demand step `undo`), then `c`, in a chain.
    static let saga = """
          - id: a
            request: { method: POST, path: "https://api.test/a" }
            outputs: { x: $response.body#/x }
            compensate: { request: { method: DELETE, path: "https://api.test/a/{$steps.a.outputs.x}" } }
          - { id: b, request: { method: POST, path: "https://api.test/b" }, after: a, compensate: undo }
          - { id: c, request: { method: POST, path: "https://api.test/c" }, after: b }
          - { id: undo, on-demand: true, request: { method: POST, path: "https://api.test/undo" } }
        """

    /// The saga after `a` and `b` succeeded and `c` failed, drained: the actions of the drain.
    func failedSaga(_ more: String = "") throws -> (RunStateMachine, [RunStateMachine.Action]) {
        var run = try machine(Self.workflow(Self.saga, more: more))
        _ = run.start()
        _ = run.stepFinished(succeeded("a", ["x": 7]), runCancelled: false)
        _ = run.stepFinished(succeeded("b"), runCancelled: false)
        #expect(words(run.stepFinished(failed("c"), runCancelled: false)) == ["record c failed", "cancel running"])
        let actions = run.drained()
        return (run, actions)
    }

    @Test func aFailedRunCompensatesItsSucceededStepsMostRecentFirstOneAtATime() throws {
        var (run, drained) = try failedSaga()
        #expect(words(drained) == ["compensate b"])
        #expect(run.isEnding)
        #expect(words(run.compensationFinished(succeeded("undo"))) == ["record undo succeeded", "compensate a"])
        let actions = run.compensationFinished(succeeded("a/compensate"))
        #expect(words(actions) == ["record a/compensate succeeded", "finish: http: status 500"])
    }

    @Test func aCompensationReadsTheOutputsKnownWhenItsStepSucceeded() throws {
        let (_, drained) = try failedSaga()
        guard case .runCompensation("b", let outputs)? = drained.first else {
            Issue.record("expected b's compensation, got \(words(drained))")
            return
        }
        #expect(outputs.named == ["a": ["x": 7], "b": [:]])
    }

    @Test func aFailedCompensationDoesNotStopTheOthersAndTheErrorNamesEachThatFailed() throws {
        var (run, _) = try failedSaga()
        #expect(words(run.compensationFinished(failed("undo", .transport, status: nil)))
            == ["record undo failed", "compensate a"])
        #expect(words(run.compensationFinished(failed("a/compensate"))) == [
            "record a/compensate failed",
            "finish: http: status 500; compensation 'undo' of step 'b' failed too: status 0; "
                + "compensation 'a/compensate' of step 'a' failed too: status 500",
        ])
    }

    @Test func aCancelledRunIsNotCompensated() throws {
        var run = try machine(Self.workflow(Self.saga))
        _ = run.start()
        _ = run.stepFinished(succeeded("a", ["x": 7]), runCancelled: false)
        _ = run.stepFinished(failed("b", .cancelled, status: nil), runCancelled: true)
        #expect(words(run.drained()) == ["record c skipped", "finish: cancelled: the run was cancelled"])
    }

    @Test func aRunWithoutSucceededCompensatedStepsFinishesAtOnce() throws {
        var run = try machine(Self.workflow(Self.saga))
        _ = run.start()
        _ = run.stepFinished(failed("a"), runCancelled: false)
        #expect(words(run.drained()) == ["record b skipped", "record c skipped", "finish: http: status 500"])
    }

    @Test func theDeadlineChangesNothingOnceCompensationsRun() throws {
        var (run, _) = try failedSaga()
        #expect(run.deadlinePassed(.seconds(1)).isEmpty)
        #expect(words(run.compensationFinished(succeeded("undo"))) == ["record undo succeeded", "compensate a"])
    }

    @Test func aWorkflowOutputThatCannotBeProducedFailsTheRunAndCompensatesIt() throws {
        var run = try machine(Self.workflow(Self.saga, more: "outputs: { x: $steps.a.outputs.x }"))
        _ = run.start()
        _ = run.stepFinished(succeeded("a"), runCancelled: false)  // Without the x the output reads.
        _ = run.stepFinished(succeeded("b"), runCancelled: false)
        let actions = run.stepFinished(succeeded("c"), runCancelled: false)
        #expect(words(actions) == ["record c succeeded", "compensate b"])
        _ = run.compensationFinished(succeeded("undo"))
        guard case .finish(let outcome)? = run.compensationFinished(succeeded("a/compensate")).last,
              let error = outcome.error
        else {
            Issue.record("the run did not fail")
            return
        }
        #expect(error.message.hasPrefix("cannot produce workflow output 'x': "), "\(error.message)")
        #expect(error.location?.line != nil)
    }

    @Test func theWorkflowOutputsAreProducedWhenEveryStepIsOver() throws {
        var run = try machine(Self.workflow(Self.saga, more: "outputs: { x: $steps.a.outputs.x }"))
        _ = run.start()
        _ = run.stepFinished(succeeded("a", ["x": 7]), runCancelled: false)
        _ = run.stepFinished(succeeded("b"), runCancelled: false)
        guard case .finish(let outcome)? = run.stepFinished(succeeded("c"), runCancelled: false).last else {
            Issue.record("the run did not finish")
            return
        }
        #expect(outcome.error == nil)
        #expect(outcome.outputs == ["x": 7])
    }

    /// A succeeded step's result, for exit tests: their bodies capture nothing, so they cannot call the instance
    /// helpers.
    static func result(_ id: String, _ error: FlowError? = nil) -> StepResult {
        var report = StepReport(
            id: id, status: .succeeded, attempts: [], startedAfter: .zero, duration: .zero, outputs: [:])
        if let error {
            report.status = .failed
            report.error = error
        }
        return StepResult(outputs: [:], report: report, error: error)
    }

    /// An event the state cannot take is a bug in the driver: the machine stops the process rather than guess.
    @Test func anEventTheCompensationsCannotTakeIsAPreconditionFailure() async {
        // A compensation that finishes while none runs.
        await #expect(processExitsWith: .failure) {
            let scope = RunScope(inputs: [:], environment: [:], variables: RunVariables([:]), response: nil)
            var run = RunStateMachine(plan: try plan(Self.workflow(Self.saga)), scope: scope, limit: 8, seed: nil)
            _ = run.start()
            _ = run.compensationFinished(Self.result("undo"))
        }
        // A step that finishes while the compensations run.
        await #expect(processExitsWith: .failure) {
            let scope = RunScope(inputs: [:], environment: [:], variables: RunVariables([:]), response: nil)
            var run = RunStateMachine(plan: try plan(Self.workflow(Self.saga)), scope: scope, limit: 8, seed: nil)
            _ = run.start()
            _ = run.stepFinished(Self.result("a"), runCancelled: false)
            _ = run.stepFinished(Self.result("b", FlowError(.transport, "reset")), runCancelled: false)
            _ = run.drained()
            _ = run.stepFinished(Self.result("a"), runCancelled: false)
        }
    }

    @Test func aSnapshotTakenWhileCompensatingResumesThere() throws {
        let yaml = Self.workflow(Self.saga)
        var (run, _) = try failedSaga()
        _ = run.compensationFinished(failed("undo", .transport, status: nil))
        let data = try JSONEncoder().encode(run.snapshot)
        let scope = RunScope(inputs: [:], environment: [:], variables: RunVariables([:]), response: nil)
        var resumed = RunStateMachine(
            plan: try plan(yaml), scope: scope, limit: 8, seed: nil,
            resuming: try JSONDecoder().decode(RunStateMachine.Snapshot.self, from: data))
        #expect(words(resumed.compensationFinished(succeeded("a/compensate"))) == [
            "record a/compensate succeeded",
            "finish: http: status 500; compensation 'undo' of step 'b' failed too: status 0",
        ])
    }
}

/// The machine's events returning their actions, for tests that look at one event's actions at a time.
extension RunStateMachine {
    mutating func start() -> [Action] {
        var actions: [Action] = []
        start(into: &actions)
        return actions
    }

    mutating func stepFinished(_ result: StepResult, runCancelled: Bool) -> [Action] {
        var actions: [Action] = []
        stepFinished(result, runCancelled: runCancelled, into: &actions)
        return actions
    }

    mutating func handlerFinished(_ result: StepResult) -> [Action] {
        var actions: [Action] = []
        handlerFinished(result, into: &actions)
        return actions
    }

    mutating func deadlinePassed(_ deadline: Duration) -> [Action] {
        var actions: [Action] = []
        deadlinePassed(deadline, into: &actions)
        return actions
    }

    mutating func drained() -> [Action] {
        var actions: [Action] = []
        drained(into: &actions)
        return actions
    }

    mutating func compensationFinished(_ result: StepResult) -> [Action] {
        var actions: [Action] = []
        compensationFinished(result, into: &actions)
        return actions
    }
}
