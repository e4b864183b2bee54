extension Plan {
    /// Drives a ``RunStateMachine`` through `rounds` runs of this plan in which every step succeeds at once with
    /// no outputs: the transitions alone, no dispatcher, no clock, for `flowrun-benchmarks control`.
    /// - Returns: The number of events the machines took.
    package func driveStateMachine(rounds: Int) -> Int {
        let scope = RunScope(inputs: [:], environment: [:], variables: RunVariables([:]), response: nil)
        var events = 0
        for _ in 0..<rounds {
            var machine = RunStateMachine(plan: self, scope: scope, limit: 8, seed: nil)
            var pending: [RunStateMachine.Action] = []
            var started: [String] = []
            machine.start(into: &pending)
            events += 1
            while !pending.isEmpty {
                // Only the ids: an action kept alive would keep the outputs it carries shared, and the machine
                // would copy them at its next change.
                for action in pending { if case .startStep(let planned, _) = action { started.append(planned.id) } }
                pending.removeAll(keepingCapacity: true)
                for id in started {
                    let report = StepReport(
                        id: id, status: .succeeded, attempts: [], startedAfter: .zero, duration: .zero, outputs: [:])
                    machine.stepFinished(StepResult(outputs: [:], report: report), runCancelled: false, into: &pending)
                    events += 1
                }
                started.removeAll(keepingCapacity: true)
            }
        }
        return events
    }
}
