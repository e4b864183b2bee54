/// Running a `switch` step: the case step its value chose runs in its place.
extension StepRunner {
    /// Runs the case step that `choice` names as switch step `planned`: the result is the case step's, reported
    /// under the switch step's id with ``StepReport/chose`` and ``StepReport/matchedCase``; a failure names the
    /// switch step, its message the case (`case 'DE' (step 'sepaPayout'): status 503`).
    func runCase(_ choice: Switch.Choice, of planned: PlannedStep, scope: RunScope) async -> StepResult {
        guard let target = plan.step(choice.step) else {
            // The compiler refuses a case step that does not exist.
            let error = FlowError(.unsupported, "switch step '\(planned.id)' has no step '\(choice.step)' to run")
            var report = StepReport.skipped(planned.id)
            report.status = .failed
            report.error = error
            return StepResult(outputs: [:], report: report, error: error)
        }
        var result = await run(target, scope: scope)
        result.report.id = planned.id
        result.report.chose = choice.step
        result.report.matchedCase = choice.key
        if var error = result.error {
            error.stepID = planned.id
            error.message = "case '\(choice.key)' (step '\(choice.step)'): " + error.message
            result.error = error
            result.report.error = error
        }
        return result
    }
}
