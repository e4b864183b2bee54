extension PolicyAnalysis {
    /// The worst case of switch step `planned`, which runs one of its case steps: the attempts and requests of
    /// the case step that sends the most, and the longest duration of any of them.
    static func worstCase(ofSwitch planned: PlannedStep, _ setting: Switch, in plan: Plan) -> StepWorstCase {
        let cases = setting.stepIDs.compactMap { plan.step($0) }.map { worstCase(of: $0, in: plan, asRefresh: false) }
        var worst = cases.max { $0.requests < $1.requests }
            ?? StepWorstCase(
                id: planned.id, policy: nil, isOnDemand: false, attempts: 0, attemptLimit: .noRetries,
                attemptsByRules: 0, refresh: nil, requestsPerAttempt: 1, retryDelays: .zero, duration: .atMost(.zero))
        worst.id = planned.id
        worst.policy = nil
        worst.isOnDemand = planned.step.onDemand
        worst.duration = cases.map(\.duration).max { $1.isLonger(than: $0) } ?? worst.duration
        worst.switchCases = setting.stepIDs
        return worst
    }
}

extension PolicyAnalysis.DurationBound {
    /// Whether a step bounded so can take longer than one bounded by `other`: unbounded is longest.
    func isLonger(than other: Self) -> Bool {
        switch (self.limit, other.limit) {
        case (nil, nil), (_?, nil): false
        case (nil, _?): true
        case (let mine?, let theirs?): mine > theirs
        }
    }

    /// The longest the step can take, `nil` when unbounded.
    private var limit: Duration? {
        switch self {
        case .atMost(let duration), .totalTimeout(let duration): duration
        case .unbounded: nil
        }
    }
}
