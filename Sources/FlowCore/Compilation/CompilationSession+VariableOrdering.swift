extension CompilationSession {
    /// Warns when a step's interceptor reads a var that another regular step `set`s, and nothing orders the two.
    ///
    /// Interceptors read vars at each call and do not order steps (docs/workflow-format.md, step order), so
    /// `bearer: $vars.token` on a step that runs beside the one that sets `token` may go out with the old
    /// token over a real network, while zero-latency stubs happen to pass. A setter ordered before the reader,
    /// or after it, is deterministic and passes.
    mutating func checkVariableOrdering() {
        var setters: [String: [Step]] = [:]
        for step in workflow.steps where !step.onDemand {
            for binding in step.set { setters[binding.name.value, default: []].append(step) }
        }
        guard !setters.isEmpty else { return }
        var waitedForBy: [String: [String]] = [:]
        for (step, waits) in dependencies {
            for wait in waits { waitedForBy[wait.value, default: []].append(step) }
        }
        var before: [String: Set<String>] = [:]  // setter → the steps it runs before
        var after: [String: Set<String>] = [:]  // setter → the steps that run before it
        for step in workflow.steps where !step.onDemand {
            guard let declared = step.interceptors ?? workflow.defaults.interceptors else { continue }
            var reported: Set<String> = []
            for name in declared {
                guard let declaration = interceptorsByName[name.value] else { continue }
                for value in declaration.kind.values {
                    for (expression, _) in value.expressions {
                        guard case .variable(let variable) = expression.source, reported.insert(variable).inserted
                        else { continue }
                        for setter in setters[variable] ?? [] where setter.id.value != step.id.value {
                            let id = setter.id.value
                            if before[id] == nil { before[id] = reachable(from: id, through: waitedForBy) }
                            if after[id] == nil {
                                after[id] = reachable(from: id, through: dependencies.mapValues { $0.map(\.value) })
                            }
                            guard !before[id]!.contains(step.id.value), !after[id]!.contains(step.id.value) else {
                                continue
                            }
                            warning(.unorderedVar,
                                    "step '\(step.id.value)' sends var '\(variable)' through interceptor "
                                        + "'\(declaration.name.value)', which step '\(id)' sets, but nothing orders "
                                        + "'\(id)' before it: over a network the request may go out with the old "
                                        + "value; add 'after: [\(id)]' to step '\(step.id.value)'",
                                    at: step.id.location)
                        }
                    }
                }
            }
        }
    }

    /// The steps reachable from `start` along `edges`, `start` excluded.
    private func reachable(from start: String, through edges: [String: [String]]) -> Set<String> {
        var seen: Set<String> = []
        var stack = edges[start] ?? []
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            stack.append(contentsOf: edges[next] ?? [])
        }
        return seen
    }
}
