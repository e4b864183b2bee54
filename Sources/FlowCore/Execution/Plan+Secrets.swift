extension Plan {
    /// The inputs of `workflow` whose values are secrets (`format: password`).
    static func secretInputs(of workflow: Workflow, types: [String: JSONSchema]) -> Set<String> {
        guard let inputs = workflow.inputs else { return [] }
        let resolved = inputs.ref.flatMap { types[$0.value] } ?? inputs
        return Set(resolved.properties.filter { $0.schema.isSecret }.map(\.name))
    }

    /// The vars of `workflow` whose initial value reads a secret input or another secret var.
    ///
    /// Every value such a var later receives through `set` (a refreshed token) is a secret too.
    static func secretVariables(of workflow: Workflow, secretInputs: Set<String>) -> Set<String> {
        var secret: Set<String> = []
        var changed = true
        while changed {
            changed = false
            for binding in workflow.vars where !secret.contains(binding.name.value) {
                let readsSecret = binding.value.expressions.contains { expression, _ in
                    switch expression.source {
                    case .input(let name): secretInputs.contains(name)
                    case .variable(let name): secret.contains(name)
                    default: false
                    }
                }
                if readsSecret {
                    secret.insert(binding.name.value)
                    changed = true
                }
            }
        }
        return secret
    }
}
