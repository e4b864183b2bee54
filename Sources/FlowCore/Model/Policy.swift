/// A named error policy: timeouts, ordered retry rules and a circuit breaker.
package struct Policy: Sendable {
    /// The policy's name.
    package var name: Located<String>
    /// The per-attempt and total time limits.
    package var timeout: Timeout?
    /// Retry rules; the first whose `when` matches a failure decides, each with its own attempt counter.
    package var retry: [RetryRule]
    /// The circuit breaker, if any.
    package var circuitBreaker: CircuitBreaker?

    /// Creates a policy without timeouts, retries or breaker.
    /// - Parameter name: The policy's name.
    package init(name: Located<String>) {
        self.name = name
        self.retry = []
    }

    /// The per-attempt and total time limits of a step.
    package struct Timeout: Sendable {
        /// The limit for one attempt.
        package var attempt: Located<Duration>?
        /// The limit for all attempts of the step together, delays included.
        package var total: Located<Duration>?

        /// Creates time limits.
        /// - Parameters:
        ///   - attempt: The limit for one attempt.
        ///   - total: The limit for all attempts.
        package init(attempt: Located<Duration>? = nil, total: Located<Duration>? = nil) {
            self.attempt = attempt
            self.total = total
        }
    }

    /// A circuit breaker: opens when too many calls fail, then lets a single probe through.
    package struct CircuitBreaker: Sendable {
        /// The failure ratio (0 < r ≤ 1) over the window at which the breaker opens.
        package var failureRatio: Double
        /// The number of calls the window must hold before the ratio counts.
        package var minimumThroughput: Int
        /// The sliding window the ratio is computed over.
        package var window: Duration
        /// How long the breaker stays open before it lets a probe through.
        package var breakDuration: Duration
        /// Where the breaker is declared.
        package var location: SourceLocation
        /// What one breaker guards: all steps sending to one server, or one step.
        package var scope: Scope

        /// What a circuit breaker guards.
        package enum Scope: String, Sendable, CaseIterable {
            /// One breaker per server: every step that sends to it shares its state.
            case server
            /// One breaker per step.
            case step
        }

        /// Creates a breaker.
        /// - Parameters:
        ///   - failureRatio: The failure ratio that opens it.
        ///   - minimumThroughput: The calls needed before the ratio counts.
        ///   - window: The sampling window.
        ///   - breakDuration: How long it stays open.
        ///   - location: Where it is declared.
        package init(
            failureRatio: Double,
            minimumThroughput: Int,
            window: Duration,
            breakDuration: Duration,
            location: SourceLocation
        ) {
            self.failureRatio = failureRatio
            self.minimumThroughput = minimumThroughput
            self.window = window
            self.breakDuration = breakDuration
            self.location = location
            self.scope = .server
        }
    }
}

/// Which failures a retry or catch rule applies to.
package struct ErrorMatcher: Sendable {
    /// Status patterns of HTTP failures; empty means any.
    package var statuses: [Located<ResponseCase.Status>]
    /// Error kinds (`transport`, `timeout`, `http`, ...); empty means any.
    package var kinds: [Located<String>]
    /// A condition on the response that must also hold, such as `$response.body#/code == 'card_declined'`.
    ///
    /// In a retry rule it also makes the rule match a successful response for which it holds (polling): with
    /// no statuses and kinds, only those.
    package var condition: Condition?
    /// Arazzo criteria that must all hold as well: an Arazzo failure action's `criteria`, lowered into the rule
    /// that carries the action. Unlike ``condition`` they never make a retry rule match a successful response.
    package var criteria: [Located<ArazzoCriterion>] = []

    /// Creates a matcher.
    /// - Parameters:
    ///   - statuses: Status patterns.
    ///   - kinds: Error kinds.
    package init(statuses: [Located<ResponseCase.Status>] = [], kinds: [Located<String>] = []) {
        self.statuses = statuses
        self.kinds = kinds
    }

    /// The error kinds flowrun raises itself; a custom kind raised from Swift starts with `x-`.
    package static let knownKinds: [String] = [
        "transport", "timeout", "timeout.attempt", "timeout.total", "http", "decode", "validation",
        "binding", "circuit-open", "cancelled", "interceptor", "pending", "loop-limit", "criteria",
    ]
}

/// One retry rule of a policy.
package struct RetryRule: Sendable {
    /// How the delay grows from one attempt to the next.
    package enum Backoff: String, Sendable, CaseIterable {
        /// The same delay each time.
        case constant
        /// `delay × n` before the n-th retry.
        case linear
        /// `delay × multiplier^(n-1)` before the n-th retry.
        case exponential

        /// The `n`-th delay (1 for the first) from `base`: constant, linear or exponential, capped by `maxDelay`.
        ///
        /// It saturates at ``Swift/Duration/longest``: 40 exponential delays from 200ms ask for more nanoseconds
        /// than an `Int64` holds.
        package func delay(_ n: Int, base: Duration, multiplier: Double, maxDelay: Duration?) -> Duration {
            let seconds = base.seconds
            let raw: Double = switch self {
            case .constant: seconds
            case .linear: seconds * Double(n)
            case .exponential: seconds * Self.power(multiplier, n - 1)
            }
            let capped = maxDelay.map { min(raw, $0.seconds) } ?? raw
            return .saturating(seconds: capped)
        }

        /// `base` raised to a whole `exponent` (FlowCore does not import Foundation for `pow`).
        private static func power(_ base: Double, _ exponent: Int) -> Double {
            var result = 1.0
            for _ in 0..<max(0, exponent) { result *= base }
            return result
        }
    }

    /// How the delay is randomised.
    package enum Jitter: String, Sendable, CaseIterable {
        /// No randomisation.
        case none
        /// A uniform random delay between zero and the computed delay.
        case full
        /// Half the computed delay plus a uniform random part of the other half.
        case equal
    }

    /// Which failures the rule retries.
    package var when: ErrorMatcher
    /// Total tries, the first included.
    package var attempts: Int
    /// The base delay.
    package var delay: Duration
    /// How the delay grows.
    package var backoff: Backoff
    /// The growth factor of exponential backoff.
    package var multiplier: Double
    /// The cap on any single delay.
    package var maxDelay: Duration?
    /// The randomisation.
    package var jitter: Jitter
    /// Whether to wait as long as the server's `Retry-After` asks, and the cap on that wait.
    package var retryAfter: (honor: Bool, max: Duration?)
    /// Where the rule is declared.
    package var location: SourceLocation

    /// Creates a rule with the defaults: 3 attempts, 200 ms constant delay, no jitter.
    /// - Parameter location: Where the rule is declared.
    package init(location: SourceLocation) {
        self.when = ErrorMatcher()
        self.attempts = 3
        self.delay = .milliseconds(200)
        self.backoff = .constant
        self.multiplier = 2
        self.jitter = .none
        self.retryAfter = (honor: true, max: nil)
        self.location = location
    }
}

/// A central failure-handling rule under `catch:`.
package struct CatchRule: Sendable {
    /// What a ``CatchRule`` does with a failure it matches.
    package enum Action: Sendable {
        /// Use these values as the failed step's outputs and continue.
        case fallback([Binding])
        /// Continue at this step.
        case goto(Located<String>)
        /// Run this on-demand step, then fail or continue.
        case run(Located<String>, then: Continuation)
        /// End the run successfully with these workflow outputs.
        case end([Binding])
        /// End the run with the step's failure, trying no later rule: an Arazzo failure action of type `end`.
        case fail
    }

    /// What happens after a `run` action.
    package enum Continuation: String, Sendable, Codable {
        /// The run fails with the original error.
        case fail
        /// The run continues as if the step had produced no outputs.
        case `continue`
        /// The failed step starts again, reading the handler's outputs as those of the handler step: an Arazzo
        /// `retry` failure action with a `stepId` or `workflowId`. At most ``CatchRule/retryLimit`` times for one
        /// run of the step; after that the rule no longer matches.
        case retry
        /// The run ends, succeeded, with the workflow's outputs from what ran: an Arazzo `goto` to a workflow.
        case end

        /// The continuations a workflow file may write after `then:`; the others are Arazzo's.
        package static let written: [Continuation] = [.fail, .continue]
    }

    /// The step whose failures the rule handles; any step when `nil`.
    package var step: Located<String>?
    /// Which failures the rule handles.
    package var when: ErrorMatcher
    /// What it does.
    package var action: Action
    /// Where the rule is declared.
    package var location: SourceLocation
    /// For `goto`: how many times the target may run in one run, first run included.
    package var maxVisits: Int
    /// For `run` with ``Continuation/retry``: how many times the rule starts the failed step again before it
    /// no longer matches (Arazzo's `retryLimit`), counted from the step's last success.
    package var retryLimit = 1
    /// For `run` with ``Continuation/retry``: how long to wait before the handler runs (Arazzo's `retryAfter`);
    /// a longer `Retry-After` of the failed response, up to ``RetryRule/defaultRetryAfterMax``, is waited instead.
    package var retryDelay = Duration.zero

    /// The default of ``maxVisits``.
    package static let defaultMaxVisits = 3

    /// Creates a rule.
    /// - Parameters:
    ///   - step: The step whose failures it handles.
    ///   - when: Which failures it handles.
    ///   - action: What it does.
    ///   - location: Where it is declared.
    package init(step: Located<String>?, when: ErrorMatcher, action: Action, location: SourceLocation) {
        self.step = step
        self.when = when
        self.action = action
        self.location = location
        self.maxVisits = Self.defaultMaxVisits
    }
}
