/// Decoding of `policies:` declarations.
extension WorkflowDecoder {
    mutating func policies(_ node: YAMLNode) -> [Policy] {
        entries(node, "'policies'").compactMap { entry in
            guard let fields = reader(entry.value, "policy '\(entry.name.value)'",
                                      ["timeout", "retry", "circuitBreaker"])
            else { return nil }
            var policy = Policy(name: entry.name)
            if let node = fields["timeout"], let timeout = reader(node, "'timeout'", ["attempt", "total"]) {
                policy.timeout = Policy.Timeout(
                    attempt: timeout["attempt"].flatMap { duration($0, "'timeout.attempt'") },
                    total: timeout["total"].flatMap { duration($0, "'timeout.total'") })
            }
            if let node = fields["retry"] {
                policy.retry = (node.sequence ?? [node]).compactMap { retryRule($0) }
            }
            if let node = fields["circuitBreaker"] { policy.circuitBreaker = circuitBreaker(node) }
            return policy
        }
    }

    private mutating func retryRule(_ node: YAMLNode) -> RetryRule? {
        guard let fields = reader(node, "a retry rule", [
            "when", "attempts", "delay", "backoff", "multiplier", "maxDelay", "jitter", "retryAfter",
        ]) else { return nil }
        var rule = RetryRule(location: node.location)
        if let when = fields["when"] { rule.when = errorMatcher(when, allowStep: false, allowCondition: true).0 }
        if let value = fields["attempts"].flatMap({ int($0, "'attempts'", in: 1...100) }) { rule.attempts = value }
        let pacing = pacing(fields, defaultDelay: rule.delay)
        rule.delay = pacing.delay
        rule.backoff = pacing.backoff
        rule.multiplier = pacing.multiplier
        rule.maxDelay = pacing.maxDelay
        if let node = fields["jitter"], let text = string(node, "'jitter'") {
            if let jitter = RetryRule.Jitter(rawValue: text.value) {
                rule.jitter = jitter
            } else {
                report(.invalidValue, "'jitter' is none, full or equal, found '\(text.value)'", node)
            }
        }
        if let node = fields["retryAfter"], let retryAfter = reader(node, "'retryAfter'", ["honor", "max"]) {
            rule.retryAfter = (
                honor: retryAfter["honor"].flatMap { bool($0, "'honor'") } ?? true,
                max: retryAfter["max"].flatMap { duration($0, "'retryAfter.max'")?.value }
            )
        }
        return rule
    }

    private mutating func circuitBreaker(_ node: YAMLNode) -> Policy.CircuitBreaker? {
        guard let fields = reader(node, "'circuitBreaker'",
                                  ["failureRatio", "minimumThroughput", "window", "breakDuration", "scope"])
        else { return nil }
        var breaker = Policy.CircuitBreaker(
            failureRatio: 0.5, minimumThroughput: 10, window: .seconds(30), breakDuration: .seconds(5),
            location: node.location)
        if let node = fields["failureRatio"], let ratio = number(node, "'failureRatio'") {
            if ratio > 0 && ratio <= 1 { breaker.failureRatio = ratio } else {
                report(.invalidValue, "'failureRatio' must be greater than 0 and at most 1, found \(ratio)", node)
            }
        }
        if let value = fields["minimumThroughput"].flatMap({ int($0, "'minimumThroughput'", in: 1...Int.max) }) {
            breaker.minimumThroughput = value
        }
        if let value = fields["window"].flatMap({ duration($0, "'window'") }) { breaker.window = value.value }
        if let value = fields["breakDuration"].flatMap({ duration($0, "'breakDuration'") }) {
            breaker.breakDuration = value.value
        }
        if let node = fields["scope"], let text = string(node, "'scope'") {
            if let scope = Policy.CircuitBreaker.Scope(rawValue: text.value) {
                breaker.scope = scope
            } else {
                report(.invalidValue, "'scope' is server or step, found '\(text.value)'", node)
            }
        }
        return breaker
    }
}
