/// Checks of error policies: their time limits against their retry rules, rules that can never apply, and
/// retries that the engine will refuse.
///
/// Every figure in a message is computed the way the engine computes it
/// (``PolicyAnalysis`` holds the shared arithmetic), so what lint says is what
/// a run does.
extension CompilationSession {
    /// Checks every declared policy, used or not, and resolves `defaults.policy`.
    mutating func checkPolicies() {
        for policy in workflow.policies {
            checkTimeouts(of: policy)
            let shadowing = PolicyAnalysis.shadowingRules(policy.retry)
            for (index, rule) in policy.retry.enumerated() {
                if let earlier = shadowing[index] {
                    reportShadowed(rule, number: index + 1, of: policy, by: earlier.map { policy.retry[$0] })
                    continue
                }
                checkSchedule(of: rule, number: index + 1, in: policy)
                checkRetryAfter(of: rule, number: index + 1, in: policy)
            }
        }
        if let name = workflow.defaults.policy { _ = resolvePolicy(name) }
    }

    /// The policy `name` refers to, recording it as used.
    mutating func resolvePolicy(_ name: Located<String>) -> Policy? {
        usedPolicies.insert(name.value)
        return resolve(name, in: policiesByName, kind: "policy", section: "policies")
    }

    /// Warns when `step` is a `POST` or `PATCH` that `policy` would retry but the engine will not.
    ///
    /// An explicit `idempotent: false` says the author knows, so it is not reported.
    mutating func checkRetriedMethod(of step: Step, policy: Policy) {
        let method = step.request.method
        guard step.idempotent == nil, !PolicyAnalysis.mayRetry(step),
            !PolicyAnalysis.retryingRules(policy.retry).isEmpty
        else { return }
        warning(.unretriedMethod,
                "step '\(step.id.value)' will not be retried (policy '\(policy.name.value)' retries failures): "
                    + "\(method.value) is not idempotent; add 'idempotencyKey: true' to send an Idempotency-Key, "
                    + "or 'idempotent: true' (or 'idempotent: false' to keep it unretried)",
                at: method.location)
    }

    /// Type-checks the `if` conditions of the policy's retry rules against the response of `step`: its failed
    /// response when the rule matches only failures (statuses that are all failures, or error kinds), else its
    /// successful one. A policy shared by several steps reports a finding at its condition once.
    mutating func checkRetryConditions(of step: Step, policy: Policy) {
        for rule in policy.retry {
            guard let condition = rule.when.condition else { continue }
            let statuses = rule.when.statuses
            let failedOnly = statuses.isEmpty ? !rule.when.kinds.isEmpty : statuses.allSatisfy { !$0.value.isSuccess }
            let before = diagnostics.count
            checkCondition(condition, in: .retryCondition(step, failedResponse: failedOnly))
            let found = diagnostics[before...]
            diagnostics.removeSubrange(before...)
            for diagnostic in found where !diagnostics.contains(where: {
                $0.location == diagnostic.location && $0.message == diagnostic.message
            }) {
                diagnostics.append(diagnostic)
            }
        }
    }

    // MARK: Private

    /// Reports an attempt timeout longer than the total timeout.
    private mutating func checkTimeouts(of policy: Policy) {
        guard let attempt = policy.timeout?.attempt, let total = policy.timeout?.total, attempt.value > total.value
        else { return }
        error(.invalidValue,
              "the attempt timeout (\(attempt.value.workflowText)) of policy '\(policy.name.value)' is longer "
                  + "than its total timeout (\(total.value.workflowText))",
              at: attempt.location)
    }

    /// Warns that `rule` never decides a failure because the earlier `shadowing` rules match all it matches.
    private mutating func reportShadowed(
        _ rule: RetryRule, number: Int, of policy: Policy, by shadowing: [RetryRule]
    ) {
        let lines = shadowing.map { String($0.location.line) }
        let places = lines.count == 1
            ? "the rule at line \(lines[0])"
            : "the rules at lines \(lines.dropLast().joined(separator: ", ")) and \(lines.last!)"
        let defaultRule = shadowing.contains { $0.when.statuses.isEmpty && $0.when.kinds.isEmpty }
            ? " (a rule without 'when' matches transport failures, timeouts and statuses 429 and 5XX)" : ""
        let verb = lines.count == 1 ? "matches" : "match"
        warning(.unreachable,
                "retry rule \(number) of policy '\(policy.name.value)' never applies: \(places) \(verb) every "
                    + "failure it matches first\(defaultRule), and the first matching rule decides",
                at: rule.location)
    }

    /// Checks a rule's delays and attempts against the policy's total timeout.
    ///
    /// The error: the rule's own backoff delays (capped by `maxDelay`, jitter
    /// at its maximum, which is the computed delay) add up to the total or
    /// more, so even attempts that fail at once never reach the last one. The
    /// warning: with every attempt running to its attempt timeout they do not
    /// fit, so the retry budget may stop the step while attempts remain.
    /// `Retry-After` is left out: the server, not the policy, decides it.
    private mutating func checkSchedule(of rule: RetryRule, number: Int, in policy: Policy) {
        guard let total = policy.timeout?.total?.value, rule.attempts > 1 else { return }
        let delays = PolicyAnalysis.backoffDelays(of: rule)
        let sum = PolicyAnalysis.sumOf(delays)
        let name = "retry rule \(number) of policy '\(policy.name.value)'"
        if sum >= total {
            error(.invalidValue,
                  "\(name) cannot make its \(rule.attempts) attempts: its delays alone add up to "
                      + "\(sum.workflowText) (\(Self.sumText(delays))), not less than the total timeout of "
                      + "\(total.workflowText), so the engine stops retrying before its last attempt; lower 'attempts', "
                      + "'delay' or 'maxDelay', or raise 'timeout.total'",
                  at: rule.location)
            return
        }
        // An attempt timeout longer than the total is an error of its own.
        guard let attempt = policy.timeout?.attempt?.value, attempt <= total else { return }
        let longest = attempt.saturatingMultiply(rule.attempts).saturatingAdd(sum)
        guard longest > total else { return }
        warning(.retryBudget,
                "\(name) may not make all its \(rule.attempts) attempts: at the attempt timeout of "
                    + "\(attempt.workflowText) each, with \(sum.workflowText) of delays, they take up to "
                    + "\(longest.workflowText), longer than the total timeout of \(total.workflowText); the engine "
                    + "starts no retry that could end after it, so the step may fail with the last attempt's error "
                    + "before its last attempt",
                at: rule.location)
    }

    /// Warns when a rule accepts a `Retry-After` wait at least as long as the policy's total timeout.
    ///
    /// The engine waits as long as the server asks, up to `retryAfter.max`;
    /// a wait that long leaves no time for another attempt, so the engine does
    /// not retry (its retry budget) and the step fails with the server's status. A `max` shorter than `delay` is not reported: the
    /// engine waits the longer of the two, so such a `max` only means the
    /// backoff usually decides, which is a legitimate choice.
    ///
    /// Also warns when neither `timeout.total` nor `retryAfter.max` bounds the
    /// wait: the server then decides each wait, up to the default cap.
    private mutating func checkRetryAfter(of rule: RetryRule, number: Int, in policy: Policy) {
        guard rule.attempts > 1, PolicyAnalysis.mayHonourRetryAfter(rule) else { return }
        guard let total = policy.timeout?.total?.value else {
            if rule.retryAfter.max == nil {
                warning(.retryBudget,
                        "retry rule \(number) of policy '\(policy.name.value)' waits as long as a server's Retry-After "
                            + "asks, bounded by neither 'retryAfter.max' nor 'timeout.total': each retry may wait "
                            + "up to the default cap of \(RetryRule.defaultRetryAfterMax.workflowText); set "
                            + "'retryAfter.max' or 'timeout.total' (or 'retryAfter: { honor: false }')",
                        at: rule.location)
            }
            return
        }
        guard let cap = rule.retryAfter.max, cap >= total else { return }
        warning(.retryBudget,
                "retry rule \(number) of policy '\(policy.name.value)' accepts a Retry-After wait of up to "
                    + "\(cap.workflowText) ('retryAfter.max'), not less than the total timeout of "
                    + "\(total.workflowText): a wait that long leaves no time for another attempt, so the engine "
                    + "does not retry and the step fails with the server's status; lower 'retryAfter.max'",
                at: rule.location)
    }

    /// `200ms + 400ms + 800ms`, or `1s + 2s + … + 32s` when there are many.
    private static func sumText(_ delays: [Duration]) -> String {
        let texts = delays.map(\.workflowText)
        guard texts.count > 4 else { return texts.joined(separator: " + ") }
        return "\(texts[0]) + \(texts[1]) + … + \(texts[texts.count - 1])"
    }
}
