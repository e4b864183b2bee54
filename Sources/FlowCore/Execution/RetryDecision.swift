/// What a step's policy decides after a failed attempt.
enum RetryDecision: Equatable, Sendable {
    /// Try again after the delay.
    case retry(after: Duration)
    /// Give up; the reason says why, for the log.
    case fail(reason: String)
}

/// Applies a policy's ordered retry rules to failures, each rule with its own attempt counter.
///
/// The first rule whose `when` matches a failure decides. An empty `when`
/// matches the failures worth retrying by default: `transport`, `timeout.*`
/// and `http` with status 429 or 5xx. Non-idempotent methods (POST, PATCH)
/// are never retried unless the step says `idempotent: true` or the request
/// carries an `Idempotency-Key` header (RFC 9110 §9.2.2).
struct RetryTracker {
    let rules: [RetryRule]
    private var retriesUsed: [Int]

    init(rules: [RetryRule]) {
        self.rules = rules
        self.retriesUsed = Array(repeating: 0, count: rules.count)
    }

    /// Decides what follows a failed attempt (or a `pending` one: a response a rule's condition holds for), from
    /// the facts an ``AttemptStateMachine`` was given.
    /// - Parameters:
    ///   - failure: The attempt's error, the wait its response asked for (read only when the deciding rule
    ///     honours it), its method and key, and the rules whose condition held.
    ///   - idempotent: The step's `idempotent`.
    ///   - random: Draws the jitter: a number from zero to the upper bound it is given.
    mutating func decide(
        after failure: AttemptFailure, idempotent: Bool?, random: (Double) -> Double
    ) -> RetryDecision {
        let error = failure.error
        guard !rules.isEmpty else { return .fail(reason: "the step's policy has no retry rules") }
        guard let index = rules.indices.first(where: { index in
            Self.applies(rules[index], to: error, holds: { _ in failure.conditionsHeld.contains(index) })
        }) else {
            return .fail(reason: "no retry rule matches \(error.code)")
        }
        let rule = rules[index]
        guard retriesUsed[index] + 1 < rule.attempts else {
            return .fail(reason: "retry rule \(index + 1) allows \(rule.attempts) attempts, all made")
        }
        let method = failure.method ?? "GET"
        if ["POST", "PATCH"].contains(method), idempotent != true, !failure.hasIdempotencyKey {
            return .fail(reason: "\(method) is not idempotent; set 'idempotencyKey: true' or 'idempotent: true'")
        }
        retriesUsed[index] += 1
        var delay = Self.backoff(rule, retry: retriesUsed[index])
        switch rule.jitter {
        case .none: break
        case .full: delay = .saturating(seconds: random(delay.seconds))
        case .equal: delay = delay / 2 + .saturating(seconds: random(delay.seconds / 2))
        }
        if rule.retryAfter.honor, let asked = failure.retryAfter {
            delay = max(delay, min(asked, rule.retryAfterCap))
        }
        return .retry(after: delay)
    }

    /// The delay before the `retry`-th retry, before jitter: constant, linear or exponential, capped by `maxDelay`.
    static func backoff(_ rule: RetryRule, retry: Int) -> Duration {
        rule.backoff.delay(retry, base: rule.delay, multiplier: rule.multiplier, maxDelay: rule.maxDelay)
    }

    /// Whether retry rule `rule` handles `error`. A rule with an `if` condition needs the condition to hold as
    /// well, and with no statuses and kinds it handles only `pending` responses (polling); a `pending` response
    /// is handled only by a rule with a condition.
    ///
    /// Arazzo criteria (an Arazzo `retry` action's) count with the condition in `holds`; without an `if` condition
    /// they never make a rule handle a `pending` response.
    static func applies(_ rule: RetryRule, to error: FlowError, holds: (Condition?) -> Bool) -> Bool {
        guard rule.when.isGuarded else { return error.code != .pending && matches(rule.when, error) }
        let condition = rule.when.condition
        let matched =
            if rule.when.statuses.isEmpty && rule.when.kinds.isEmpty {
                condition != nil && error.code == .pending
            } else {
                matches(rule.when, error) && (condition != nil || error.code != .pending)
            }
        return matched && holds(condition)
    }

    /// The first rule with a condition that makes a successful response with `status` `pending`, by its number.
    static func pendingRule(in rules: [RetryRule], status: Int, holds: (Condition) -> Bool) -> Int? {
        var pending = FlowError(.pending, "")
        pending.status = status
        return rules.firstIndex { rule in
            guard let condition = rule.when.condition else { return false }
            return applies(rule, to: pending, holds: { _ in holds(condition) })
        }
    }

    static func matches(_ when: ErrorMatcher, _ error: FlowError) -> Bool {
        if when.statuses.isEmpty && when.kinds.isEmpty {
            switch error.code {
            case .transport, .attemptTimeout, .totalTimeout: return true
            // An Arazzo step's unmet criteria count by their response's status, as an `http` failure does.
            case .httpStatus, .criteria: return error.status.map { $0 == 429 || $0 >= 500 } ?? false
            default: return false
            }
        }
        if let status = error.status, error.code == .httpStatus || error.code == .pending || error.code == .criteria,
            when.statuses.contains(where: { $0.value.matches(status) })
        {
            return true
        }
        return when.kinds.contains { kindMatches($0.value, error.code) }
    }

    /// Whether a kind written in a rule covers an error code: `timeout` covers `timeout.attempt` and `timeout.total`.
    static func kindMatches(_ kind: String, _ code: FlowError.Code) -> Bool {
        kind == code.name || code.name.hasPrefix(kind + ".")
    }
}

extension RetryRule {
    /// The longest `Retry-After` wait a rule accepts when it sets no `retryAfter.max`.
    ///
    /// A server's wait is always capped: without it one `Retry-After: 3000000000` would park a step for a century.
    public static let defaultRetryAfterMax = Duration.seconds(300)

    /// The longest `Retry-After` wait the rule accepts: `retryAfter.max`, or ``defaultRetryAfterMax``.
    public var retryAfterCap: Duration { retryAfter.max ?? Self.defaultRetryAfterMax }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
