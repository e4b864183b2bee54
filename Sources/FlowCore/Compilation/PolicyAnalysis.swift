/// The worst case of each step's failure handling: how many requests it can send and how long it can take.
///
/// The figures follow the engine's retry semantics (`RetryTracker` and
/// `StepRunner`) exactly, applied to the worst possible sequence of failures:
///
/// - **Attempts.** The first retry rule whose `when` matches a failure
///   decides, and each rule counts its own retries, so a rule with
///   `attempts: n` adds at most `n − 1` retries however the failures
///   alternate. The worst case is `1 + Σ (attemptsᵣ − 1)` over the rules that
///   can decide some failure (a rule that an earlier one shadows adds
///   nothing). With `timeout.total`, the step can also make only as many
///   attempts as start before the total runs out; with attempts that fail at
///   once, that is `1 + k`, where `k` is the largest number of retry delays
///   whose sum is shorter than the total, taking the shortest delays first and
///   each delay at its jitter's minimum (`full`: zero, `equal`: half). The
///   smaller of the two bounds wins. A `POST` or `PATCH` without
///   `idempotent: true` or an `Idempotency-Key` request header makes one
///   attempt: the engine never retries it.
/// - **Requests.** One per attempt. A refresh interceptor adds, to every
///   attempt, the replay (one request) and the refresh step's own worst case:
///   each attempt starts with the credentials the last refresh produced, so a
///   server that keeps answering 401 triggers a refresh in every attempt.
/// - **Duration.** Each attempt at its `timeout.attempt` (twice that with a
///   refresh interceptor, since the replay has its own attempt timeout and the
///   refresh runs inside the first), plus every retry delay at its maximum: the
///   backoff capped by `maxDelay`, jitter at its maximum (which is the computed
///   delay), and, for a rule that honours `Retry-After` and matches failures
///   that carry a response, at least `retryAfter.max` (5m when not set).
///   `timeout.total` caps the sum. Without `timeout.attempt` only
///   `timeout.total` bounds the step; without it, it is unbounded. Every sum
///   saturates at `Duration.longest` (about 292 years).
///
/// The figures are per run of a step. A catch rule's `goto` can run a step and
/// the steps after it again, at most three times in all.
///
/// ```swift
/// let plan = try WorkflowCompiler().compile(yaml: text, path: "banking.yaml")
/// for step in PolicyAnalysis(plan: plan).steps {
///     print(step.id, step.attempts, step.requests, step.duration)
/// }
/// ```
public struct PolicyAnalysis: Sendable {
    /// The worst case of each step, in plan order: regular steps in dependency order, then on-demand steps.
    public let steps: [StepWorstCase]
    /// The regular steps' figures added up: what one run of the workflow can send and take at most.
    public let total: Total

    /// Analyses every step of a plan.
    /// - Parameter plan: A compiled plan.
    public init(plan: Plan) {
        let refreshTargets = Set(plan.steps.flatMap { Self.refreshTargets(of: $0) })
        let catchTargets = Set(plan.workflow.catchRules.compactMap { rule -> String? in
            if case .run(let step, _) = rule.action { step.value } else { nil }
        })
        steps = plan.steps.map { planned in
            // An on-demand step that only refresh interceptors run always runs as a refresh, without its own.
            let asRefresh = planned.step.onDemand && refreshTargets.contains(planned.id)
                && !catchTargets.contains(planned.id)
            return Self.worstCase(of: planned, in: plan, asRefresh: asRefresh)
        }
        total = Total(regularSteps: steps.filter { !$0.isOnDemand }, deadline: plan.workflow.deadline?.value)
    }

    /// The worst case of the step with the given id.
    /// - Parameter id: A step id.
    /// - Returns: Its worst case, or `nil` when the plan has no such step.
    public func step(_ id: String) -> StepWorstCase? {
        steps.first { $0.id == id }
    }

    /// The worst case of one step.
    public struct StepWorstCase: Sendable, Hashable {
        /// The step's id.
        public var id: String
        /// The name of the step's policy (its own or the default), if any.
        public var policy: String?
        /// Whether the step is on-demand, run only by a refresh interceptor or a catch rule.
        public var isOnDemand: Bool
        /// The most attempts the step can make.
        public var attempts: Int
        /// Which bound decides ``attempts``.
        public var attemptLimit: AttemptLimit
        /// The attempts the retry rules allow, `1 + Σ (attempts − 1)`, before the total timeout and the
        /// idempotency rule are applied; 1 without retry rules.
        public var attemptsByRules: Int
        /// The refresh interceptor that can add requests to every attempt, if any.
        public var refresh: Refresh?
        /// The most requests one attempt can send: 1, or with a refresh, 2 plus the refresh step's requests.
        public var requestsPerAttempt: Int
        /// The most requests the step can send: ``attempts`` × ``requestsPerAttempt`` (per item for a `forEach`
        /// step); saturates at `Int.max`.
        public var requests: Int { attempts.saturatingMultiply(requestsPerAttempt) }
        /// The longest the retry delays can add up to, an honoured `Retry-After` at its cap (`retryAfter.max` or
        /// ``RetryRule/defaultRetryAfterMax``); saturates at ``Swift/Duration/longest``.
        public var retryDelays: Duration?
        /// The longest the step can take.
        public var duration: DurationBound
        /// For a `switch` step: the case steps it may run. Its figures are the largest of theirs: the attempts
        /// and requests of the case that sends the most, the longest duration of any.
        public var switchCases: [String]
        /// For a `repeat`, `paginate` or `forEach` step: the loop and the worst case of one iteration (item). A
        /// `repeat` or `paginate` step's ``attempts`` and ``duration`` are those of all its iterations; a
        /// `forEach` step's are those of one item, since the number of items is only known at run time.
        public var loop: Loop?
        /// For a `workflow:` step: the called file and its total, which are the step's figures.
        public var subWorkflow: SubWorkflowCost?

        /// Creates a worst case.
        /// - Parameters:
        ///   - id: The step's id.
        ///   - policy: The name of its policy.
        ///   - isOnDemand: Whether it is on-demand.
        ///   - attempts: The most attempts.
        ///   - attemptLimit: The bound that decides the attempts.
        ///   - attemptsByRules: The attempts the retry rules allow.
        ///   - refresh: The refresh interceptor that adds requests.
        ///   - requestsPerAttempt: The most requests per attempt.
        ///   - retryDelays: The longest sum of the retry delays.
        ///   - duration: The longest the step can take.
        ///   - switchCases: For a switch step, the case steps it may run.
        ///   - loop: For a loop or `forEach` step, the loop and one iteration's worst case.
        ///   - subWorkflow: For a `workflow:` step, the called file and its total.
        public init(
            id: String, policy: String?, isOnDemand: Bool, attempts: Int, attemptLimit: AttemptLimit,
            attemptsByRules: Int, refresh: Refresh?, requestsPerAttempt: Int, retryDelays: Duration?,
            duration: DurationBound, switchCases: [String] = [], loop: Loop? = nil, subWorkflow: SubWorkflowCost? = nil
        ) {
            self.id = id
            self.policy = policy
            self.isOnDemand = isOnDemand
            self.attempts = attempts
            self.attemptLimit = attemptLimit
            self.attemptsByRules = attemptsByRules
            self.refresh = refresh
            self.requestsPerAttempt = requestsPerAttempt
            self.retryDelays = retryDelays
            self.duration = duration
            self.switchCases = switchCases
            self.loop = loop
            self.subWorkflow = subWorkflow
        }
    }

    /// Which bound decides a step's worst-case number of attempts.
    public enum AttemptLimit: String, Sendable, Hashable, CaseIterable {
        /// No policy, or no retry rule that retries anything: one attempt.
        case noRetries = "no-retries"
        /// The policy retries, but the method is `POST` or `PATCH` without `idempotent: true` or an
        /// `Idempotency-Key` header: one attempt.
        case notIdempotent = "not-idempotent"
        /// The retry rules' attempts: `1 + Σ (attempts − 1)`.
        case retryRules = "retry-rules"
        /// Fewer attempts than the rules allow can start before `timeout.total` runs out.
        case totalTimeout = "total-timeout"
    }

    /// A refresh interceptor of a step and what it adds to each attempt.
    public struct Refresh: Sendable, Hashable {
        /// The on-demand step the interceptor runs.
        public var step: String
        /// The statuses that trigger it.
        public var statuses: [Int]
        /// The most requests one run of the refresh step sends.
        public var requests: Int

        /// Creates a refresh description.
        /// - Parameters:
        ///   - step: The refresh step.
        ///   - statuses: The statuses that trigger it.
        ///   - requests: The most requests one run of it sends.
        public init(step: String, statuses: [Int], requests: Int) {
            self.step = step
            self.statuses = statuses
            self.requests = requests
        }
    }

    /// How long a step can take at most.
    public enum DurationBound: Sendable, Hashable {
        /// The attempts at their attempt timeout plus the longest delays, which fit within any total timeout.
        case atMost(Duration)
        /// The step's `timeout.total`, which ends the step before its attempts and delays could.
        case totalTimeout(Duration)
        /// Nothing bounds the step.
        case unbounded(UnboundedReason)
    }

    /// Why nothing bounds a step's duration.
    public enum UnboundedReason: String, Sendable, Hashable, CaseIterable {
        /// The step's policy sets neither `timeout.attempt` nor `timeout.total` (or it has no policy).
        case noTimeout = "no-timeout"
        /// A retry rule honours `Retry-After` without a cap. No longer produced: a rule without
        /// `retryAfter.max` caps the wait at ``RetryRule/defaultRetryAfterMax``.
        case retryAfter = "retry-after"
    }
}

// MARK: Computation

extension PolicyAnalysis {
    /// The worst case of `planned`; `asRefresh` leaves out its refresh interceptors, as the engine does for a refresh.
    static func worstCase(of planned: PlannedStep, in plan: Plan, asRefresh: Bool) -> StepWorstCase {
        if let setting = planned.step.switch { return worstCase(ofSwitch: planned, setting, in: plan) }
        if let callee = planned.subWorkflow, let call = planned.step.call {
            return worstCase(ofCall: planned, call, callee: callee)
        }
        return looped(oneRun(of: planned, in: plan, asRefresh: asRefresh), step: planned.step)
    }

    /// The worst case of one run of `planned`'s request: one iteration of a loop, one item of a `forEach`.
    static func oneRun(of planned: PlannedStep, in plan: Plan, asRefresh: Bool) -> StepWorstCase {
        let policy = planned.policy
        let rules = policy?.retry ?? []
        let retrying = retryingRules(rules).map { rules[$0] }
        let byRules = 1 + retrying.reduce(0) { $0 + $1.attempts - 1 }
        let total = policy?.timeout?.total?.value

        let attempts: Int
        let limit: AttemptLimit
        let attemptsWithoutTotal: Int
        if retrying.isEmpty {
            (attempts, limit, attemptsWithoutTotal) = (1, .noRetries, 1)
        } else if !mayRetry(planned.step) {
            (attempts, limit, attemptsWithoutTotal) = (1, .notIdempotent, 1)
        } else {
            attemptsWithoutTotal = byRules
            let byTotal = total.map { 1 + retriesStarting(within: $0, rules: retrying) } ?? byRules
            (attempts, limit) = byTotal < byRules ? (byTotal, .totalTimeout) : (byRules, .retryRules)
        }

        var refresh: Refresh?
        if !asRefresh {
            for declaration in planned.interceptors {
                guard case .refresh(let statuses, let target) = declaration.kind, target.value != planned.id,
                    let step = plan.step(target.value)
                else { continue }
                // Only one refresh runs per attempt (a replay is never refreshed), so the costliest one counts.
                let requests = worstCase(of: step, in: plan, asRefresh: true).requests
                if requests > refresh?.requests ?? -1 {
                    refresh = Refresh(step: target.value, statuses: statuses, requests: requests)
                }
            }
        }
        let requestsPerAttempt = refresh.map { 2 + $0.requests } ?? 1

        // The longest delays: every retry of every rule, each at its maximum.
        var delays: Duration? = .zero
        if attemptsWithoutTotal > 1 {
            for rule in retrying {
                guard let sum = longestDelays(of: rule).map(sumOf) else {
                    delays = nil
                    break
                }
                delays = delays.map { $0.saturatingAdd(sum) }
            }
        }

        let duration: DurationBound
        if let attempt = policy?.timeout?.attempt?.value, let delays {
            let perAttempt = attempt.saturatingMultiply(refresh == nil ? 1 : 2)
            let longest = perAttempt.saturatingMultiply(attemptsWithoutTotal).saturatingAdd(delays)
            duration = total.map { longest > $0 ? .totalTimeout($0) : .atMost(longest) } ?? .atMost(longest)
        } else if let total {
            duration = .totalTimeout(total)
        } else {
            duration = .unbounded(.noTimeout)
        }

        return StepWorstCase(
            id: planned.id, policy: policy?.name.value, isOnDemand: planned.step.onDemand, attempts: attempts,
            attemptLimit: limit, attemptsByRules: byRules, refresh: refresh, requestsPerAttempt: requestsPerAttempt,
            retryDelays: delays, duration: duration)
    }

    /// The on-demand steps the refresh interceptors of `planned` run.
    private static func refreshTargets(of planned: PlannedStep) -> [String] {
        planned.interceptors.compactMap { declaration in
            if case .refresh(_, let target) = declaration.kind { target.value } else { nil }
        }
    }

    /// The largest number of retries that can start before `total` runs out, when attempts fail at once.
    ///
    /// Each rule's delays never shrink from one retry to the next, so the
    /// shortest `k` delays of all rules are prefixes of each rule's schedule:
    /// an order of failures exists that uses exactly those.
    static func retriesStarting(within total: Duration, rules: [RetryRule]) -> Int {
        let shortest = rules.flatMap { shortestDelays(of: $0) }.sorted()
        var elapsed = Duration.zero
        var count = 0
        for delay in shortest {
            elapsed = elapsed.saturatingAdd(delay)
            // An attempt that would start when the total timeout fires never starts.
            guard elapsed < total else { break }
            count += 1
        }
        return count
    }

    /// The delay before each retry of `rule`, before jitter: the engine's backoff, capped by `maxDelay`.
    ///
    /// Jitter never lengthens a delay (`full` draws from zero to it, `equal`
    /// from half of it to it), so these are also the longest jittered delays.
    static func backoffDelays(of rule: RetryRule) -> [Duration] {
        rule.attempts > 1 ? (1..<rule.attempts).map { RetryTracker.backoff(rule, retry: $0) } : []
    }

    /// The shortest delay before each retry of `rule`: the backoff at its jitter's minimum.
    static func shortestDelays(of rule: RetryRule) -> [Duration] {
        backoffDelays(of: rule).map { delay in
            switch rule.jitter {
            case .none: delay
            case .equal: delay / 2
            case .full: .zero
            }
        }
    }

    /// The longest delay before each retry of `rule`, counting a server's `Retry-After` at the rule's cap
    /// (`retryAfter.max` or its default).
    static func longestDelays(of rule: RetryRule) -> [Duration]? {
        let delays = backoffDelays(of: rule)
        guard mayHonourRetryAfter(rule) else { return delays }
        return delays.map { max($0, rule.retryAfterCap) }
    }

    /// The sum of `delays`, saturating at ``Swift/Duration/longest``.
    static func sumOf(_ delays: [Duration]) -> Duration {
        delays.reduce(.zero) { $0.saturatingAdd($1) }
    }

    /// Whether `rule` honours `Retry-After` and matches failures that carry a response, which alone can carry one.
    ///
    /// Transport failures, timeouts and interceptor failures have no
    /// response; `http`, `decode`, `validation` and `binding` failures (of the
    /// outputs) do.
    static func mayHonourRetryAfter(_ rule: RetryRule) -> Bool {
        guard rule.retryAfter.honor else { return false }
        let when = rule.when
        // No `when` matches 429 and 5xx; any status pattern matches responses.
        if when.kinds.isEmpty || !when.statuses.isEmpty { return true }
        let withResponse: [FlowError.Code] = [.httpStatus, .decode, .validation, .binding]
        return when.kinds.contains { kind in withResponse.contains { RetryTracker.kindMatches(kind.value, $0) } }
    }

    /// Whether the engine may retry `step` at all: `POST` and `PATCH` only with `idempotent: true` or an
    /// `Idempotency-Key` header among the request's own headers (interceptors add theirs after the check).
    static func mayRetry(_ step: Step) -> Bool {
        guard ["POST", "PATCH"].contains(step.request.method.value) else { return true }
        return step.idempotent == true || step.idempotencyKey
            || step.request.headers.contains { $0.name.value.lowercased() == "idempotency-key" }
    }

    /// The indices of the rules that can retry: they allow more than one attempt and no earlier rule shadows them.
    static func retryingRules(_ rules: [RetryRule]) -> [Int] {
        let shadowing = shadowingRules(rules)
        return rules.indices.filter { rules[$0].attempts > 1 && shadowing[$0] == nil }
    }

    /// For each rule, the earlier rules that together match every failure it matches, or `nil` when it
    /// decides some failure itself.
    ///
    /// The check runs the engine's own matcher over every failure a rule can
    /// tell apart: each error kind, `http` with the statuses from 100 to 999 that
    /// the rules can tell apart, and each custom `x-` kind the rules name.
    static func shadowingRules(_ rules: [RetryRule]) -> [[Int]?] {
        let failures = distinguishableFailures(rules)
        return rules.indices.map { index in
            // A rule with an `if` condition may not hold, so it never takes a failure from a later rule for sure.
            let matched = failures.filter { RetryTracker.applies(rules[index], to: $0, holds: { _ in true }) }
            let earlier = rules[..<index].filter { $0.when.condition == nil }
            let decidesSome = matched.contains { failure in
                !earlier.contains { RetryTracker.applies($0, to: failure, holds: { _ in true }) }
            }
            if decidesSome || matched.isEmpty { return nil }
            return rules.indices.prefix(index).filter { candidate in
                rules[candidate].when.condition == nil
                    && matched.contains { RetryTracker.applies(rules[candidate], to: $0, holds: { _ in true }) }
            }
        }
    }

    /// One failure of each kind a retry rule can distinguish.
    private static func distinguishableFailures(_ rules: [RetryRule]) -> [FlowError] {
        let builtIn: [FlowError.Code] = [
            .transport, .attemptTimeout, .totalTimeout, .decode, .validation, .binding, .circuitOpen, .cancelled,
            .interceptor, .unsupported,
        ]
        let custom = Set(rules.flatMap { $0.when.kinds.map(\.value) })
            .subtracting(ErrorMatcher.knownKinds).sorted().map { FlowError.Code($0) }
        var failures = (builtIn + custom).map { FlowError($0, "") }
        for status in distinguishableStatuses(rules) {
            failures.append(FlowError(.httpStatus, "", status: status, excerpt: nil))
        }
        return failures
    }

    /// One status from 100 to 999 for each set of statuses that no rule tells apart.
    ///
    /// A rule sees a status through codes it names (`404`), classes (`5XX`) and, with neither, 429 and
    /// the 5xx class; so the statuses it names and 429 each stand alone, and of each class one status it does
    /// not name stands for the rest. A dozen statuses decide what the 900 would, at a fraction of the cost
    /// (`flowrun lint` runs this for every policy of every file).
    private static func distinguishableStatuses(_ rules: [RetryRule]) -> [Int] {
        var named: Set<Int> = [429]
        for rule in rules {
            for status in rule.when.statuses {
                if case .code(let code) = status.value, (100...999).contains(code) { named.insert(code) }
            }
        }
        let others = (1...9).compactMap { hundreds in
            (hundreds * 100..<hundreds * 100 + 100).first { !named.contains($0) }
        }
        return named.sorted() + others
    }
}
