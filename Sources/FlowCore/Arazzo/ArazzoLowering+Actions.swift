/// An Arazzo step's success and failure actions as flowrun's success rules, retry rules and `on-error` rules,
/// and its reusable parameters resolved.
extension ArazzoLowering {
    /// Actions with component references resolved; a reference to nothing was reported by the checks.
    func resolve(
        _ items: [ArazzoReusable<ArazzoAction>],
        in section: KeyPath<ArazzoDocument.Components, [(name: Located<String>, action: ArazzoAction)]>
    ) -> [ArazzoAction] {
        items.compactMap { item in
            switch item {
            case .object(let action): return action
            case .reference(let reference, _):
                guard case .component(_, let name)? = try? ArazzoExpression.parsingLeniently(reference.value).expression
                else { return nil }
                return document.components[keyPath: section].first { $0.name.value == name }?.action
            }
        }
    }

    /// The step's actions, then the workflow's that the step does not replace by name.
    static func merged(_ own: [ArazzoAction], over inherited: [ArazzoAction]) -> [ArazzoAction] {
        own + inherited.filter { action in !own.contains { $0.name.value == action.name.value } }
    }

    mutating func successRules(
        merging own: [ArazzoAction], over inherited: [ArazzoAction], in step: ArazzoStep
    ) -> [SuccessRule] {
        Self.merged(own, over: inherited).compactMap { action in
            let criteria = lowered(action.criteria)
            let kind: SuccessRule.Action
            switch action.kind.value {
            case .end:
                kind = .end
            case .goto:
                if let workflowID = action.workflowID {
                    guard let transfer = run(workflowID) else { return nil }
                    kind = .run(transfer)
                } else if let stepID = action.stepID {
                    kind = .goto(stepID)
                } else {
                    return nil  // The decoder reports a goto that goes nowhere.
                }
            case .retry:
                return nil  // The decoder refuses a retry among success actions.
            }
            return SuccessRule(
                name: action.name.value, criteria: criteria, action: kind, location: action.location,
                maxVisits: Self.maxVisits)
        }
    }

    /// The failure actions: the `retry` ones become retry rules of a policy of the step's own, the others its
    /// `on-error` rules, in order. A `retry` that runs a step or workflow first is an `on-error` rule that runs it,
    /// then the step again; a `goto` to a workflow one that runs it, then ends the run.
    mutating func failureRules(
        merging own: [ArazzoAction], over inherited: [ArazzoAction], into step: inout Step, workflow: inout Workflow
    ) {
        var policy = Policy(name: Located("\(step.id.value) (onFailure)", at: step.id.location))
        for action in Self.merged(own, over: inherited) {
            var when = ErrorMatcher(kinds: Self.failureKinds.map { Located($0, at: action.location) })
            when.criteria = lowered(action.criteria)
            switch action.kind.value {
            case .retry:
                if action.workflowID != nil || action.stepID != nil {
                    let first: Located<String>
                    if let workflowID = action.workflowID {
                        guard let transfer = run(workflowID) else { continue }
                        first = transfer
                    } else {
                        first = action.stepID!
                    }
                    var rule = CatchRule(step: nil, when: when, action: .run(first, then: .retry), location: action.location)
                    rule.retryLimit = action.retryLimit?.value ?? 1
                    rule.retryDelay = .saturating(seconds: action.retryAfter?.value ?? 0)
                    step.onError.append(rule)
                    continue
                }
                var rule = RetryRule(location: action.location)
                rule.when = when
                rule.attempts = (action.retryLimit?.value ?? 1) + 1
                rule.delay = .saturating(seconds: action.retryAfter?.value ?? 0)
                rule.backoff = .constant
                policy.retry.append(rule)
            case .goto:
                if let workflowID = action.workflowID {
                    guard let transfer = run(workflowID) else { continue }
                    step.onError.append(
                        CatchRule(step: nil, when: when, action: .run(transfer, then: .end), location: action.location))
                    continue
                }
                guard let target = action.stepID else { continue }  // The decoder reports a goto that goes nowhere.
                var rule = CatchRule(step: nil, when: when, action: .goto(target), location: action.location)
                rule.maxVisits = Self.maxVisits
                step.onError.append(rule)
            case .end:
                step.onError.append(CatchRule(step: nil, when: when, action: .fail, location: action.location))
            }
        }
        guard !policy.retry.isEmpty else { return }
        if let chosen = step.policy, let flowrun = workflow.policies.first(where: { $0.name.value == chosen.value }) {
            // The step's flowrun policy too: its timeouts and breaker, its retry rules after the Arazzo actions'.
            let retries = policy.retry
            policy = flowrun
            policy.name = Located("\(step.id.value) (onFailure, \(chosen.value))", at: step.id.location)
            policy.retry = retries + flowrun.retry
        }
        step.policy = policy.name
        // The author asked for the retries: Arazzo does not hold a POST back from them.
        step.idempotent = true
        workflow.policies.append(policy)
    }

    /// The failures an Arazzo failure action handles: every one a step can end with, except a cancelled run.
    static let failureKinds = [
        "criteria", "http", "transport", "timeout", "decode", "validation", "binding", "circuit-open", "interceptor",
    ]

    /// The step an action (`goto` or `retry`) that names workflow `workflowID` runs: for a workflow in `dependsOn`,
    /// its `dependsOn-<id>` step again, so that `$workflows.<id>.outputs` (a token, say) reads what the latest run
    /// gave; for any other, ``transfer(to:)``'s.
    mutating func run(_ workflowID: Located<String>) -> Located<String>? {
        guard dependencies.contains(workflowID.value) else { return transfer(to: workflowID) }
        return Located(Self.dependencyStepID(workflowID.value), at: workflowID.location)
    }

    /// The on-demand step that runs workflow `workflowID` for an action, added to the workflow being lowered
    /// (``transfers``); `nil` when it names no workflow that can run.
    mutating func transfer(to workflowID: Located<String>) -> Located<String>? {
        guard calledOrReported(workflowID) != nil else { return nil }
        transfers.append(workflowID)
        return Located(Self.transferStepID(workflowID.value), at: workflowID.location)
    }

    // MARK: Parameters

    /// Parameters with component references resolved: a reference's parameter located at the reference, with the
    /// reference's `value` when it sets one.
    static func resolve(_ items: [ArazzoReusable<ArazzoParameter>], in document: ArazzoDocument) -> [ArazzoParameter] {
        items.compactMap { item in
            switch item {
            case .object(let parameter): return parameter
            case .reference(let reference, let value):
                guard case .component(.parameters, let name)? =
                    try? ArazzoExpression.parsingLeniently(reference.value).expression,
                    var parameter = document.components.parameters.first(where: { $0.name.value == name })?.parameter
                else { return nil }
                parameter.name.location = reference.location
                if let value { parameter.value = value }
                return parameter
            }
        }
    }
}
