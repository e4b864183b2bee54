/// Checks of `if:` and `else:` on steps: the condition reads what a request may read, `else` gives values to
/// declared outputs that fit their types, and a reader of a step that may be skipped is guarded.
extension CompilationSession {
    /// Checks the `if` and `else` of `step`.
    mutating func checkCondition(of step: Step) {
        guard let condition = step.condition else { return }
        if step.onDemand {
            error(.invalidValue,
                  "step '\(step.id.value)' is on-demand: a rule or interceptor runs it, so 'if' does not apply; "
                      + "put the condition on the rule ('when: { if: … }')",
                  at: condition.location)
            return
        }
        _ = typeOf(condition.expression, at: condition.location, in: .stepCondition(step))
        let declared = outputTypes(of: step.id.value)
        for binding in step.otherwise {
            guard let outputType = declared[binding.name.value] else {
                let names = outputNames(of: step)
                error(.unknownReference,
                      "'else' gives output '\(binding.name.value)', which step '\(step.id.value)' does not declare"
                          + Suggestion.didYouMean(binding.name.value, in: names),
                      at: binding.name.location)
                continue
            }
            _ = checkTemplate(binding.value, in: .stepCondition(step), placement: .value, at: binding.name.location)
            // A literal must fit the type the output has when the step runs, so readers see one type.
            if case .literal(let value) = binding.value, let outputType {
                let failures = JSONSchemaValidator(types: navigator.types)
                    .validate(value, against: outputType, maxFailures: 1)
                if let failure = failures.first {
                    error(.bindingTypeMismatch,
                          "'else' value of output '\(binding.name.value)' does not fit the type the output has when "
                              + "the step runs: \(failure)",
                          at: binding.name.location)
                }
            }
        }
    }

    /// Whether `reader` is skipped whenever a step with `condition` is: it has the same `if`, and the condition
    /// reads only inputs or environment variables, which do not change during a run.
    func isGuarded(_ reader: Step?, by condition: Condition) -> Bool {
        guard let own = reader?.condition, own.text == condition.text else { return false }
        switch condition.expression.source {
        case .input, .environment: return true
        default: return false
        }
    }
}
