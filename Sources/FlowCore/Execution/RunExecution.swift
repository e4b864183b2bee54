import Tracing

/// One run of a plan: checks the inputs, initialises the vars, schedules the steps and applies `catch` rules.
///
/// All state of the run lives here and in the ``RunVariables`` it shares with
/// its steps; nothing outlives the run.
struct RunExecution: Sendable {
    let engine: EngineSettings
    let plan: Plan
    let start: EngineClock.Instant
    let observer: (any RunObserver)?
    let tracer: RunTracer
    /// The run's span, when traced: a `catch` rule that handles a step adds an event to it.
    var runSpan: (any Span)?
    /// The reports of the steps, in the order they finished.
    ///
    /// Only ``record(_:)`` adds to it, so the observer hears of each report once. (A `didSet` reading
    /// `oldValue` would copy the whole array at every append: quadratic in the number of steps.)
    private(set) var reports: [StepReport] = []
    /// The run's redactor: every secret the run knows, for its report and whatever else describes the run.
    let redactor = SecretRedactor()

    /// Adds finished steps' reports, in order, and tells the observer.
    private mutating func record(contentsOf finished: [StepReport]) {
        for report in finished { record(report) }
    }

    /// Adds a finished step's report and tells the observer.
    private mutating func record(_ report: StepReport) {
        reports.append(report)
        observer?.stepFinished(report)
    }

    init(
        engine: EngineSettings, plan: Plan, start: EngineClock.Instant, observer: (any RunObserver)?,
        tracer: RunTracer
    ) {
        self.engine = engine
        self.plan = plan
        self.start = start
        self.observer = observer
        self.tracer = tracer
    }

    /// The workflow outputs, or the error the run failed with.
    struct Outcome {
        var outputs: [String: JSONValue] = [:]
        var error: FlowError?
        /// Whether a `catch` rule's `end` gave the outputs, so the declared outputs are not evaluated.
        var endedEarly = false
    }

    mutating func execute(inputs given: [String: JSONValue], environment processEnvironment: [String: String]) async
        -> Outcome
    {
        let validator = plan.validator
        let inputs: [String: JSONValue]
        let environment: [String: String]
        do {
            inputs = try InputBinder(plan: plan, validator: validator).bind(given)
            let preflight = RunPreflight(plan: plan, engine: engine)
            environment = try preflight.environment(from: processEnvironment)
            try preflight.checkRegistrations()
        } catch {
            return Outcome(error: error)
        }
        for (name, value) in inputs where plan.secretInputs.contains(name) { redactor.add(value) }

        let secretVariables = plan.secretVariables
        var scope = RunScope(
            inputs: inputs, environment: environment, variables: RunVariables([:]), stepOutputs: [:], response: nil)
        for binding in plan.workflow.vars {
            do {
                let value = try scope.evaluate(binding.value)
                if secretVariables.contains(binding.name.value) { redactor.add(value) }
                scope.variables.set(binding.name.value, value)
            } catch {
                var error = redactor.redact(error)
                error.message = "cannot set the initial value of var '\(binding.name.value)': \(error.message)"
                error.location = binding.name.location
                return Outcome(error: error)
            }
        }

        // Every secret known at run start, before the first request, so no log line of it leaks one.
        redactor.register(secretsOf: plan, in: scope)

        let nested = NestedStepReports()
        let runner = StepRunner(
            plan: plan, dispatchers: engine.dispatchers, dispatcherOverride: engine.dispatcherOverride,
            interceptorRegistry: engine.interceptors, clock: engine.clock, logger: engine.logger,
            builder: RequestBuilder(plan: plan, validator: validator), validator: validator, redactor: redactor,
            coordinator: RefreshCoordinator(), runStart: start, unixTime: engine.unixTime, jitter: engine.jitter,
            secretVariables: secretVariables, nestedReports: nested, circuitBreakers: engine.circuitBreakers,
            tracer: tracer, decoding: ResponseDecoding(parsers: engine.parsers))
        var outcome = await schedule(runner: runner, scope: scope)
        if outcome.error == nil && !outcome.endedEarly {
            scope.stepOutputs = completedOutputs
            for output in plan.workflow.outputs {
                do {
                    outcome.outputs[output.name.value] = try scope.evaluate(output.value)
                } catch {
                    var error = redactor.redact(error)
                    error.message = "cannot produce workflow output '\(output.name.value)': \(error.message)"
                    error.location = output.name.location
                    outcome = Outcome(error: error)
                    break
                }
            }
        }
        // Workflow outputs are redacted like step outputs: a secret, or a server's echo of one, never
        // reaches the report in clear.
        if !outcome.outputs.isEmpty {
            outcome.outputs = redactor.redact(.object(outcome.outputs)).objectValue ?? outcome.outputs
        }
        // A failed run undoes what it did; a cancelled one stops at once.
        if var error = outcome.error, error.code != .cancelled {
            error.message += await compensate(runner: runner, scope: scope)
            outcome.error = error
        }
        return outcome
    }

    /// The outputs of the steps that completed (or were given fallback outputs).
    private var completedOutputs: [String: [String: JSONValue]] = [:]
    /// The steps with a compensation that succeeded, in the order they finished, each with the outputs known
    /// when it did: what compensation undoes, in reverse. A step that `goto` ran again appears once per run.
    /// (Only those: keeping a snapshot for every step would copy the outputs at each one.)
    private var succeeded: [(id: String, outputs: [String: [String: JSONValue]])] = []

    /// Records that step `id` succeeded, for compensation if it declares one.
    private mutating func recordSuccess(of id: String) {
        if plan.compensations[id] != nil { succeeded.append((id, completedOutputs)) }
    }

    /// Runs the regular steps as their dependencies complete, at most `maxConcurrentSteps` at a time.
    private mutating func schedule(runner: StepRunner, scope: RunScope) async -> Outcome {
        var steps = StepSchedule(
            plan.steps.filter { !$0.step.onDemand }.map { ($0.id, $0.dependencies) }, seed: engine.readyOrderSeed)
        var visits: [String: Int] = [:]
        var runningCount = 0
        let limit = engine.maxConcurrentSteps

        return await withTaskGroup(of: GroupEvent.self) { group in
            if let deadline = plan.workflow.deadline?.value {
                let timers = engine.clock.timers
                group.addTask {
                    await TimerWait.wait(for: deadline, on: timers) ? .deadlinePassed(deadline) : .deadlineCancelled
                }
            }
            while true {
                let event: GroupEvent
                // The one step that can start, when none is running and exactly one is ready. Without a deadline
                // to race, it runs in this task: nothing could run beside it (only its completion can make another
                // step ready), and a child task would cost a task and two thread hand-offs per step.
                if plan.workflow.deadline == nil, runningCount == 0, steps.readyCount == 1, let id = steps.startNext() {
                    visits[id, default: 0] += 1
                    var stepScope = scope
                    stepScope.stepOutputs = completedOutputs
                    observer?.stepStarted(id)
                    event = .finished(await runner.run(plan.step(id)!, scope: stepScope))
                } else {
                    while runningCount < limit, let id = steps.startNext() {
                        runningCount += 1
                        visits[id, default: 0] += 1
                        var stepScope = scope
                        stepScope.stepOutputs = completedOutputs
                        let planned = plan.step(id)!
                        observer?.stepStarted(id)
                        group.addTask { .finished(await runner.run(planned, scope: stepScope)) }
                    }
                    if runningCount == 0 { break }  // Nothing left but the deadline timer.
                    guard let next = await group.next() else { break }
                    event = next
                    if case .finished = next { runningCount -= 1 }
                }
                let result: StepResult
                switch event {
                case .finished(let finished):
                    result = finished
                case .deadlinePassed(let deadline):
                    return await finish(
                        group: &group, runner: runner, waiting: steps.waitingIDs,
                        error: FlowError(
                            .totalTimeout, "the run did not finish within its deadline of \(deadline.workflowText)"),
                        cancelsRunningSteps: true)
                case .deadlineCancelled:
                    continue
                }
                record(contentsOf: runner.nestedReports.drain())
                var report = result.report
                guard let error = result.error else {
                    completedOutputs[report.id] = result.outputs
                    steps.finish(report.id)
                    recordSuccess(of: report.id)
                    record(report)
                    continue
                }
                if Task.isCancelled {
                    record(report)
                    return await finish(
                        group: &group, runner: runner, waiting: steps.waitingIDs,
                        error: FlowError(.cancelled, "the run was cancelled"))
                }
                var failureScope = scope
                failureScope.stepOutputs = completedOutputs
                failureScope.response = result.failedResponse
                guard let rule = catchRule(for: report.id, error: error, in: failureScope) else {
                    record(report)
                    return await finish(group: &group, runner: runner, waiting: steps.waitingIDs, error: error)
                }
                report.status = .recovered
                runSpan?.addEvent(SpanEvent(
                    name: "flowrun.catch",
                    attributes: [
                        "flowrun.step.id": .string(report.id), "flowrun.catch.action": .string(rule.action.name),
                        "error.type": .string(error.code.name),
                    ]))
                switch rule.action {
                case .fallback(let bindings):
                    do throws(FlowError) {
                        completedOutputs[report.id] = try evaluate(bindings, in: failureScope)
                        steps.finish(report.id)
                        report.outputs = completedOutputs[report.id]!
                        record(report)
                    } catch {
                        record(report)
                        return await finish(group: &group, runner: runner, waiting: steps.waitingIDs, error: error)
                    }
                case .end(let bindings):
                    record(report)
                    do throws(FlowError) {
                        let outputs = try evaluate(bindings, in: failureScope)
                        var outcome = await finish(group: &group, runner: runner, waiting: steps.waitingIDs, error: nil)
                        outcome.outputs = outputs
                        outcome.endedEarly = true
                        return outcome
                    } catch {
                        return await finish(group: &group, runner: runner, waiting: steps.waitingIDs, error: error)
                    }
                case .run(let target, let then):
                    if then == .fail { report.status = .failed }
                    record(report)
                    if let handler = plan.step(target.value) {
                        let handled = await runner.run(handler, scope: failureScope)
                        record(handled.report)
                        if let handlerError = handled.error {
                            return await finish(
                                group: &group, runner: runner, waiting: steps.waitingIDs, error: handlerError)
                        }
                    }
                    if then == .fail {
                        return await finish(group: &group, runner: runner, waiting: steps.waitingIDs, error: error)
                    }
                    completedOutputs[report.id] = [:]
                    steps.finish(report.id)
                case .goto(let target):
                    let maxVisits = rule.maxVisits
                    if visits[target.value, default: 0] >= maxVisits {
                        report.status = .failed
                        record(report)
                        var limitError = error
                        limitError.message += " ('goto: \(target.value)' already ran it \(maxVisits) times)"
                        return await finish(group: &group, runner: runner, waiting: steps.waitingIDs, error: limitError)
                    }
                    record(report)
                    // Continue at the target: it and everything downstream of it run again.
                    completedOutputs[report.id] = [:]
                    steps.finish(report.id)
                    let reopened = steps.downstream(of: target.value).filter { !steps.isRunning($0) }
                    for id in reopened { completedOutputs[id] = nil }
                    steps.reopen(reopened)
                }
            }
            for id in steps.waitingIDs {
                record(StepReport(
                    id: id, status: .skipped, attempts: [], startedAfter: .zero, duration: .zero, outputs: [:]))
            }
            group.cancelAll()  // Stops the deadline timer.
            return Outcome()
        }
    }

    /// Undoes the succeeded steps that declare `compensate:`, most recent first.
    ///
    /// Every compensation runs even when an earlier one fails; their reports join the run's.
    /// - Returns: Text to append to the run's error about failed compensations, or the empty string.
    private mutating func compensate(runner: StepRunner, scope: RunScope) async -> String {
        var failures: [String] = []
        var scope = scope
        for (id, outputs) in succeeded.reversed() {
            guard let compensation = plan.compensations[id] else { continue }
            scope.stepOutputs = outputs
            let result = await runner.run(compensation, scope: scope)
            record(contentsOf: runner.nestedReports.drain())
            record(result.report)
            if let error = result.error {
                failures.append("compensation '\(compensation.id)' of step '\(id)' failed too: \(error.message)")
            }
        }
        return failures.isEmpty ? "" : "; " + failures.joined(separator: "; ")
    }

    /// What the scheduling task group reports.
    private enum GroupEvent: Sendable {
        case finished(StepResult)
        case deadlinePassed(Duration)
        case deadlineCancelled
    }

    /// Ends the run: cancels running steps, waits for them, and reports the waiting ones as skipped.
    ///
    /// A running step may finish before its cancellation takes effect, or have finished with its result not yet
    /// read: its report joins the run's and, when it succeeded, compensation undoes it like any other step.
    ///
    /// With `cancelsRunningSteps` (the run's deadline passed), a step it cancels reports `error` as its
    /// failure instead of a bare cancellation, so the report says what stopped it.
    private mutating func finish(
        group: inout TaskGroup<GroupEvent>, runner: StepRunner, waiting: [String], error: FlowError?,
        cancelsRunningSteps: Bool = false
    ) async -> Outcome {
        group.cancelAll()
        while let event = await group.next() {
            guard case .finished(let result) = event else { continue }
            record(contentsOf: runner.nestedReports.drain())
            var report = result.report
            if cancelsRunningSteps, let error, report.error?.code == .cancelled {
                report.error?.code = error.code
                report.error?.message = error.message
                if let last = report.attempts.indices.last, report.attempts[last].error?.code == .cancelled {
                    report.attempts[last].error = report.error
                }
            }
            record(report)
            if result.error == nil {
                completedOutputs[result.report.id] = result.outputs
                recordSuccess(of: result.report.id)
            }
        }
        for id in waiting {
            record(StepReport(
                id: id, status: .skipped, attempts: [], startedAfter: .zero, duration: .zero, outputs: [:]))
        }
        return Outcome(error: error)
    }

    /// The first rule that handles `error` of step `id`: the step's `on-error` rules, then the workflow's `catch`.
    ///
    /// A rule matches when its statuses or kinds match (or it lists none) and its `if` condition, if any,
    /// holds for the failed response in `scope`.
    private func catchRule(for id: String, error: FlowError, in scope: RunScope) -> CatchRule? {
        let own = plan.step(id)?.step.onError ?? []
        return (own + plan.workflow.catchRules).first { rule in
            if let step = rule.step, step.value != id { return false }
            let when = rule.when
            if !(when.statuses.isEmpty && when.kinds.isEmpty) && !RetryTracker.matches(when, error) { return false }
            guard let condition = when.condition else { return true }
            return condition.holds(for: try? scope.value(of: condition.expression))
        }
    }

    private func evaluate(_ bindings: [Binding], in scope: RunScope) throws(FlowError) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for binding in bindings { values[binding.name.value] = try scope.evaluate(binding.value) }
        return values
    }
}

extension CatchRule.Action {
    /// The action's keyword in the workflow file, for span events.
    fileprivate var name: String {
        switch self {
        case .fallback: "fallback"
        case .goto: "goto"
        case .run: "run"
        case .end: "end"
        }
    }
}
