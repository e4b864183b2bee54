/// Checks of `compensate:` — what undoes a step when the run fails after it succeeded.
extension CompilationSession {
    /// Checks every step's compensation and plans the inline compensation requests.
    ///
    /// A compensation may read the outputs of the step it undoes and of the steps that step depends
    /// on (directly or not): those have run whenever the step has. Any other step may not have run.
    /// - Parameter planned: The planned steps by id.
    /// - Returns: The planned compensation of each step that declares one, by step id.
    mutating func checkCompensations(_ planned: [String: PlannedStep]) -> [String: PlannedStep] {
        var compensations: [String: PlannedStep] = [:]
        for step in workflow.steps {
            guard let compensation = step.compensation, let parent = planned[step.id.value] else { continue }
            let reads: [Located<String>]
            let role = "the compensation of step '\(step.id.value)'"
            if step.onDemand {
                // Only regular steps are compensated when a run fails; on-demand ones are run by others.
                let location: SourceLocation = switch compensation {
                case .step(let target): target.location
                case .request(_, let location): location
                }
                error(.invalidValue, "an on-demand step cannot declare 'compensate'", at: location)
                continue
            }
            switch compensation {
            case .step(let target):
                invokedSteps.insert(target.value)
                checkOnDemandTarget(target, role: role)
                guard let handler = planned[target.value] else { continue }
                compensations[step.id.value] = handler
                reads = dependencies[target.value] ?? []
            case .request(let request, let location):
                checkRequest(request, in: .compensation(step))
                var undo = Step(
                    id: Located("\(step.id.value)/compensate", at: location), location: location, request: request)
                undo.onDemand = true
                compensations[step.id.value] = PlannedStep(
                    step: undo, dependencies: [], server: parent.server, interceptors: parent.interceptors,
                    policy: parent.policy, dispatcher: parent.dispatcher, outputTypes: [:], outputNames: [])
                reads = compensationReads[step.id.value] ?? []
            }
            let allowed = upstream(of: step.id.value)
            for read in reads where !allowed.contains(read.value) && stepsByID[read.value] != nil {
                error(.invalidValue,
                      "\(role) reads step '\(read.value)', which may not have run when '\(step.id.value)' is undone; it may read '\(step.id.value)' and the steps it depends on",
                      at: read.location)
            }
        }
        return compensations
    }

    /// A step and every step it depends on, directly or not.
    private func upstream(of id: String) -> Set<String> {
        var result: Set<String> = [id]
        var queue = [id]
        while let current = queue.popLast() {
            for dependency in dependencies[current] ?? [] where result.insert(dependency.value).inserted {
                queue.append(dependency.value)
            }
        }
        return result
    }
}
