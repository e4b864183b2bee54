import Logging

/// What a `workflow:` step needs to run the workflow it calls as a nested run: the calling run's engine
/// settings (dispatchers, registries, clock, logger, circuit breakers) and the environment it was given.
struct NestedRunContext: Sendable {
    /// The engine settings of the calling run.
    let engine: EngineSettings
    /// The calling run's id and logger, which the called run shares.
    let runID: String
    let logger: Logger
    /// The process environment the calling run was given, from which the called workflow reads the
    /// variables it declares.
    let environment: [String: String]
}

/// Running a `workflow:` step: the called workflow's plan, as a run of its own inside this one.
extension StepRunner {
    /// Runs the workflow `planned` calls with the inputs it binds, and gives its outputs as the step's.
    ///
    /// The called workflow runs with its own servers, interceptors, policies and `catch` rules, on the same
    /// dispatchers, clock, tracer and redactor, so its secrets are hidden in this run's report too. Its
    /// steps' reports become the step's ``StepReport/subSteps``. A failed run fails the step with the
    /// called workflow's error, its message prefixed with the file and the step that failed.
    func runSubWorkflow(_ planned: PlannedStep, _ callee: Plan, scope: RunScope) async -> StepResult {
        let started = clock.now
        // An Arazzo document's workflow by its id; a workflow file by its path as written.
        let written = planned.step.call.map { $0.arazzoWorkflowID ?? $0.path.value } ?? callee.workflow.path
        var report = StepReport(
            id: planned.id, status: .succeeded, attempts: [], startedAfter: runStart.duration(to: started),
            duration: .zero, outputs: [:], error: nil)
        report.workflow = written
        func failed(_ error: FlowError) -> StepResult {
            var error = error
            error.stepID = planned.id  // The calling step, not the called workflow's.
            return failure(error, of: planned, report: report, started: started)
        }
        var inputs: [String: JSONValue] = [:]
        for binding in planned.step.call?.inputs ?? [] {
            do {
                inputs[binding.name.value] = try scope.evaluate(binding.value)
            } catch {
                var error = error
                error.message = "cannot bind input '\(binding.name.value)' of workflow '\(written)': \(error.message)"
                error.location = binding.name.location
                return failed(error)
            }
        }
        // The called run is one step of this one: its result is this run's event, with no journal of its own.
        var run = RunExecution(
            engine: nestedRuns.engine, runID: nestedRuns.runID, logger: nestedRuns.logger, plan: callee, start: runStart, observer: nil, tracer: tracer, redactor: redactor,
            keepsJournal: false)
        let outcome = await run.execute(inputs: inputs, environment: nestedRuns.environment)
        report.subSteps = run.reports
        if var error = outcome.error {
            let step = error.stepID.map { " step '\($0)'" } ?? ""
            error.message = "workflow '\(written)'\(step): \(error.message)"
            return failed(error)
        }
        report.duration = started.duration(to: clock.now)
        report.outputs = redactor.redact(.object(outcome.outputs)).objectValue ?? [:]
        return StepResult(outputs: StepOutputs(outcome.outputs), report: report)
    }
}
