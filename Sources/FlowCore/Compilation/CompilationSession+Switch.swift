/// Checks of `switch:` steps: every case runs an on-demand step, the case steps declare the same outputs (the
/// switch step's outputs, typed as the union of theirs), every case key can match the value's type, and the
/// step runs after everything its case steps read.
extension CompilationSession {
    /// Checks the `switch` of `step`.
    mutating func checkSwitch(of step: Step) {
        guard let setting = step.switch else { return }
        for target in setting.cases.map(\.step) + (setting.fallback.map { [$0] } ?? []) {
            invokedSteps.insert(target.value)
            checkOnDemandTarget(target, role: "switch step '\(step.id.value)'")
        }
        if let type = typeOf(setting.value, at: setting.location, in: .switchValue(step)) {
            checkCaseKeys(of: setting, against: type)
        }
        checkCaseOutputs(of: setting, in: step)
    }

    /// The outputs of a switch step: those its case steps declare, each typed as the union of the case steps'
    /// types of it (`nil` when one of them is unknown).
    mutating func switchOutputTypes(_ setting: Switch) -> [String: JSONSchema?] {
        var types: [String: JSONSchema?] = [:]
        for target in caseSteps(of: setting) {
            for (name, type) in outputTypes(of: target.id.value) {
                guard let known = types[name] else {
                    types[name] = .some(type)
                    continue
                }
                if let known, let type {
                    types[name] = navigator.union(known, type, at: setting.location)
                } else {
                    types[name] = .some(nil)
                }
            }
        }
        return types
    }

    /// Orders each switch step after what its case steps read: they run in its place, with the outputs and vars
    /// known when it starts.
    mutating func addSwitchDependencies() {
        for step in workflow.steps {
            guard let setting = step.switch else { continue }
            for target in caseSteps(of: setting) {
                let id = target.id.value
                let reads = (dependencies[id] ?? []).filter { !(stepsByID[$0.value]?.onDemand ?? true) }
                dependencies[step.id.value, default: []] += reads
                varReads[step.id.value, default: []].formUnion(varReads[id] ?? [])
            }
        }
    }

    /// Whether step `id` is a case step of some switch.
    func isSwitchCase(_ id: String) -> Bool {
        workflow.steps.contains { $0.switch?.stepIDs.contains(id) ?? false }
    }

    /// The declared on-demand steps a switch may run, each once, in file order.
    func caseSteps(of setting: Switch) -> [Step] {
        setting.stepIDs.compactMap { stepsByID[$0] }.filter(\.onDemand)
    }

    /// Refuses a switch on an array or an object, and a case key that no value of the switch's type can match.
    private mutating func checkCaseKeys(of setting: Switch, against type: JSONSchema) {
        guard let resolved = navigator.resolve(type) else { return }
        let types = resolved.types ?? []
        if !types.isEmpty, types.isSubset(of: [.array, .object]) {
            let member = scalarMemberPointer(in: resolved).map { "; switch on one of its members, such as '\(setting.value)#\($0)'" } ?? ""
            error(.bindingTypeMismatch,
                  "'switch' reads '\(setting.value)', which is \(navigator.describe(type)); a switch compares a "
                      + "string, number or boolean with its cases\(member)",
                  at: setting.location)
            return
        }
        let allowed = resolved.enumValues ?? resolved.constValue.map { [$0] }
        for key in setting.cases {
            if let allowed {
                guard !allowed.contains(where: key.matches) else { continue }
                let names = allowed.map { $0.stringValue ?? $0.serialized() }
                error(.bindingTypeMismatch,
                      "case '\(key.text)' can never match: '\(setting.value)' is one of \(names.joined(separator: ", "))"
                          + Suggestion.didYouMean(key.text, in: names),
                      at: key.location)
            } else if !types.isEmpty, !types.contains(where: { key.canMatch($0) }) {
                let spellings = JSONSchema.TypeName.allCases.filter(types.contains).compactMap(\.caseSpelling)
                error(.bindingTypeMismatch,
                      "case '\(key.text)' can never match: '\(setting.value)' is \(navigator.describe(type))"
                          + (spellings.isEmpty ? "" : "; write the case as \(spellings.joined(separator: " or "))"),
                      at: key.location)
            }
        }
    }

    /// Refuses case steps that declare different outputs: readers of the switch step must find the same names
    /// whichever case ran.
    private mutating func checkCaseOutputs(of setting: Switch, in step: Step) {
        let targets = caseSteps(of: setting)
        guard let first = targets.first else { return }
        let expected = first.outputs.map(\.name.value)
        for target in targets.dropFirst() {
            let names = target.outputs.map(\.name.value)
            let missing = expected.filter { !names.contains($0) }
            let extra = names.filter { !expected.contains($0) }
            guard !missing.isEmpty || !extra.isEmpty else { continue }
            var differences: [String] = []
            if !missing.isEmpty { differences.append("lacks " + missing.map { "'\($0)'" }.joined(separator: ", ")) }
            if !extra.isEmpty { differences.append("has " + extra.map { "'\($0)'" }.joined(separator: ", ")) }
            let key = setting.cases.first { $0.step.value == target.id.value }
            error(.invalidValue,
                  "the case steps of switch step '\(step.id.value)' must declare the same outputs (they are its "
                      + "outputs): '\(target.id.value)' (\(describeCase(running: target.id.value, in: setting))) "
                      + "\(differences.joined(separator: " and ")), unlike '\(first.id.value)' "
                      + "(\(describeCase(running: first.id.value, in: setting)))",
                  at: key?.location ?? setting.fallback?.location)
        }
    }

    /// `case 'DE'` or `the default`: what runs step `id` first in `setting`, for messages.
    private func describeCase(running id: String, in setting: Switch) -> String {
        setting.cases.first { $0.step.value == id }.map { "case '\($0.text)'" } ?? "the default"
    }
}

extension Switch.Case {
    /// Whether some value of type `type` can match the key: any key can match a string (by its text), a key
    /// written as a number a number, `true` or `false` a boolean, `null` null.
    func canMatch(_ type: JSONSchema.TypeName) -> Bool {
        switch type {
        case .string: true
        case .integer: value.doubleValue.map { $0.rounded() == $0 } ?? false
        case .number: value.doubleValue != nil
        case .boolean: if case .bool = value { true } else { false }
        case .null: value == .null
        case .array, .object: false
        }
    }
}

extension JSONSchema.TypeName {
    /// How a case key that matches a value of this type is written, for messages; `nil` for array and object.
    var caseSpelling: String? {
        switch self {
        case .string: "any text"
        case .integer: "a whole number such as 1"
        case .number: "a number such as 1.5"
        case .boolean: "true or false"
        case .null: "null"
        case .array, .object: nil
        }
    }
}
