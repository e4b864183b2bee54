/// Checks of `if:` and `else:` on steps: the condition reads what a request may read, `else` gives values to
/// declared outputs that fit their types, and a reader of a step that may be skipped is guarded.
extension CompilationSession {
    /// Checks the `if` and `else` of `step`.
    mutating func checkCondition(of step: Step) {
        if let condition = step.condition {
            if step.onDemand {
                error(.invalidValue,
                      "step '\(step.id.value)' is on-demand: a rule or interceptor runs it, so 'if' does not apply; "
                          + "put the condition on the rule ('when: { if: … }')",
                      at: condition.location)
                return
            }
            checkCondition(condition, in: .stepCondition(step))
        } else if !(step.switch?.mayMatchNoCase ?? false) {
            return  // Never skipped: the decoder refused any `else`.
        }
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

    /// Why a reader of an output of `target` may find it missing, when it may: `target` has an `if` that does
    /// not guard `reader`, or a switch without a default. `nil` when `target` always runs when its readers do.
    func skipCause(of target: Step, reader: Step?) -> SkipCause? {
        if let setting = target.switch, setting.mayMatchNoCase { return .unmatchedSwitch(setting) }
        if let condition = target.condition, !isGuarded(reader, by: condition) { return .condition(condition) }
        return nil
    }

    /// Whether `reader` is skipped whenever a step with `condition` is: it has the same `if`, and the condition
    /// reads only inputs or environment variables, which do not change during a run.
    func isGuarded(_ reader: Step?, by condition: Condition) -> Bool {
        guard let own = reader?.condition, own.text == condition.text else { return false }
        return condition.isFixedForTheRun
    }
}

/// What skips a step whose outputs another binding reads, for `maybe-skipped` messages.
enum SkipCause {
    /// Its `if` does not hold.
    case condition(Condition)
    /// Its switch value matches none of the cases, and there is no default.
    case unmatchedSwitch(Switch)

    /// When the step is skipped: "its 'if' (line 8) does not hold".
    var text: String {
        switch self {
        case .condition(let condition): "its 'if' (line \(condition.location.line)) does not hold"
        case .unmatchedSwitch(let setting): "its 'switch' value (line \(setting.location.line)) matches no case"
        }
    }

    /// The other way to guard `reader`, after the `else` value, for messages: ", or give step 'x' the same 'if'"
    /// when that guards it (the `if` reads only `$inputs` or `$env`); otherwise why the same `if` does not, when
    /// the reader has it already, since the `else` value is then the only remedy.
    func otherRemedy(reader: Step?) -> String {
        switch self {
        case .condition(let condition):
            guard let reader else { return "" }
            if condition.isFixedForTheRun { return ", or give step '\(reader.id.value)' the same 'if'" }
            guard reader.condition?.text == condition.text else { return "" }
            return "; the same 'if' on step '\(reader.id.value)' is no guard, as the condition reads more than "
                + "$inputs or $env and may change before the reader runs"
        case .unmatchedSwitch: return ", or give the switch a 'default' case"
        }
    }
}
