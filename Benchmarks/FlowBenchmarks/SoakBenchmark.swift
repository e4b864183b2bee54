import FlowCore
import FlowHTTP
import FlowTestServer
import Foundation
import Logging
import Synchronization

/// Runs a two-step workflow 1,000 times over real sockets against a server that injects random faults, and
/// checks every run against what the policy predicts for the faults it met.
///
/// Each run gets its own paths (`/r17/fetch`, `/r17/submit`) and, from a seeded generator, its own script of
/// faults per path, so the outcome of every run is computable from its script alone, whatever the
/// interleaving: the attempts each step makes, whether the run succeeds and with which error kind, how many
/// requests the server sees, and the least time the retry delays and attempt timeouts take. The report
/// says how many runs ended (a per-run wall-clock watchdog catches hangs), how many matched the prediction
/// exactly, whether a failed run ever had outputs, and the run durations against `PolicyAnalysis`'s worst case.
struct SoakBenchmark {
    var seed: UInt64 = 42
    var runs = 1000
    var concurrency = 16

    /// The limits the workflow's policy declares; the prediction uses the same numbers.
    static let attemptLimit: Duration = .milliseconds(400)
    static let totalLimit: Duration = .seconds(5)
    static let baseDelay: Duration = .milliseconds(10)
    static let retryAfterCap: Duration = .milliseconds(30)
    /// Attempts of the rule for 429/503, and of the rule for transport failures and attempt timeouts.
    static let statusAttempts = 4
    static let transportAttempts = 3
    /// How long a run may take before the watchdog calls it hung: about six times the policy's worst case.
    static let watchdog: Duration = .seconds(30)

    static let workflow = """
        flowrun: 1
        name: soak
        inputs:
          type: object
          required: [run]
          properties: { run: { type: string } }
        env: { API: {} }
        servers: { api: { url: "{$env.API}" } }
        policies:
          soak:
            timeout: { attempt: \(attemptLimit.workflowText), total: \(totalLimit.workflowText) }
            retry:
              - when: { status: [429, 503] }
                attempts: \(statusAttempts)
                delay: \(baseDelay.workflowText)
                backoff: exponential
                retryAfter: { max: \(retryAfterCap.workflowText) }
              - when: { errors: [transport, timeout.attempt] }
                attempts: \(transportAttempts)
                delay: \(baseDelay.workflowText)
        defaults: { server: api, policy: soak }
        steps:
          - id: fetch
            request: { method: GET, path: "/{$inputs.run}/fetch" }
            outputs: { id: $response.body#/id }
          - id: submit
            idempotencyKey: true
            request: { method: POST, path: "/{$inputs.run}/submit", body: { item: $steps.fetch.outputs.id } }
            outputs: { receipt: $response.body#/receipt }
        outputs:
          item: $steps.fetch.outputs.id
          receipt: $steps.submit.outputs.receipt
        """

    /// Reads `--seed N`, `--runs N` and `--concurrency N`; anything else prints the usage and exits with 2.
    init(arguments: [String]) {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            let value = rest.popFirst().flatMap { Int($0) } ?? -1
            switch option {
            case "--seed" where value >= 0: seed = UInt64(value)
            case "--runs" where value > 0: runs = value
            case "--concurrency" where value > 0: concurrency = value
            default:
                print("usage: flowrun-benchmarks soak [--seed N] [--runs N] [--concurrency N] (bad: \(option))")
                exit(2)
            }
        }
    }

    func run() async throws {
        let plan = try WorkflowCompiler().compile(yaml: Self.workflow, path: "soak.yaml")
        let worstCase = PolicyAnalysis(plan: plan).steps.filter { !$0.isOnDemand }.map(\.duration)

        var random = SplitMix64(seed: seed)
        let scripts = (0..<runs).map { _ in
            RunScript(fetch: Injected.script(using: &random), submit: Injected.script(using: &random))
        }
        let faultScript = FaultScript()
        for (index, script) in scripts.enumerated() {
            faultScript.set("/r\(index)/fetch", script.fetch.map(\.fault))
            faultScript.set("/r\(index)/submit", script.submit.map(\.fault))
        }

        let progress = Progress()
        progress.startStallWatchdog(after: Self.watchdog + .seconds(10))
        let started = ContinuousClock.now
        let (results, requests, port) = try await withTestServer(faultScript.handler) { server in
            // One connection per run in flight: waiting for a pooled connection would count against the attempt
            // timeout, and this soak checks the policies, not the pool size.
            try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false, maxConnectionsPerHost: concurrency) {
                dispatcher in
                let engine = Engine(
                    dispatchers: DispatcherRegistry(["http": dispatcher]),
                    logger: Logger(label: "soak") { _ in SwiftLogNoOpLogHandler() })
                let results = await runAll(plan: plan, engine: engine, baseURL: server.baseURL, progress: progress)
                return (results, server.requests, server.port)
            }
        }
        let wall = started.duration(to: .now)
        progress.finish()

        let report = SoakReport(
            scripts: scripts, results: results, requests: Dictionary(grouping: requests, by: \.path),
            worstCase: worstCase)
        print("soak: \(runs) runs of a 2-step workflow, seed \(seed), concurrency \(concurrency), "
            + "against 127.0.0.1:\(port), \(Self.format(wall)) wall")
        print("policy: attempt \(Self.attemptLimit.workflowText), total \(Self.totalLimit.workflowText); "
            + "429/503 ×\(Self.statusAttempts) exponential from \(Self.baseDelay.workflowText) "
            + "(Retry-After capped at \(Self.retryAfterCap.workflowText)); "
            + "transport/timeout.attempt ×\(Self.transportAttempts) every \(Self.baseDelay.workflowText)")
        report.print()
        if !report.passed { exit(1) }
    }

    /// Runs every run, `concurrency` at a time, each under the watchdog.
    private func runAll(
        plan: Plan, engine: Engine<ContinuousClock>, baseURL: String, progress: Progress
    ) async -> [Int: RunResult] {
        await withTaskGroup(of: (Int, RunResult).self) { group in
            var next = 0
            var results: [Int: RunResult] = [:]
            func start(_ index: Int) {
                progress.started(index)
                group.addTask {
                    let result = await Self.watched(index: index, progress: progress) {
                        await engine.run(plan, inputs: ["run": .string("r\(index)")], environment: ["API": baseURL])
                    }
                    return (index, result)
                }
            }
            while next < min(concurrency, runs) {
                start(next)
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                progress.ended(index)
                if next < runs {
                    start(next)
                    next += 1
                }
            }
            return results
        }
    }

    /// Runs `body`, or gives up on it after ``watchdog`` of wall-clock time and cancels it.
    private static func watched(
        index: Int, progress: Progress, _ body: @escaping @Sendable () async -> RunReport
    ) async -> RunResult {
        await withTaskGroup(of: RunResult?.self) { group in
            group.addTask { .ended(await body()) }
            group.addTask {
                do {
                    try await Task.sleep(for: watchdog)
                } catch {
                    return nil
                }
                progress.hung(index)
                return .hung
            }
            defer { group.cancelAll() }
            while let result = await group.next() {
                if let result { return result }
            }
            return .hung
        }
    }

    static func format(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        return seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }
}

/// How one run ended.
enum RunResult: Sendable {
    case ended(RunReport)
    /// The watchdog fired first.
    case hung
}

/// The faults of one run, per step.
struct RunScript {
    var fetch: [Injected]
    var submit: [Injected]
}

/// A fault the soak injects, and what the policy makes of it.
enum Injected: String, CaseIterable, Sendable {
    case unavailable = "503"
    case rateLimited = "429+Retry-After"
    case slowPastLimit = "slow>limit"
    case reset = "reset mid-body"
    case closed = "close"
    case ok = "200"
    case slowWithinLimit = "slow<limit"
    case serverError = "500"
    case notFound = "404"
    case truncated = "truncated JSON"

    /// Faults a retry rule retries.
    static let transient: [Injected] = [.unavailable, .rateLimited, .slowPastLimit, .reset, .closed]

    /// A script: zero to five transient faults, then a final answer that repeats (mostly a success).
    static func script(using random: inout SplitMix64) -> [Injected] {
        let leading = [0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5].randomElement(using: &random)!
        var script = (0..<leading).map { _ in transient.randomElement(using: &random)! }
        let finals: [Injected] = Array(repeating: .ok, count: 14) + [.slowWithinLimit, .slowWithinLimit]
            + [.serverError, .notFound, .truncated]
        script.append(finals.randomElement(using: &random)!)
        return script
    }

    /// What the server does.
    var fault: Fault {
        let body = #"{"id":"item-1","receipt":"rc-1"}"#
        return switch self {
        case .unavailable: .fail(503, body: #"{"message":"try later"}"#)
        case .rateLimited: .retryAfter(.seconds(1))
        case .slowPastLimit: .slow(SoakBenchmark.attemptLimit * 3, then: .ok(body))
        case .reset: .resetMidBody
        case .closed: .closeWithoutAnswer
        case .ok: .ok(body)
        case .slowWithinLimit: .slow(.milliseconds(30), then: .ok(body))
        case .serverError: .fail(500, body: #"{"message":"bug"}"#)
        case .notFound: .fail(404)
        case .truncated: .truncatedJSON
        }
    }

    /// What the attempt that meets this fault ends with.
    enum Outcome {
        case success
        /// Failed with `code`; the retry rule at `rule` decides (`nil`: none matches).
        case failure(FlowError.Code, rule: Int?)
    }

    var outcome: Outcome {
        switch self {
        case .ok, .slowWithinLimit: .success
        case .unavailable, .rateLimited: .failure(.httpStatus, rule: 0)
        case .slowPastLimit: .failure(.attemptTimeout, rule: 1)
        case .reset, .closed: .failure(.transport, rule: 1)
        case .serverError, .notFound: .failure(.httpStatus, rule: nil)
        case .truncated: .failure(.decode, rule: nil)
        }
    }
}

/// What the policy predicts for one step that meets `script`, computed the way `RetryTracker` decides.
struct Prediction: Equatable {
    var attempts = 0
    var succeeded = false
    var error: FlowError.Code?
    /// The least time the step can take: its retry delays and the attempt timeouts it must wait out.
    var minimumDuration: Duration = .zero
    /// How many of its attempts meet a response slower than the attempt timeout.
    var timeouts = 0

    init() {}

    init(_ script: [Injected]) {
        let ruleAttempts = [SoakBenchmark.statusAttempts, SoakBenchmark.transportAttempts]
        var used = [0, 0]
        while true {
            let fault = script[min(attempts, script.count - 1)]
            attempts += 1
            switch fault {
            case .slowPastLimit:
                minimumDuration += SoakBenchmark.attemptLimit
                timeouts += 1
            case .slowWithinLimit: minimumDuration += .milliseconds(30)
            default: break
            }
            switch fault.outcome {
            case .success:
                succeeded = true
                return
            case .failure(let code, let rule):
                guard let rule, used[rule] + 1 < ruleAttempts[rule] else {
                    error = code
                    return
                }
                used[rule] += 1
                // Rule 0 is exponential; Retry-After asks for 1 s, which the cap cuts to 30 ms.
                var delay = rule == 0 ? SoakBenchmark.baseDelay * (1 << (used[rule] - 1)) : SoakBenchmark.baseDelay
                if fault == .rateLimited { delay = max(delay, SoakBenchmark.retryAfterCap) }
                minimumDuration += delay
            }
        }
    }
}

/// The soak's figures and the runs that broke an invariant.
struct SoakReport {
    var ended = 0
    var hung: [Int] = []
    var attemptsMatched = 0
    var outcomesMatched = 0
    var requestsMatched = 0
    var keyChecked = 0
    var keyConstant = 0
    var failed = 0
    var partialOutputs: [Int] = []
    var tooFast: [Int] = []
    var mismatches: [(index: Int, why: String)] = []
    /// Mismatches whose retry decisions were right for what the client saw and whose first departure from the
    /// script is an attempt that timed out where the server answered in time: a loaded machine, not the engine.
    var explainedByTiming = 0
    var decisionsConsistent = 0
    var durations: [Duration] = []
    var injected: [Injected: Int] = [:]
    var worstCase: [PolicyAnalysis.DurationBound]
    var runs: Int

    init(
        scripts: [RunScript], results: [Int: RunResult], requests: [String: [RecordedRequest]],
        worstCase: [PolicyAnalysis.DurationBound]
    ) {
        self.worstCase = worstCase
        self.runs = scripts.count
        for (index, script) in scripts.enumerated() {
            let fetch = Prediction(script.fetch)
            let submit = fetch.succeeded ? Prediction(script.submit) : Prediction()
            let served = [("fetch", script.fetch, fetch), ("submit", script.submit, submit)]
            for (_, faults, prediction) in served {
                for fault in faults.prefix(prediction.attempts) { injected[fault, default: 0] += 1 }
                if prediction.attempts > faults.count { injected[faults.last!, default: 0] += prediction.attempts - faults.count }
            }
            guard case .ended(let report) = results[index] ?? .hung else {
                hung.append(index)
                continue
            }
            ended += 1
            durations.append(report.duration)
            let expectedSuccess = fetch.succeeded && submit.succeeded
            let expectedError = fetch.error ?? submit.error
            let attempts = ["fetch", "submit"].map { id in report.steps.first { $0.id == id }?.attempts.count ?? 0 }
            let seen = ["fetch", "submit"].map { requests["/r\(index)/\($0)"] ?? [] }
            var why: [String] = []
            if attempts == [fetch.attempts, submit.attempts] {
                attemptsMatched += 1
            } else {
                why.append("attempts \(attempts), predicted \([fetch.attempts, submit.attempts])")
            }
            if report.succeeded == expectedSuccess && report.error?.code == expectedError {
                outcomesMatched += 1
            } else {
                why.append("ended \(report.error.map { "with \($0.code): \($0.message)" } ?? "successfully"), "
                    + "predicted \(expectedError.map { "\($0)" } ?? "success")")
            }
            if seen.map(\.count) == [fetch.attempts, submit.attempts] {
                requestsMatched += 1
            } else {
                why.append("the server saw \(seen.map(\.count)) requests")
            }
            if seen[1].count > 1 {
                keyChecked += 1
                if Set(seen[1].map { $0.values("Idempotency-Key") }).count == 1 { keyConstant += 1 }
            }
            if !report.succeeded {
                failed += 1
                if !report.outputs.isEmpty { partialOutputs.append(index) }
            } else if report.outputs.count != 2 {
                partialOutputs.append(index)
            }
            // Only a run that met the predicted faults must have waited out their delays and timeouts.
            if why.isEmpty && report.duration < fetch.minimumDuration + submit.minimumDuration { tooFast.append(index) }
            let consistent = Self.decisionsAreConsistent(report)
            if consistent {
                decisionsConsistent += 1
            } else {
                why.append("a retry decision does not follow from the failures the client saw")
            }
            let lateSteps = zip(["fetch", "submit"], [script.fetch, script.submit]).compactMap { id, faults in
                Self.firstDivergenceIsATimeout(report.steps.first { $0.id == id }, faults) ? id : nil
            }
            if !why.isEmpty, consistent, !lateSteps.isEmpty {
                explainedByTiming += 1
                why.append("explained: \(lateSteps.joined(separator: " and ")) timed out where the script answered in time")
            }
            if !why.isEmpty {
                let errors = report.steps.map { step in
                    "\(step.id): " + step.attempts.map { $0.error.map { "\($0.code)" } ?? "\($0.status ?? 0)" }
                        .joined(separator: ",")
                }
                mismatches.append((
                    index,
                    "fetch \(script.fetch.map(\.rawValue)), submit \(script.submit.map(\.rawValue)): "
                        + why.joined(separator: "; ") + " [\(errors.joined(separator: "; "))]"
                ))
            }
        }
    }

    /// Whether each step retried exactly when the rules say it should after the failures the client saw, and the
    /// run failed with the last one: the check that holds however late responses arrive.
    static func decisionsAreConsistent(_ report: RunReport) -> Bool {
        let ruleAttempts = [SoakBenchmark.statusAttempts, SoakBenchmark.transportAttempts]
        for step in report.steps {
            var used = [0, 0]
            for (number, attempt) in step.attempts.enumerated() {
                let isLast = number == step.attempts.count - 1
                guard let error = attempt.error else {
                    if !isLast { return false }
                    continue
                }
                let rule: Int? =
                    switch error.code {
                    case .httpStatus where [429, 503].contains(error.status ?? 0): 0
                    case .transport, .attemptTimeout: 1
                    default: nil
                    }
                guard let rule, used[rule] + 1 < ruleAttempts[rule] else {
                    if !isLast { return false }
                    if report.error?.code != error.code { return false }
                    continue
                }
                used[rule] += 1
                if isLast { return false }
            }
        }
        return true
    }

    /// Whether the first attempt of `step` whose outcome differs from what its fault should give timed out:
    /// the answer was late (a loaded machine, a request queued for a pooled connection), not wrong.
    static func firstDivergenceIsATimeout(_ step: StepReport?, _ faults: [Injected]) -> Bool {
        guard let step else { return false }
        for (number, attempt) in step.attempts.enumerated() {
            let expected: FlowError.Code? =
                switch faults[min(number, faults.count - 1)].outcome {
                case .success: nil
                case .failure(let code, _): code
                }
            if attempt.error?.code != expected { return attempt.error?.code == .attemptTimeout }
        }
        return false
    }

    /// Runs that broke an invariant; mismatches that timing explains are reported but are not failures.
    var passed: Bool {
        hung.isEmpty && mismatches.count == explainedByTiming && decisionsConsistent == ended
            && partialOutputs.isEmpty && tooFast.isEmpty && keyConstant == keyChecked
    }

    func print() {
        let counts = Injected.allCases.compactMap { fault in injected[fault].map { "\(fault.rawValue) \($0)" } }
        Swift.print("faults served: " + counts.joined(separator: ", "))
        line("runs that ended", share(ended) + " — watchdog \(SoakBenchmark.watchdog.workflowText) per run")
        line("attempts as predicted", share(attemptsMatched) + " — per step, from the script and the retry rules")
        line("outcome as predicted", share(outcomesMatched) + " — success, or the predicted error kind")
        line("requests as predicted", share(requestsMatched) + " — what the server saw, per step")
        line("retry decisions consistent", share(decisionsConsistent) + " — with the failures the client saw")
        if !mismatches.isEmpty {
            line("mismatches from timing", "\(explainedByTiming) of \(mismatches.count) (an attempt timed out where the script answered in time)")
        }
        line("Idempotency-Key constant", "\(keyConstant) of \(keyChecked) runs whose submit was retried")
        line("runs with partial outputs", "\(partialOutputs.count) (of \(failed) failed runs; a failed run has none)")
        line("runs faster than possible", "\(tooFast.count) (shorter than their retry delays and attempt timeouts)")
        let sorted = durations.sorted()
        if let longest = sorted.last {
            let total = worstCase.reduce(Duration.zero) { sum, bound in
                switch bound {
                case .atMost(let duration), .totalTimeout(let duration): sum + duration
                case .unbounded: sum
                }
            }
            let format = SoakBenchmark.format
            line(
                "run duration",
                "p50 \(format(percentile(sorted, 0.50))), p99 \(format(percentile(sorted, 0.99))), "
                    + "max \(format(longest)); policy worst case \(format(total)) "
                    + "(PolicyAnalysis: " + worstCase.map(Self.describe).joined(separator: " + ") + ")")
        }
        for index in hung { Swift.print("  hung: run r\(index)") }
        for index in partialOutputs { Swift.print("  partial outputs: run r\(index)") }
        for index in tooFast { Swift.print("  too fast: run r\(index)") }
        for (index, why) in mismatches.prefix(20) { Swift.print("  mismatch r\(index): \(why)") }
        if mismatches.count > 20 { Swift.print("  … and \(mismatches.count - 20) more mismatches") }
        Swift.print(passed ? "soak passed" : "soak FAILED")
    }

    private func line(_ label: String, _ text: String) {
        let padded = (label + ":").padding(toLength: 28, withPad: " ", startingAt: 0)
        Swift.print(padded + text)
    }

    private func share(_ count: Int) -> String {
        let percent = runs == 0 ? 0 : Double(count) / Double(runs) * 100
        return "\(count) / \(runs) (" + String(format: "%.1f", percent) + "%)"
    }

    private func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
        sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }

    private static func describe(_ bound: PolicyAnalysis.DurationBound) -> String {
        switch bound {
        case .atMost(let duration): "at most \(SoakBenchmark.format(duration))"
        case .totalTimeout(let duration): "total timeout \(SoakBenchmark.format(duration))"
        case .unbounded(let reason): "unbounded (\(reason.rawValue))"
        }
    }
}

/// Which runs are in flight, for the stall watchdog that ends the process if the runs stop ending.
final class Progress: Sendable {
    private let state = Mutex<(inFlight: Set<Int>, hung: Set<Int>, last: ContinuousClock.Instant, done: Bool)>(
        ([], [], .now, false))

    func started(_ index: Int) { state.withLock { _ = $0.inFlight.insert(index) } }

    func ended(_ index: Int) {
        state.withLock {
            $0.inFlight.remove(index)
            $0.last = .now
        }
    }

    func hung(_ index: Int) { state.withLock { _ = $0.hung.insert(index) } }

    func finish() { state.withLock { $0.done = true } }

    /// Ends the process when no run has ended for `limit`: a run the per-run watchdog could not cancel.
    func startStallWatchdog(after limit: Duration) {
        Thread.detachNewThread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 1)
                let (stalled, inFlight, hung) = state.withLock { state in
                    (!state.done && state.last.duration(to: .now) > limit, state.inFlight, state.hung)
                }
                if stalled {
                    Swift.print("soak FAILED: no run ended for \(limit.workflowText); in flight: "
                        + inFlight.sorted().map { "r\($0)" }.joined(separator: ", ")
                        + "; the watchdog gave up on: " + hung.sorted().map { "r\($0)" }.joined(separator: ", "))
                    exit(3)
                }
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    fileprivate var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
