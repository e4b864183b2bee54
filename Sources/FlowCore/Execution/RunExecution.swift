import Logging
import Tracing

/// One run of a plan: checks the inputs, initialises the vars, schedules the steps and applies `catch` rules.
///
/// All state of the run lives here and in the ``RunVariables`` it shares with
/// its steps; nothing outlives the run.
struct RunExecution: Sendable {
    let engine: EngineSettings
    /// The run's id; a called workflow's run has its caller's.
    let runID: String
    /// The engine's logger with the run's id (``EngineSettings/logger(ofRun:)``).
    let logger: Logger
    let plan: Plan
    let start: EngineClock.Instant
    let observer: (any RunObserver)?
    /// Whether there is an ``observer``: tested before each call, since `observer?.…` copies the existential out
    /// of the optional (an outlined copy and destroy) even when it is `nil`, at every step.
    private let isObserved: Bool
    let tracer: RunTracer
    /// Where the run records its events, if anywhere: the engine's journal, or none for a called workflow's run,
    /// whose result is one event of the calling run.
    let journal: (any RunJournal)?
    /// The run's span, when traced: a `catch` rule that handles a step adds an event to it.
    var runSpan: RunSpan?
    /// The reports of the steps, in the order they finished.
    ///
    /// Only ``record(_:)`` adds to it, so the observer hears of each report once. (A `didSet` reading
    /// `oldValue` would copy the whole array at every append: quadratic in the number of steps.)
    private(set) var reports: [StepReport] = []
    /// The run's redactor: every secret the run knows, for its report and whatever else describes the run.
    /// A called workflow's run shares its caller's, so that the caller's report hides the callee's secrets too.
    let redactor: SecretRedactor

    /// Adds finished steps' reports, in order, and tells the observer.
    private mutating func record(contentsOf finished: [StepReport]) {
        for report in finished { record(report) }
    }

    /// Adds the reports of the steps that ran inside the last one (its refreshes), if its plan can have any.
    private mutating func recordNestedReports(of runner: StepRunner) {
        if let nested = runner.nestedReports { record(contentsOf: nested.drain()) }
    }

    /// Adds a finished step's report and tells the observer.
    private mutating func record(_ report: StepReport) {
        reports.append(report)
        if isObserved { observer?.stepFinished(report) }
    }

    init(
        engine: EngineSettings, runID: String, logger: Logger, plan: Plan, start: EngineClock.Instant,
        observer: (any RunObserver)?, tracer: RunTracer, redactor: SecretRedactor = SecretRedactor(),
        keepsJournal: Bool = true
    ) {
        self.journal = keepsJournal ? engine.journal : nil
        self.redactor = redactor
        self.engine = engine
        self.runID = runID
        self.logger = logger
        self.plan = plan
        self.start = start
        self.observer = observer
        isObserved = observer != nil
        self.tracer = tracer
        reports.reserveCapacity(plan.steps.count)
    }

    /// The workflow outputs (not redacted: a calling workflow reads them), or the error the run failed with.
    struct Outcome: Codable {
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
            try preflight.checkCalledWorkflows(environment: processEnvironment)
        } catch {
            return Outcome(error: error)
        }
        for (name, value) in inputs where plan.secretInputs.contains(name) { redactor.add(value) }

        let secretVariables = plan.secretVariables
        let scope = RunScope(
            inputs: inputs, environment: environment, variables: RunVariables([:]), response: nil)
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

        // What only refreshes use, made only for a plan with a refresh interceptor.
        let refreshes = plan.runsRefreshSteps
        let runner = StepRunner(
            plan: plan, dispatchers: engine.dispatchers, dispatcherOverride: engine.dispatcherOverride,
            interceptorRegistry: engine.interceptors, clock: engine.clock, logger: logger,
            logLevel: logger.logLevel,
            runLogger: RunLogger(logger),
            builder: RequestBuilder(plan: plan, validator: validator), validator: validator, redactor: redactor,
            coordinator: refreshes ? RefreshCoordinator() : nil, runStart: start, unixTime: engine.unixTime,
            jitter: engine.jitter, secretVariables: secretVariables, nestedReports: refreshes ? NestedStepReports() : nil,
            circuitBreakers: engine.circuitBreakers,
            tracer: tracer, decoding: ResponseDecoding(parsers: engine.parsers),
            nestedRuns: NestedRunContext(
                engine: engine, runID: runID, logger: logger, environment: processEnvironment),
            responseConformance: engine.responseConformance)
        return await schedule(runner: runner, scope: scope)
    }

    /// The run's vars, as an event carries them: for a workflow that declares none, which stay empty, without
    /// taking their lock at every step.
    private func vars(of scope: RunScope) -> [String: JSONValue] {
        plan.declaresVariables ? scope.variables.snapshot : Self.noVariables
    }

    /// No vars, made once: an empty dictionary literal is built by a call at each use.
    private static let noVariables: [String: JSONValue] = [:]

    /// Runs the regular steps as their dependencies complete, at most `maxConcurrentSteps` at a time, and a failed
    /// run's compensations: the driver of a ``RunStateMachine``, which decides (and produces the workflow outputs);
    /// this only runs steps, handlers and compensations, awaits them and the deadline, and records reports.
    private mutating func schedule(runner: StepRunner, scope: RunScope) async -> Outcome {
        var drive = Drive(
            machine: RunStateMachine(
                plan: plan, scope: scope, limit: engine.maxConcurrentSteps, seed: engine.readyOrderSeed),
            journal: journal)
        drive.take(.started(runID: runID, vars: vars(of: scope)))
        let deadline = plan.workflow.deadline?.value
        // While one step at a time can start and no deadline races it, the steps run in this task, without a task
        // group: nothing could run beside such a step (only its completion can make another step ready), and a
        // group and a child task per step would cost allocations and thread hand-offs for nothing.
        if deadline == nil {
            while true {
                if let outcome = await perform(&drive, runner: runner, scope: scope, cancelRunning: {}) {
                    return outcome
                }
                guard drive.running == 0, drive.starts.count <= 1 else { break }
                if drive.starts.isEmpty {
                    // Asked to cancel what runs, with nothing running: the running steps are drained already.
                    precondition(drive.draining, "the run waits for nothing")
                    drive.take(.drained)
                    continue
                }
                await runInline(&drive, runner: runner, scope: scope)
            }
        }
        return await withTaskGroup(of: GroupEvent.self) { group in
            if let deadline {
                let timers = engine.clock.timers
                group.addTask {
                    await TimerWait.wait(for: deadline, on: timers) ? .deadlinePassed(deadline) : .deadlineCancelled
                }
            }
            while true {
                if let outcome = await perform(&drive, runner: runner, scope: scope, cancelRunning: { group.cancelAll() }) {
                    group.cancelAll()  // Stops the deadline timer.
                    return outcome
                }
                // The one step that can start, when none is running: without a deadline to race, it runs in this
                // task, as above.
                if deadline == nil, drive.running == 0, drive.starts.count == 1 {
                    await runInline(&drive, runner: runner, scope: scope)
                    continue
                }
                for start in drive.starts {
                    drive.running += 1
                    var stepScope = scope
                    stepScope.stepOutputs = start.outputs
                    stepScope.stepSeed = start.seed
                    let (planned, choice) = (start.step, start.choice)
                    if isObserved { observer?.stepStarted(planned.id) }
                    group.addTask { .finished(await Self.run(planned, choice: choice, runner: runner, scope: stepScope)) }
                }
                drive.starts.removeAll(keepingCapacity: true)  // The tasks have their outputs.
                guard let event = await group.next() else {
                    precondition(drive.draining, "the run waits for nothing")
                    drive.take(.drained)
                    continue
                }
                switch event {
                case .finished(let result):
                    drive.running -= 1
                    recordNestedReports(of: runner)
                    drive.take(.stepFinished(result, runCancelled: Task.isCancelled, vars: vars(of: scope)))
                case .deadlinePassed(let deadline):
                    drive.take(.deadlinePassed(deadline))
                case .deadlineCancelled:
                    break
                }
            }
        }
    }

    /// The driver's side of a run in progress: the machine, the actions it asked for and the steps to start.
    private struct Drive {
        var machine: RunStateMachine
        let journal: (any RunJournal)?
        /// One buffer of actions and one of starts for the whole run: no allocation per event.
        var actions: [RunStateMachine.Action] = []
        var starts: [Start] = []
        var running = 0
        var draining = false
        /// At most one draw from the system per run, not per step, and none for a run whose steps send no
        /// `Idempotency-Key`: the seeds only need to differ between runs and steps, and each is recorded in its
        /// start event. Nothing else of a step depends on a random value the run must replay.
        var generator = LazySeededGenerator()

        init(machine: RunStateMachine, journal: (any RunJournal)?) {
            self.machine = machine
            self.journal = journal
            actions.reserveCapacity(8)
        }

        /// The action at `index`, moved out of ``actions`` with a payload-free one left in its place: what it
        /// carries (a step's report, the outputs a step reads) is then the caller's, not copied.
        mutating func takeAction(at index: Int) -> RunStateMachine.Action {
            var action = RunStateMachine.Action.cancelRunningSteps
            swap(&action, &actions[index])
            return action
        }

        /// Empties ``actions``, keeping its buffer. Element by element: `removeAll(keepingCapacity:)` goes through
        /// the generic `replaceSubrange`, several times the work for the one or two actions an event leads to.
        mutating func clearActions() {
            while !actions.isEmpty { actions.removeLast() }
        }

        /// Hands `event` to the machine, recorded first when the run keeps a journal: every input of the machine
        /// goes through here.
        mutating func take(_ event: consuming RunEvent) {
            journal?.record(event)
            machine.apply(event, into: &actions)
        }
    }

    /// Performs the actions the machine asked for, in order, until none is left: records reports, runs handlers
    /// and compensations, and collects the steps to start in `drive.starts`.
    /// - Parameter cancelRunning: Cancels the steps running in child tasks, if any.
    /// - Returns: The run's outcome, once the machine finishes it.
    ///
    /// Inlined into the scheduling loops, like ``runInline(_:runner:scope:)``: an async function is a frame
    /// allocated and freed on the task at every call, and this one is called after every event.
    @inline(__always)
    private mutating func perform(
        _ drive: inout Drive, runner: StepRunner, scope: RunScope, cancelRunning: () -> Void
    ) async -> Outcome? {
        var index = 0
        while index < drive.actions.count {
            let action = drive.takeAction(at: index)
            switch consume action {
            case .startStep(let planned, let outputs):
                var seed: UInt64?
                if planned.step.idempotencyKey {
                    seed = drive.generator.next()
                    drive.take(.stepStarted(id: planned.id, seed: seed!))
                }
                drive.starts.append(Start(step: planned, choice: nil, outputs: outputs, seed: seed))
            case .startSwitchCase(let planned, let choice, let outputs):
                var seed: UInt64?
                if plan.step(choice.step)?.step.idempotencyKey == true {
                    seed = drive.generator.next()
                    drive.take(.stepStarted(id: planned.id, seed: seed!))
                }
                drive.starts.append(Start(step: planned, choice: choice, outputs: outputs, seed: seed))
            case .record(var report):
                // A step its `if` skipped has its `else` values as outputs, which may hold a secret, and
                // one its `switch` skipped names the value in its reason.
                if report.status == .skipped, !report.outputs.isEmpty {
                    report.outputs = redactor.redact(.object(report.outputs)).objectValue ?? [:]
                }
                if let reason = report.skipReason { report.skipReason = redactor.redact(reason) }
                // An `else` or `fallback` value that could not be evaluated may quote a secret.
                if let error = report.error { report.error = redactor.redact(error) }
                record(report)
            case .caught(let stepID, let action, let code):
                runSpan?.span.addEvent(SpanEvent(
                    name: "flowrun.catch",
                    attributes: [
                        "flowrun.step.id": .string(stepID), "flowrun.catch.action": .string(action),
                        "error.type": .string(code.name),
                    ]))
            case .runHandler(let id, let outputs, let response, let retryDelay):
                if let retryDelay {
                    // Waiting changes nothing the machine decides: its state follows the handler's result alone.
                    let asked = response.flatMap { RetryAfter.delay(in: $0.headers) } ?? .zero
                    let wait = max(retryDelay, min(asked, RetryRule.defaultRetryAfterMax))
                    if wait > .zero { _ = await TimerWait.wait(for: wait, on: engine.clock.timers) }
                }
                var handlerScope = scope
                handlerScope.stepOutputs = outputs
                handlerScope.response = response
                let handled = await runner.run(plan.step(id)!, scope: handlerScope)
                drive.take(.handlerFinished(handled, vars: vars(of: scope)))
            case .cancelRunningSteps:
                cancelRunning()
                drive.draining = true
            case .runCompensation(let id, let outputs):
                // The run's steps are over: only the deadline timer is left to cancel, and a failed run's
                // compensations do not race it.
                cancelRunning()
                var compensationScope = scope
                compensationScope.stepOutputs = outputs
                let result = await runner.run(plan.compensations[id]!, scope: compensationScope)
                recordNestedReports(of: runner)
                drive.take(.compensationFinished(result))
            case .finish(var outcome):
                // The machine has no redactor: a workflow output it could not produce may name a secret.
                outcome.error = outcome.error.map { redactor.redact($0) }
                drive.clearActions()
                return outcome
            }
            index += 1
        }
        // Done with them: the outputs the start actions carry must not stay shared, or the machine would copy
        // them whole when it records the next step's.
        drive.clearActions()
        return nil
    }

    /// Runs the one step to start in this task and hands its result to the machine. The outputs it reads are
    /// released when it returns, before the machine records the step's own: shared, they would be copied whole
    /// at every step of a chain.
    @inline(__always)
    private mutating func runInline(_ drive: inout Drive, runner: StepRunner, scope: RunScope) async {
        let result: StepResult
        do {  // The start and its scope end here.
            let start = drive.starts.removeLast()
            var stepScope = scope
            stepScope.stepOutputs = start.outputs
            stepScope.stepSeed = start.seed
            if isObserved { observer?.stepStarted(start.step.id) }
            result = await Self.run(start.step, choice: start.choice, runner: runner, scope: stepScope)
        }
        recordNestedReports(of: runner)
        drive.take(.stepFinished(consume result, runCancelled: Task.isCancelled, vars: vars(of: scope)))
    }


    /// Runs `planned`, or for a switch step the case step `choice` names in its place.
    private static func run(
        _ planned: PlannedStep, choice: Switch.Choice?, runner: StepRunner, scope: RunScope
    ) async -> StepResult {
        if let choice { return await runner.runCase(choice, of: planned, scope: scope) }
        return await runner.run(planned, scope: scope)
    }

    /// A step the machine started: the step, the case step a switch step runs, the outputs its scope reads.
    private struct Start {
        var step: PlannedStep
        var choice: Switch.Choice?
        var outputs: OutputTable
        /// The seed the driver drew for this start (``RunEvent/stepStarted(id:seed:)``), for a step that sends an
        /// `Idempotency-Key`.
        var seed: UInt64?
    }

    /// What the scheduling task group reports.
    private enum GroupEvent: Sendable {
        case finished(StepResult)
        case deadlinePassed(Duration)
        case deadlineCancelled
    }
}
