extension PolicyAnalysis {
    /// A `workflow:` step's called file and what one run of it can send and take at most.
    public struct SubWorkflowCost: Sendable, Hashable {
        /// The called file, as the step names it.
        public var path: String
        /// The called workflow's total.
        public var total: Total

        /// Creates a sub-workflow cost.
        /// - Parameters:
        ///   - path: The called file as written.
        ///   - total: Its total.
        public init(path: String, total: Total) {
            self.path = path
            self.total = total
        }
    }

    /// The worst case of `workflow:` step `planned`: one run of the called workflow, its total as the step's
    /// requests and duration (a `forEach` in it adds per item, as its total lists).
    static func worstCase(ofCall planned: PlannedStep, _ call: SubWorkflowCall, callee: Plan) -> StepWorstCase {
        let total = PolicyAnalysis(plan: callee).total
        let duration: DurationBound = total.duration.map { .atMost($0) } ?? .unbounded(.noTimeout)
        return StepWorstCase(
            id: planned.id, policy: nil, isOnDemand: planned.step.onDemand, attempts: 1, attemptLimit: .noRetries,
            attemptsByRules: 1, refresh: nil, requestsPerAttempt: total.requests, retryDelays: .zero,
            duration: duration, subWorkflow: SubWorkflowCost(path: call.path.value, total: total))
    }
}
