/// The decisions of one run, as a value: which steps start, what a failed step's `on-error` and `catch` rules
/// lead to, and when and how the run ends.
///
/// Events go in (a step, a handler or a compensation finished, the deadline passed, the running steps were
/// drained) and actions come out (start a step, record a report, run a handler, cancel the running steps, run
/// a compensation, finish). It performs no I/O and reads no clock: ``RunExecution`` is the driver that runs
/// the steps, awaits their results and feeds them back, and everything it observes (a finished step's result,
/// whether the run's task was cancelled) arrives in an event. AsyncHTTPClient's `HTTPRequestStateMachine` is
/// the model.
///
/// ```text
///            start / stepFinished / handlerFinished
///   ┌──────────────┐  run: rule   ┌──────────────────┐
///   │  scheduling  │─────────────▶│ awaitingHandler  │
///   └──────────────┘◀─────────────└──────────────────┘
///    │  │  │ failure, end, deadline,   │ the handler failed,
///    │  │  ▼ goto over its limit       ▼ or then: fail
///    │  │ ┌──────────────────────────────────┐
///    │  │ │              ending              │
///    │  │ └──────────────────────────────────┘
///    │  │  │ drained: failed, not         │ drained: ended early,
///    │  │  ▼ cancelled, steps to undo     ▼ cancelled, nothing to undo
///    │  │ ┌─────────────────┐            ┌──────────┐
///    │  └▶│ compensating(i) │───────────▶│ finished │
///    │    └─────────────────┘  i == 0    └──────────┘
///    │      ▲  │ compensationFinished, i > 0:  ▲
///    │      └──┘ runCompensation(i - 1)        │
///    └─────────────────────────────────────────┘
///   nothing left to start: the workflow's outputs are produced (to finished), or one fails (to compensating)
/// ```
///
/// Catch-rule conditions, `fallback`/`end` values and the workflow's outputs are evaluated here, against the
/// run's inputs, vars and the outputs recorded so far: evaluation is computation, not I/O.
///
/// A run that failed (not one that was cancelled) undoes its succeeded steps that declare `compensate:`, most
/// recent first, one at a time: `compensating(i)` runs the compensation of ``succeeded``[i], each with the
/// outputs known when its step succeeded. Every compensation runs even when an earlier one failed, and the
/// run's error names each that failed.
struct RunStateMachine {
    /// What the driver does next.
    enum Action {
        /// Start the step; its scope's step outputs are `outputs`. The driver reports its result with
        /// ``stepFinished(_:runCancelled:into:)``.
        case startStep(PlannedStep, outputs: OutputTable)
        /// Start switch step `PlannedStep` by running the case step `choice` names in its place; its scope's step
        /// outputs are `outputs`. The driver reports the result, as the switch step's, with
        /// ``stepFinished(_:runCancelled:into:)``.
        case startSwitchCase(PlannedStep, choice: Switch.Choice, outputs: OutputTable)
        /// Add `report` to the run's reports, in this order.
        case record(StepReport)
        /// A `catch` or `on-error` rule handled step `stepID`'s failure of kind `error` with `action`.
        case caught(stepID: String, action: String, error: FlowError.Code)
        /// Run the on-demand step `id` now, before any other event, in the run's scope with these step outputs
        /// and the failed `response` it handles, and report its result with ``handlerFinished(_:into:)``. With a
        /// `retryDelay` (a rule that starts the failed step again), first wait that long, or as long as the
        /// response's `Retry-After` asks when that is longer (up to ``RetryRule/defaultRetryAfterMax``).
        indirect case runHandler(id: String, outputs: OutputTable, response: DecodedResponse?, retryDelay: Duration?)
        /// Cancel the running steps and deliver each one's result with ``stepFinished(_:runCancelled:into:)``, then
        /// call ``drained(into:)``.
        case cancelRunningSteps
        /// Run the compensation of step `stepID` now, before any other event, in the run's scope with these step
        /// outputs (those known when the step succeeded), and report its result with
        /// ``compensationFinished(_:into:)``. Nothing else runs: the run's steps are over.
        case runCompensation(stepID: String, outputs: OutputTable)
        /// The run is over, with this outcome: the workflow outputs, or the error with what its compensations
        /// said when they failed too.
        case finish(RunExecution.Outcome)
    }

    fileprivate enum State: Codable {
        case scheduling
        /// A handler is running: a `run:` rule's for a failed step, or an Arazzo `goto` to a workflow.
        case awaitingHandler(AwaitingHandler)
        case ending(Ending)
        /// The failed run undoes what it did: the compensation of `succeeded[index]` is running.
        case compensating(Compensating)
        case finished
    }

    /// The handler that runs, and what follows it.
    fileprivate struct AwaitingHandler: Codable {
        /// The step whose failure (or, for an Arazzo `goto` to a workflow, success) led to the handler.
        var stepID: String
        /// The handler step.
        var handler: String
        var then: CatchRule.Continuation
        /// The failure the handler handles; `nil` after a success.
        var error: FlowError?
    }

    /// How far a failed run's compensations are.
    fileprivate struct Compensating: Codable {
        /// The run's outcome, whose error the failed compensations extend.
        var outcome: RunExecution.Outcome
        /// The index in ``RunStateMachine/succeeded`` of the step whose compensation is running; they run from
        /// the last down to the first.
        var index: Int
        /// What each failed compensation said, in the order they ran.
        var failures: [String]
    }

    /// How an ending run ends, once its running steps are drained.
    fileprivate struct Ending: Codable {
        var outcome: RunExecution.Outcome
        /// The steps that had not started when the run began to end: reported as skipped.
        var waiting: [String]
        /// Whether the deadline ended the run: a step it cancelled reports the deadline as its failure.
        var deadlineError: FlowError?
    }

    private let plan: Plan
    /// The run's inputs, environment and vars, for catch-rule conditions and `fallback`/`end` values. The vars
    /// are the machine's own copy, set from each event that carries them: what steps do to the run's vars
    /// reaches the machine in events, like everything else.
    private let scope: RunScope
    private let limit: Int
    /// ``Plan/declaresVariables``, read once.
    private let declaresVariables: Bool
    private var state = State.scheduling
    private var schedule: StepSchedule
    private var running = 0
    /// How many times each regular step has started, by its position in the schedule, for `goto`'s `maxVisits`.
    private var visits: [Int]
    /// The seed the driver drew when each step last started (``RunEvent/stepStarted(id:seed:)``).
    private(set) var seeds: [String: UInt64] = [:]
    /// How many times each `run` rule that retries (``CatchRule/Continuation/retry``) has started each step again
    /// since the step last succeeded: by step id, then by ``retryKey(of:)``.
    private var handlerRetries: [String: [String: Int]] = [:]

    /// The outputs of the steps that completed (or were given fallback outputs).
    private(set) var completedOutputs: OutputTable
    /// The steps with a compensation that succeeded, in the order they finished, each with the outputs known
    /// when it did: what compensation undoes, in reverse. A step that `goto` ran again appears once per run.
    private(set) var succeeded: [(id: String, outputs: OutputTable)] = []

    /// The whole state of a run, as a value that encodes: with the same plan, inputs and environment,
    /// ``init(plan:scope:limit:seed:resuming:)`` brings a new machine to it, and the events after it then take the
    /// new machine where they took this one. A journal can keep one now and then instead of every event.
    struct Snapshot: Codable, Sendable {
        fileprivate var state: State
        var schedule: StepSchedule.Progress
        var running: Int
        var visits: [String: Int]
        var seeds: [String: UInt64]
        var handlerRetries: [String: [String: Int]]
        var completedOutputs: [String: [String: JSONValue]]
        var succeeded: [Succeeded]
        var vars: [String: JSONValue]

        /// A step with a compensation that succeeded, with the outputs known when it did.
        struct Succeeded: Codable, Sendable {
            var id: String
            var outputs: [String: [String: JSONValue]]
        }
    }

    /// The run's state now.
    var snapshot: Snapshot {
        Snapshot(
            state: state, schedule: schedule.progress, running: running,
            visits: Dictionary(uniqueKeysWithValues: zip(schedule.ids, visits).filter { $0.1 > 0 }), seeds: seeds,
            handlerRetries: handlerRetries, completedOutputs: completedOutputs.named,
            succeeded: succeeded.map { Snapshot.Succeeded(id: $0.id, outputs: $0.outputs.named) },
            vars: scope.variables.snapshot)
    }

    /// A run of `plan` in the state `snapshot` recorded; `scope` gives the inputs and environment, the snapshot
    /// the vars.
    init(plan: Plan, scope: RunScope, limit: Int, seed: UInt64?, resuming snapshot: Snapshot) {
        self.init(plan: plan, scope: scope, limit: limit, seed: seed)
        state = snapshot.state
        schedule.restore(snapshot.schedule)
        running = snapshot.running
        visits = schedule.ids.map { snapshot.visits[$0] ?? 0 }
        seeds = snapshot.seeds
        handlerRetries = snapshot.handlerRetries
        completedOutputs = OutputTable(layout: plan.outputLayout, named: snapshot.completedOutputs)
        succeeded = snapshot.succeeded.map { ($0.id, OutputTable(layout: plan.outputLayout, named: $0.outputs)) }
        self.scope.variables.replace(with: snapshot.vars)
    }

    /// A run of `plan`'s regular steps in `scope`, at most `limit` at a time, ready steps in plan order or in the
    /// order `seed` draws.
    init(plan: Plan, scope: RunScope, limit: Int, seed: UInt64?) {
        self.plan = plan
        self.scope = RunScope(
            inputs: scope.inputs, environment: scope.environment, variables: RunVariables(scope.variables.snapshot),
            response: nil)
        completedOutputs = OutputTable(layout: plan.outputLayout)
        self.limit = max(1, limit)
        declaresVariables = plan.declaresVariables
        schedule = StepSchedule(plan.stepGraph, seed: seed)
        visits = plan.stepGraph.noVisits
    }

    /// How many times step `id` has started.
    private func visits(of id: String) -> Int {
        plan.position(of: id).flatMap(schedule.position(ofPlanPosition:)).map { visits[$0] } ?? 0
    }

    /// Whether the run has ended or is ending: a deadline that passes now changes nothing.
    var isEnding: Bool {
        switch state {
        case .ending, .compensating, .finished: true
        case .scheduling, .awaitingHandler: false
        }
    }

    // MARK: Events

    /// Takes in `event`: the one entry point a driver (or a replay of recorded events) needs.
    mutating func apply(_ event: consuming RunEvent, into actions: inout [Action]) {
        // Consumed, so a finished step's result moves into the actions and the outputs table, uncopied.
        switch consume event {
        case .started(_, let vars):
            take(vars)
            start(into: &actions)
        case .stepStarted(let id, let seed):
            seeds[id] = seed
        case .stepFinished(let result, let runCancelled, let vars):
            take(vars)
            stepFinished(result, runCancelled: runCancelled, into: &actions)
        case .handlerFinished(let result, let vars):
            take(vars)
            handlerFinished(result, into: &actions)
        case .deadlinePassed(let deadline):
            deadlinePassed(deadline, into: &actions)
        case .drained:
            drained(into: &actions)
        case .compensationFinished(let result):
            compensationFinished(result, into: &actions)
        }
    }

    /// Sets the machine's copy of the vars to those an event carries; a workflow that declares none has none to
    /// set (its events carry none), and its vars are left alone without taking their lock.
    private func take(_ vars: [String: JSONValue]) {
        if declaresVariables || !vars.isEmpty { scope.variables.replace(with: vars) }
    }

    /// The run begins.
    mutating func start(into actions: inout [Action]) {
        scheduleNext(into: &actions)
    }

    /// A step that ``Action/startStep(_:outputs:)`` started has finished.
    /// - Parameters:
    ///   - result: Its result.
    ///   - runCancelled: Whether the run's task was cancelled when the result arrived.
    mutating func stepFinished(_ result: consuming StepResult, runCancelled: Bool, into actions: inout [Action]) {
        running -= 1
        var result = result
        // Moved out, not copied: the report becomes the action that records it.
        var report = result.takeReport()
        switch state {
        case .ending(let ending):
            if let deadlineError = ending.deadlineError, report.error?.code == .cancelled {
                report.error?.code = deadlineError.code
                report.error?.message = deadlineError.message
                if let last = report.attempts.indices.last, report.attempts[last].error?.code == .cancelled {
                    report.attempts[last].error = report.error
                }
            }
            let id = report.id
            actions.append(.record(report))
            // Not marked done in the schedule: an ending run starts nothing more.
            if result.error == nil { recordSuccess(of: id, outputs: result.outputs) }
            return
        case .finished, .awaitingHandler, .compensating:
            preconditionFailure("a step finished while the run was \(state)")
        case .scheduling:
            break
        }
        guard let error = result.error else {
            let id = report.id
            if !handlerRetries.isEmpty { handlerRetries[id] = nil }
            if let position = recordSuccess(of: id, outputs: result.outputs),
                let index = schedule.position(ofPlanPosition: position)
            {
                schedule.finish(at: index)
            }
            actions.append(.record(report))
            if let ruleIndex = result.successRule, let rules = plan.step(id)?.step.onSuccess, rules.indices.contains(ruleIndex) {
                guard follow(rules[ruleIndex], of: id, into: &actions) else { return }
            }
            scheduleNext(into: &actions)
            return
        }
        if runCancelled {
            actions.append(.record(report))
            end(FlowError(.cancelled, "the run was cancelled"), into: &actions)
            return
        }
        var failureScope = scope
        failureScope.stepOutputs = completedOutputs
        failureScope.response = result.failedResponse
        guard let rule = catchRule(for: report.id, error: error, in: failureScope) else {
            actions.append(.record(report))
            end(error, into: &actions)
            return
        }
        if case .fail = rule.action {
            // An Arazzo `end` failure action: the run fails with the step's error, and no later rule is tried.
            actions.append(.record(report))
            end(error, into: &actions)
            return
        }
        report.status = .recovered
        // The `flowrun.catch` span event says the rule's action applied: it is added where it does, so a
        // fallback or end that cannot be evaluated, or a goto over its limit, which fail the step, add none.
        let caught = Action.caught(stepID: report.id, action: rule.action.name, error: error.code)
        switch rule.action {
        case .fallback(let bindings):
            do throws(FlowError) {
                let outputs = try evaluate(bindings, in: failureScope)
                completedOutputs[report.id] = outputs
                schedule.finish(report.id)
                report.outputs = outputs
                actions.append(caught)
                actions.append(.record(report))
            } catch {
                failRecovery(of: report, with: error, into: &actions)
                return
            }
        case .end(let bindings):
            do throws(FlowError) {
                var outcome = RunExecution.Outcome()
                outcome.outputs = try evaluate(bindings, in: failureScope)
                outcome.endedEarly = true
                actions.append(caught)
                actions.append(.record(report))
                end(with: outcome, into: &actions)
            } catch {
                failRecovery(of: report, with: error, into: &actions)
            }
            return
        case .run(let target, let then):
            if then == .fail { report.status = .failed }
            actions.append(caught)
            actions.append(.record(report))
            let awaiting = AwaitingHandler(stepID: report.id, handler: target.value, then: then, error: error)
            var retryDelay: Duration?
            if then == .retry {
                // Counted before anything runs, so the rule's limit holds whatever the handler does.
                handlerRetries[report.id, default: [:]][Self.retryKey(of: rule), default: 0] += 1
                retryDelay = rule.retryDelay
            }
            guard plan.step(target.value) != nil else {
                // The compiler refuses a handler that does not exist; nothing to run.
                afterHandler(awaiting, outputs: [:], into: &actions)
                return
            }
            state = .awaitingHandler(awaiting)
            actions.append(.runHandler(
                id: target.value, outputs: failureScope.stepOutputs, response: failureScope.response,
                retryDelay: retryDelay))
            return
        case .goto(let target):
            let maxVisits = rule.maxVisits
            if visits(of: target.value) >= maxVisits {
                report.status = .failed
                actions.append(.record(report))
                var limitError = error
                limitError.message += " ('goto: \(target.value)' already ran it \(maxVisits) times)"
                end(limitError, into: &actions)
                return
            }
            actions.append(caught)
            actions.append(.record(report))
            completedOutputs[report.id] = [:]
            schedule.finish(report.id)
            goOn(at: target.value, after: report.id, into: &actions)
        case .fail:
            preconditionFailure("handled before the rule is reported as caught")
        }
        scheduleNext(into: &actions)
    }

    /// Follows the success rule (Arazzo's `onSuccess`) that step `id`'s response chose.
    /// - Returns: `false` when the run is ending: the rule ended it, or a `goto` went over its visit limit.
    private mutating func follow(_ rule: SuccessRule, of id: String, into actions: inout [Action]) -> Bool {
        switch rule.action {
        case .end:
            endSucceeded(into: &actions)
            return false
        case .run(let handler):
            state = .awaitingHandler(AwaitingHandler(stepID: id, handler: handler.value, then: .end, error: nil))
            actions.append(.runHandler(id: handler.value, outputs: completedOutputs, response: nil, retryDelay: nil))
            return false
        case .goto(let target):
            if visits(of: target.value) >= rule.maxVisits {
                var error = FlowError(
                    .loopLimit,
                    "success action '\(rule.name)' of step '\(id)' would run step '\(target.value)' a "
                        + "\(ordinal(rule.maxVisits + 1)) time; 'goto' runs a step at most \(rule.maxVisits) times in a run",
                    at: rule.location)
                error.stepID = id
                end(error, into: &actions)
                return false
            }
            goOn(at: target.value, after: id, into: &actions)
            return true
        }
    }

    /// Ends the run before its last step, as succeeded, with the workflow's outputs from what ran.
    private mutating func endSucceeded(into actions: inout [Action]) {
        var outcome = RunExecution.Outcome()
        do throws(FlowError) {
            outcome.outputs = try workflowOutputs()
        } catch {
            outcome = RunExecution.Outcome(error: error)
        }
        outcome.endedEarly = outcome.error == nil
        end(with: outcome, into: &actions)
    }

    /// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `12th`, `13th`, `21st`.
    private func ordinal(_ n: Int) -> String {
        let suffix =
            switch (n % 10, n % 100) {
            case (_, 11...13): "th"
            case (1, _): "st"
            case (2, _): "nd"
            case (3, _): "rd"
            default: "th"
            }
        return "\(n)\(suffix)"
    }

    /// Continues the run at step `target` after step `id` (done) chose to go there: the target and everything
    /// downstream of it run again. In an Arazzo workflow, whose steps run in order, a target after `id` passes
    /// over the steps between: they are recorded as skipped.
    private mutating func goOn(at target: String, after id: String, into actions: inout [Action]) {
        let reopened = schedule.downstream(of: target).filter { !schedule.isRunning($0) }
        if plan.workflow.arazzoWorkflowID != nil {
            let rerun = Set(reopened)
            for passed in schedule.downstream(of: id).dropFirst() where !rerun.contains(passed) {
                guard !schedule.isRunning(passed) else { continue }
                completedOutputs[passed] = nil
                schedule.finish(passed)
                var skipped = StepReport.skipped(passed)
                skipped.skipReason = "step '\(id)' went to step '\(target)'"
                actions.append(.record(skipped))
            }
        }
        for reopenedID in reopened { completedOutputs[reopenedID] = nil }
        schedule.reopen(reopened)
    }

    /// The handler that ``Action/runHandler(id:scope:)`` ran has finished.
    mutating func handlerFinished(_ result: StepResult, into actions: inout [Action]) {
        guard case .awaitingHandler(let awaiting) = state else {
            preconditionFailure("a handler finished while the run was \(state)")
        }
        state = .scheduling
        actions.append(.record(result.report))
        if let handlerError = result.error {
            end(handlerError, into: &actions)
            return
        }
        afterHandler(awaiting, outputs: result.outputs.named, into: &actions)
    }

    /// The run's deadline passed.
    mutating func deadlinePassed(_ deadline: Duration, into actions: inout [Action]) {
        guard !isEnding else { return }
        let error = FlowError(.totalTimeout, "the run did not finish within its deadline of \(deadline.workflowText)")
        end(with: RunExecution.Outcome(error: error), deadlineError: error, into: &actions)
    }

    /// Every step that was running when ``Action/cancelRunningSteps`` was asked for has reported its result.
    mutating func drained(into actions: inout [Action]) {
        guard case .ending(let ending) = state else { preconditionFailure("drained while the run was \(state)") }
        for id in ending.waiting { actions.append(.record(.skipped(id))) }
        conclude(ending.outcome, into: &actions)
    }

    /// The compensation that ``Action/runCompensation(stepID:outputs:)`` ran has finished.
    mutating func compensationFinished(_ result: StepResult, into actions: inout [Action]) {
        guard case .compensating(var compensating) = state else {
            preconditionFailure("a compensation finished while the run was \(state)")
        }
        actions.append(.record(result.report))
        if let error = result.error {
            let id = succeeded[compensating.index].id
            compensating.failures.append(
                "compensation '\(plan.compensations[id]!.id)' of step '\(id)' failed too: \(error.message)")
        }
        compensating.index -= 1
        compensate(compensating, into: &actions)
    }

    // MARK: Transitions

    /// After a handler succeeded with `outputs`: fail with the original error, continue as if the step had
    /// succeeded with no outputs, start the failed step again with the handler's outputs as its step's, or end
    /// the run as succeeded.
    private mutating func afterHandler(_ awaiting: AwaitingHandler, outputs: [String: JSONValue], into actions: inout [Action]) {
        let stepID = awaiting.stepID
        switch awaiting.then {
        case .fail:
            guard let error = awaiting.error else { preconditionFailure("a 'then: fail' handler handled no failure") }
            end(error, into: &actions)
            return
        case .continue:
            completedOutputs[stepID] = [:]
            schedule.finish(stepID)
        case .retry:
            // What the failed step reads of the handler step is what it produced now.
            completedOutputs[awaiting.handler] = outputs
            schedule.finish(stepID)
            schedule.reopen([stepID])
        case .end:
            // The workflow outputs read what the handler produced now (an Arazzo `goto` to a workflow in
            // `dependsOn` runs its `dependsOn-<id>` step again: `$workflows.<id>.outputs` are the new run's).
            completedOutputs[awaiting.handler] = outputs
            endSucceeded(into: &actions)
            return
        }
        scheduleNext(into: &actions)
    }

    /// Starts what may start; when nothing runs and nothing can start, the run is complete.
    ///
    /// A step whose `if` does not hold is not started: it is skipped, with its `else` values as its outputs, and
    /// the steps after it go on. So is a switch step whose value matches no case and that has no default; one
    /// whose value chooses a case starts as that case step.
    private mutating func scheduleNext(into actions: inout [Action]) {
        while running < limit, let (_, index, position) = schedule.startNextStep() {
            let planned = plan.steps[position]
            if let condition = planned.step.condition {
                let conditionScope = readyScope
                if !condition.holds(in: conditionScope) {
                    guard skip(planned.step, because: "its 'if' did not hold: \(condition.text)", in: conditionScope,
                               into: &actions)
                    else { return }
                    continue
                }
            }
            var choice: Switch.Choice?
            if let setting = planned.step.switch {
                let switchScope = readyScope
                let value = try? switchScope.value(of: setting.value)
                choice = setting.choose(value)
                if choice == nil {
                    guard skip(planned.step, because: Self.noCaseReason(setting, value), in: switchScope,
                               into: &actions)
                    else { return }
                    continue
                }
            }
            running += 1
            visits[index] += 1
            if let choice {
                actions.append(.startSwitchCase(planned, choice: choice, outputs: completedOutputs))
            } else {
                actions.append(.startStep(planned, outputs: completedOutputs))
            }
        }
        guard running == 0 else { return }
        // Steps still waiting can never start (a dependency that never completes): they are skipped.
        for id in schedule.waitingIDs { actions.append(.record(.skipped(id))) }
        var outcome = RunExecution.Outcome()
        do throws(FlowError) {
            outcome.outputs = try workflowOutputs()
        } catch {
            outcome = RunExecution.Outcome(error: error)
        }
        conclude(outcome, into: &actions)
    }

    /// The workflow's declared outputs, evaluated once every step is over.
    /// - Throws: ``FlowError`` naming the first output that cannot be produced, at its location.
    private func workflowOutputs() throws(FlowError) -> [String: JSONValue] {
        let outputs = plan.workflow.outputs
        guard !outputs.isEmpty else { return [:] }
        let scope = readyScope
        // Arazzo's workflow outputs are its "applicable" ones: one that reads a step which did not run is left out.
        let leavesOutInapplicable = plan.workflow.arazzoWorkflowID != nil
        var values: [String: JSONValue] = [:]
        for output in outputs {
            do throws(FlowError) {
                values[output.name.value] = try scope.evaluate(output.value)
            } catch where leavesOutInapplicable && error.code == .binding {
                continue
            } catch {
                var error = error
                error.message = "cannot produce workflow output '\(output.name.value)': \(error.message)"
                error.location = output.name.location
                throw error
            }
        }
        return values
    }

    /// The run's steps are over with `outcome`. A failed run (not a cancelled one) compensates its succeeded steps
    /// first, the most recent first; any other finishes now.
    private mutating func conclude(_ outcome: RunExecution.Outcome, into actions: inout [Action]) {
        guard let error = outcome.error, error.code != .cancelled, !succeeded.isEmpty else {
            state = .finished
            actions.append(.finish(outcome))
            return
        }
        compensate(Compensating(outcome: outcome, index: succeeded.count - 1, failures: []), into: &actions)
    }

    /// Runs the compensation at `compensating.index`, or, once the first succeeded step's has run, finishes with the
    /// run's error and what the failed compensations said.
    private mutating func compensate(_ compensating: Compensating, into actions: inout [Action]) {
        if compensating.index >= 0 {
            state = .compensating(compensating)
            let (id, outputs) = succeeded[compensating.index]
            actions.append(.runCompensation(stepID: id, outputs: outputs))
            return
        }
        state = .finished
        var outcome = compensating.outcome
        if !compensating.failures.isEmpty {
            outcome.error?.message += "; " + compensating.failures.joined(separator: "; ")
        }
        actions.append(.finish(outcome))
    }

    /// The run's scope with the outputs completed so far: what a ready step's `if`, `switch` and `else` read.
    private var readyScope: RunScope {
        var ready = scope
        ready.stepOutputs = completedOutputs
        return ready
    }

    /// Records `step` as skipped `because`, with its `else` values, evaluated in `scope`, as its outputs.
    /// - Returns: `false` when an `else` value could not be evaluated, which ended the run.
    private mutating func skip(
        _ step: Step, because reason: String, in scope: RunScope, into actions: inout [Action]
    ) -> Bool {
        let id = step.id.value
        let outputs: [String: JSONValue]
        do throws(FlowError) {
            outputs = try evaluate(step.otherwise, in: scope)
        } catch {
            var error = error
            error.stepID = id
            var report = StepReport.skipped(id)
            report.status = .failed
            report.error = error
            actions.append(.record(report))
            end(error, into: &actions)
            return false
        }
        completedOutputs[id] = outputs
        schedule.finish(id)
        var report = StepReport.skipped(id)
        report.outputs = outputs
        report.skipReason = reason
        actions.append(.record(report))
        return true
    }

    /// Why a switch step was skipped: `its 'switch' value "FR" matched none of its cases (DE, AT, US)`.
    private static func noCaseReason(_ setting: Switch, _ value: JSONValue?) -> String {
        let cases = setting.cases.map(\.text).joined(separator: ", ")
        guard let value else {
            return "its 'switch' value \(setting.value) does not exist, so it matched none of its cases (\(cases))"
        }
        var text = value.serialized()
        if text.count > 60 { text = text.prefix(60) + "…" }
        return "its 'switch' value \(text) matched none of its cases (\(cases))"
    }

    private mutating func end(_ error: FlowError, into actions: inout [Action]) {
        end(with: RunExecution.Outcome(error: error), into: &actions)
    }

    /// Begins to end the run with `outcome`: the running steps are cancelled and drained first.
    private mutating func end(
        with outcome: RunExecution.Outcome, deadlineError: FlowError? = nil, into actions: inout [Action]
    ) {
        state = .ending(Ending(outcome: outcome, waiting: schedule.waitingIDs, deadlineError: deadlineError))
        actions.append(.cancelRunningSteps)
    }

    /// Records that step `id` succeeded with `outputs`, and keeps them for its compensation if it declares one.
    /// One lookup by name; the rest goes by the step's position, which it returns (`nil` for an unknown id).
    @discardableResult
    private mutating func recordSuccess(of id: String, outputs: StepOutputs) -> Int? {
        guard let position = plan.position(of: id) else { return nil }
        completedOutputs.set(outputs, at: position)
        if plan.compensated[position] { succeeded.append((id, completedOutputs)) }
        return position
    }


    /// A `fallback` or `end` whose value could not be evaluated: the step is not recovered but failed with that
    /// error, which names the step and its last attempt, and the run ends with it.
    private mutating func failRecovery(of report: StepReport, with error: FlowError, into actions: inout [Action]) {
        var report = report
        var error = error
        error.stepID = report.id
        error.attempt = report.attempts.last?.number
        report.status = .failed
        report.error = error
        actions.append(.record(report))
        end(error, into: &actions)
    }

    /// The first rule that handles `error` of step `id`: the step's `on-error` rules, then the workflow's `catch`.
    ///
    /// A rule matches when its statuses or kinds match (or it lists none) and its `if` condition, if any,
    /// holds for the failed response in `scope`.
    private func catchRule(for id: String, error: FlowError, in scope: RunScope) -> CatchRule? {
        let own = plan.step(id)?.step.onError ?? []
        return (own + plan.workflow.catchRules).first { rule in
            if let step = rule.step, step.value != id { return false }
            if case .run(_, .retry) = rule.action,
                handlerRetries[id]?[Self.retryKey(of: rule)] ?? 0 >= rule.retryLimit
            {
                return false  // Arazzo: a retry action's limit is used up before the next action is tried.
            }
            let when = rule.when
            if !(when.statuses.isEmpty && when.kinds.isEmpty) && !RetryTracker.matches(when, error) { return false }
            return when.guardHolds(in: scope)
        }
    }

    /// What tells a rule from the others of a step when counting its retries: where it is declared.
    private static func retryKey(of rule: CatchRule) -> String {
        "\(rule.location.line):\(rule.location.column)"
    }

    private func evaluate(_ bindings: [Binding], in scope: RunScope) throws(FlowError) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for binding in bindings { values[binding.name.value] = try scope.evaluate(binding.value) }
        return values
    }
}

extension StepReport {
    /// The report of a step that never started.
    static func skipped(_ id: String) -> StepReport {
        StepReport(id: id, status: .skipped, attempts: [], startedAfter: .zero, duration: .zero, outputs: [:])
    }
}

extension CatchRule.Action {
    /// The action's keyword in the workflow file, for span events.
    var name: String {
        switch self {
        case .fallback: "fallback"
        case .goto: "goto"
        case .run: "run"
        case .end, .fail: "end"
        }
    }
}
