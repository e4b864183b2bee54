/// Checks of the `catch` rules, the workflow outputs and unused declarations.
extension CompilationSession {
    /// Checks the workflow's `catch` rules and every step's `on-error` rules.
    mutating func checkCatchRules() {
        for rule in workflow.catchRules {
            var step: Step?
            if let name = rule.step {
                step = stepsByID[name.value]
                if step == nil {
                    unknownStep(name.value,
                          "unknown step '\(name.value)'\(Suggestion.didYouMean(name.value, in: stepsByID.keys))",
                          at: name.location)
                }
            }
            checkCatchRule(rule, of: step, role: "the catch rule")
        }
        for step in workflow.steps {
            for rule in step.onError {
                checkCatchRule(rule, of: step, role: "the on-error rule of step '\(step.id.value)'")
            }
            for rule in step.onSuccess {
                // An Arazzo `goto` to a workflow runs the on-demand step that calls it, or the workflow's
                // `dependsOn-<id>` step again for a workflow in its `dependsOn`.
                if case .run(let target) = rule.action {
                    invokedSteps.insert(target.value)
                    if stepsByID[target.value]?.onDemand == false { continue }
                    checkOnDemandTarget(target, role: "success action '\(rule.name)'")
                }
            }
        }
        checkFailureHandlersHaveResponses()
    }

    /// Checks one rule; `step` is the step whose failures it handles, `nil` for any step, and `role` names the
    /// rule in messages (a catch rule, or a step's on-error rule).
    private mutating func checkCatchRule(_ rule: CatchRule, of step: Step?, role: String) {
        let context = BindingContext.failure(step)
        if let condition = rule.when.condition {
            checkCondition(condition, in: context)
        }
        switch rule.action {
        case .fallback(let bindings):
            let declared = step.map { Set(outputNames(of: $0)) }
            for binding in bindings {
                if let step, let declared, !declared.contains(binding.name.value) {
                    error(.unknownReference,
                          "the fallback sets output '\(binding.name.value)', which step '\(step.id.value)' does not declare\(Suggestion.didYouMean(binding.name.value, in: declared))",
                          at: binding.name.location)
                }
                _ = checkTemplate(binding.value, in: context, placement: .value, at: binding.name.location)
            }
        case .goto(let target):
            if stepsByID[target.value] == nil {
                unknownStep(target.value,
                      "'goto' names unknown step '\(target.value)'\(Suggestion.didYouMean(target.value, in: stepsByID.keys))",
                      at: target.location)
            }
        case .run(let target, let then):
            invokedSteps.insert(target.value)
            if then == .retry || then == .end, stepsByID[target.value] != nil {
                // An Arazzo `retry` with a `stepId` runs a step of the workflow, then the failed step again: the
                // step runs in its place in the workflow too. So does a `retry` or `goto` to a workflow in
                // `dependsOn`, whose `dependsOn-<id>` step runs again.
                break
            }
            checkOnDemandTarget(target, role: role)
        case .end(let bindings):
            let declared = Set(workflow.outputs.map(\.name.value))
            for binding in bindings {
                if !declared.contains(binding.name.value) {
                    error(.unknownReference,
                          "'end' sets workflow output '\(binding.name.value)', which 'outputs' does not declare\(Suggestion.didYouMean(binding.name.value, in: declared))",
                          at: binding.name.location)
                }
                _ = checkTemplate(binding.value, in: context, placement: .value, at: binding.name.location)
            }
        case .fail:
            break
        }
    }

    mutating func checkWorkflowOutputs() {
        var seen: Set<String> = []
        for output in workflow.outputs {
            if !seen.insert(output.name.value).inserted {
                error(.duplicateName, "duplicate workflow output '\(output.name.value)'", at: output.name.location)
            }
            let type = checkTemplate(output.value, in: .workflowOutputs, placement: .value, at: output.name.location)
            if let type { workflowOutputTypes[output.name.value] = type }
        }
    }

    /// Warns about declarations nothing uses and on-demand steps nothing runs.
    mutating func reportUnused() {
        // A malformed expression reads nothing that can be known, so "never used" would follow from it.
        let readsAreKnown = !diagnostics.contains { $0.code == .invalidExpression && $0.severity == .error }
        for type in workflow.types where !type.imported && !usedTypes.contains(type.name.value) {
            warning(.unused, "type '\(type.name.value)' is never used", at: type.name.location)
        }
        for server in workflow.servers where !usedServers.contains(server.name.value) {
            warning(.unused, "server '\(server.name.value)' is never used", at: server.name.location)
        }
        for declaration in workflow.interceptors where !usedInterceptors.contains(declaration.name.value) {
            warning(.unused, "interceptor '\(declaration.name.value)' is never used", at: declaration.name.location)
        }
        for policy in workflow.policies where !usedPolicies.contains(policy.name.value) {
            warning(.unused, "policy '\(policy.name.value)' is never used", at: policy.name.location)
        }
        for binding in workflow.vars where readsAreKnown && !usedVars.contains(binding.name.value) {
            warning(.unused, "var '\(binding.name.value)' is never used", at: binding.name.location)
        }
        for variable in workflow.environment where readsAreKnown && !usedEnvironment.contains(variable.name.value) {
            warning(.unused, "environment variable '\(variable.name.value)' is never used", at: variable.name.location)
        }
        if let inputs = workflow.inputs.flatMap({ navigator.resolve($0) }) {
            for property in inputs.properties where readsAreKnown && !usedInputs.contains(property.name) {
                warning(.unused, "input '\(property.name)' is never used", at: property.schema.location)
            }
        }
        for step in workflow.steps where step.onDemand && !invokedSteps.contains(step.id.value) {
            warning(.unreachable,
                    "on-demand step '\(step.id.value)' never runs: no interceptor, catch or on-error rule, compensation or switch runs it",
                    at: step.id.location)
        }
    }
}
