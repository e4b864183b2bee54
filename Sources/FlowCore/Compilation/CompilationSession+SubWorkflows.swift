/// Checks of `workflow:` steps: the called file compiles (once per compilation), the files do not call each
/// other in a cycle, and the step gives every input the called workflow requires, no other, each of a type
/// that fits.
extension CompilationSession {
    /// The plan of the workflow that `step` calls, compiled on first use; `nil` after reporting why there is
    /// none (or for a step that calls nothing).
    mutating func calleePlan(of step: Step) -> Plan? {
        guard let call = step.call else { return nil }
        if let memo = calleeMemo[step.id.value] { return memo }
        let path = SubWorkflowLoader.resolve(call.path.value, from: workflow.path)
        var plan: Plan?
        switch subWorkflows.load(path, arazzoWorkflowID: call.arazzoWorkflowID) {
        case .compiled(let compiled):
            plan = compiled
        case .failed(let first) where first.code == .unreadableFile && first.location?.path == path:
            error(.subWorkflow,
                  "step '\(step.id.value)' calls \(call.target), which cannot be read: \(first.message) "
                      + "(a 'workflow' path is relative to the directory of this file)",
                  at: call.path.location)
        case .failed(let first):
            let place = first.location.map { "\($0.path):\($0.line):\($0.column): " } ?? ""
            error(.subWorkflow,
                  "step '\(step.id.value)' calls \(call.target), which has errors; the first: \(place)\(first.message)",
                  at: call.path.location)
        case .cycle(let chain):
            error(.subWorkflow,
                  "step '\(step.id.value)' calls \(call.target), which is already being run further up: the "
                      + (call.arazzoWorkflowID == nil ? "workflow files" : "workflows")
                      + " call each other in a cycle, \(chain.joined(separator: " → "))",
                  at: call.path.location)
        }
        calleeMemo[step.id.value] = .some(plan)
        return plan
    }

    /// The outputs of a `workflow:` step: the called workflow's outputs, with their types as it knows them
    /// (its named types inlined, since this workflow may declare others by the same names).
    mutating func calleeOutputTypes(of step: Step) -> [String: JSONSchema?] {
        guard let callee = calleePlan(of: step) else { return [:] }
        var types: [String: JSONSchema?] = [:]
        for output in callee.workflow.outputs {
            types[output.name.value] = .some(callee.outputTypes[output.name.value]?.inliningReferences(callee.types))
        }
        return types
    }

    /// Checks a `workflow:` step and plans it: its `if`, `after` and the inputs it binds.
    mutating func checkWorkflowCall(_ step: Step, _ call: SubWorkflowCall) -> PlannedStep {
        checkCondition(of: step)
        checkAfter(of: step)
        let callee = calleePlan(of: step)
        let calleeTypes = SchemaNavigator(types: callee?.types ?? [:])
        let declared = callee?.workflow.inputs.flatMap { calleeTypes.resolve($0) }
        var given: [String: SourceLocation] = [:]
        for binding in call.inputs {
            let name = binding.name.value
            if let first = given[name] {
                error(.duplicateName, "input '\(name)' is given twice (first at line \(first.line))",
                      at: binding.name.location)
            }
            given[name] = binding.name.location
            let type = checkTemplate(binding.value, in: .workflowInputs(step), placement: .value, at: binding.name.location)
            guard let callee else { continue }
            guard let declared else {
                error(.unknownReference,
                      "step '\(step.id.value)' gives input '\(name)', but \(call.target) declares no inputs",
                      at: binding.name.location)
                continue
            }
            guard let expected = declared.property(name) else {
                if case .allowed(true) = declared.additionalProperties { continue }
                let names = declared.properties.map(\.name)
                error(.unknownReference,
                      "\(call.target) has no input '\(name)'\(Suggestion.didYouMean(name, in: names))"
                          + (names.isEmpty ? "; its 'inputs' declares no properties" : ""),
                      at: binding.name.location)
                continue
            }
            checkInput(binding, of: type, fits: expected, in: callee, call: call)
        }
        for required in declared?.required ?? [] where given[required.value] == nil {
            if declared?.property(required.value)?.defaultValue != nil { continue }
            error(.missingKey,
                  "step '\(step.id.value)' does not give input '\(required.value)', which \(call.target) "
                      + "requires; bind it under 'inputs'",
                  at: call.path.location)
        }
        let outputs = outputTypes(of: step.id.value).compactMapValues { $0 }
        return PlannedStep(
            step: step, dependencies: [], server: nil, interceptors: [], policy: nil, dispatcher: "",
            outputTypes: outputs, outputNames: outputNames(of: step), subWorkflow: callee)
    }

    /// Reports a bound input whose value cannot have the type the called workflow declares: a literal that
    /// its schema refuses, or an expression whose type shares no JSON type with it.
    private mutating func checkInput(
        _ binding: Binding, of type: JSONSchema?, fits expected: JSONSchema, in callee: Plan, call: SubWorkflowCall
    ) {
        let name = binding.name.value
        let calleeTypes = SchemaNavigator(types: callee.types)
        if case .literal(let value) = binding.value {
            if let failure = callee.validator.validate(value, against: expected, maxFailures: 1).first {
                error(.bindingTypeMismatch,
                      "input '\(name)' of \(call.target) does not accept this value: \(failure.message)",
                      at: binding.name.location)
            }
            return
        }
        guard let type, let bound = navigator.resolve(type)?.types, !bound.isEmpty,
            let wanted = calleeTypes.resolve(expected)?.types, !wanted.isEmpty
        else { return }
        let accepted = wanted.contains(.number) ? wanted.union([.integer]) : wanted
        if bound.isDisjoint(with: accepted) {
            error(.bindingTypeMismatch,
                  "input '\(name)' of \(call.target) is \(calleeTypes.describe(expected)), but the value "
                      + "bound to it is \(navigator.describe(type))",
                  at: binding.value.firstLocation ?? binding.name.location)
        }
    }
}
