/// Ordering of steps by their data dependencies, and refusal of cycles.
extension CompilationSession {
    /// The step ids in an order where every step comes after the steps it depends on; on-demand steps last.
    ///
    /// Besides reading `$steps.<id>.outputs`, a step depends on the steps it
    /// lists under `after`, and a step that reads `$vars.x` depends on every
    /// regular step that `set`s `x`, so a reader sees the updated value.
    mutating func orderSteps() -> [String] {
        addVariableDependencies()
        let ids = workflow.steps.map(\.id.value)
        var order: [String] = []
        var state: [String: VisitState] = [:]
        var path: [String] = []
        var reportedCycles: Set<Set<String>> = []

        func visit(_ id: String, session: inout CompilationSession) {
            switch state[id] {
            case .done?: return
            case .visiting?:
                let cycle = Array(path[path.lastIndex(of: id)!...]) + [id]
                let members = Set(cycle)
                if reportedCycles.insert(members).inserted {
                    let location = session.dependencies[cycle[cycle.count - 2]]?.first { $0.value == id }?.location
                        ?? session.stepsByID[id]?.id.location
                    session.error(.dependencyCycle,
                                  "steps depend on each other in a cycle: \(cycle.joined(separator: " → "))",
                                  at: location)
                }
                return
            case nil:
                state[id] = .visiting
                path.append(id)
                for dependency in session.dependencies[id] ?? [] where session.stepsByID[dependency.value] != nil {
                    visit(dependency.value, session: &session)
                }
                path.removeLast()
                state[id] = .done
                order.append(id)
            }
        }
        for id in ids where !(stepsByID[id]?.onDemand ?? false) { visit(id, session: &self) }
        for id in ids where stepsByID[id]?.onDemand ?? false { visit(id, session: &self) }
        var seen: Set<String> = []
        let regular = order.filter { !(stepsByID[$0]?.onDemand ?? false) && seen.insert($0).inserted }
        let onDemand = order.filter { stepsByID[$0]?.onDemand ?? false && seen.insert($0).inserted }
        return regular + onDemand
    }

    private enum VisitState { case visiting, done }

    private mutating func addVariableDependencies() {
        var setters: [String: [Step]] = [:]
        for step in workflow.steps where !step.onDemand {
            for binding in step.set { setters[binding.name.value, default: []].append(step) }
        }
        for (reader, names) in varReads {
            for name in names.sorted() {
                for setter in setters[name] ?? [] where setter.id.value != reader {
                    dependencies[reader, default: []].append(Located(setter.id.value, at: setter.id.location))
                }
            }
        }
    }

    /// The distinct step ids a step waits for, in first-mention order.
    func dependencyIDs(of id: String) -> [String] {
        var seen: Set<String> = []
        return (dependencies[id] ?? []).map(\.value).filter { stepsByID[$0] != nil && seen.insert($0).inserted }
    }
}
