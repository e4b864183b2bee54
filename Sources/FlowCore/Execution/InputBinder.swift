/// Checks a run's inputs against the workflow's `inputs` schema before any request is sent.
struct InputBinder {
    let plan: Plan
    let validator: JSONSchemaValidator

    /// The inputs with defaults applied.
    /// - Throws: ``FlowError`` with code ``FlowError/Code/validation`` naming every missing, unknown or mistyped input.
    func bind(_ given: [String: JSONValue]) throws(FlowError) -> [String: JSONValue] {
        guard let declared = plan.workflow.inputs else {
            if let name = given.keys.min() {
                throw FlowError(.validation, "the workflow takes no inputs, but input '\(name)' was given")
            }
            return [:]
        }
        let schema = declared.ref.flatMap { plan.types[$0.value] } ?? declared
        let isArazzo = plan.workflow.arazzoWorkflowID != nil
        // Arazzo reads null as absent: a calling workflow passes null for an input its own run was not given.
        var inputs = isArazzo ? given.filter { $0.value != .null } : given
        for property in schema.properties where inputs[property.name] == nil {
            if let value = property.schema.defaultValue { inputs[property.name] = value }
        }
        var problems: [String] = []
        if case .allowed(true) = schema.additionalProperties {} else if given.keys.contains(where: {
            schema.property($0) == nil
        }) {
            // Sorted, and the names listed for suggestions, only when some input is unknown.
            let names = schema.properties.map(\.name)
            for name in given.keys.sorted() where !names.contains(name) {
                problems.append("unknown input '\(name)'\(Suggestion.didYouMean(name, in: names))")
            }
        }
        for required in schema.required where inputs[required.value] == nil {
            problems.append("missing required input '\(required.value)'")
        }
        if problems.isEmpty {
            let secrets = plan.secretInputs
            problems = validator.validate(.object(inputs), against: schema).map { failure in
                let name = failure.pointer.tokens.first ?? ""
                let label = name.isEmpty ? "inputs" : "input '\(name)'"
                return secrets.contains(name) && failure.message.contains("found")
                    ? "\(label): \(failure.rule) check failed" : "\(label): \(failure.message)"
            }
        }
        guard problems.isEmpty else {
            throw FlowError(.validation, problems.joined(separator: "; "), at: declared.location)
        }
        if isArazzo {
            // Arazzo reads an input that was not given as absent, which it compares and sends as null.
            for property in schema.properties where inputs[property.name] == nil { inputs[property.name] = .null }
        }
        return inputs
    }
}
