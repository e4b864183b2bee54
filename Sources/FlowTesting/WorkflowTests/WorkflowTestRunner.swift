public import FlowCore
public import Logging
import Foundation

/// Runs workflow test cases in-process, with no network and no real waiting, and compares each run with its
/// expectation.
///
/// Each case runs in isolation: on its own ``VirtualClock``, its own ``MockDispatcher``
/// answering from the case's stubs (registered as `mock` and used by every step, whatever
/// its `dispatcher:` says) and its own engine, so circuit breakers and stub sequences never
/// leak from one case to another. Retry delays, `Retry-After` waits, timeouts and stub delays
/// pass in virtual time, so a case that waits minutes finishes in microseconds and its
/// `elapsed` is exact.
///
/// Two things that are random in production are fixed, so a case gives the same answer on
/// every run: retry jitter takes its maximum (the computed backoff, as `flowrun lint` assumes),
/// and the wall-clock time that request signatures carry starts at 2026-01-01T00:00:00Z and
/// moves with the virtual clock.
///
/// Cases run concurrently, at most ``maxConcurrentCases`` at a time. Each has two limits: a
/// case whose virtual clock passes ``virtualTimeLimit`` (an endless retry loop, a request
/// waiting on nothing) and a case that runs longer than ``wallTimeLimit`` of real time (work
/// that never lets virtual time move) are cancelled and reported as failed.
///
/// ```swift
/// let loaded = WorkflowTestSuite.load(path: "workflows/banking.test.yaml")
/// if let suite = loaded.suite {
///     for result in await WorkflowTestRunner(logger: logger).run(suite) {
///         print(result.passed ? "✓" : "✗", result.name)
///         result.failures.forEach { print($0) }
///     }
/// }
/// ```
public struct WorkflowTestRunner: Sendable {
    /// The logger the engine of every case logs to.
    public var logger: Logger
    /// The custom interceptors the workflows may `use:`, as an embedding program registers them.
    public var interceptors: InterceptorRegistry
    /// The most virtual time a case may take, every run included; 10 minutes by default.
    public var virtualTimeLimit: Duration
    /// The most real time a case may take; 10 seconds by default.
    ///
    /// A case past it is cancelled. Every part of flowrun stops promptly when cancelled; a
    /// custom interceptor that ignores cancellation keeps its case, and the run, waiting.
    public var wallTimeLimit: Duration
    /// The most cases that run at once; by default, the number of active processor cores.
    public var maxConcurrentCases: Int
    /// When set, steps that are ready together start in an order drawn from this seed (``Engine/readyOrderSeed``)
    /// instead of plan order, so that zero-latency stubs do not hide a race between unordered steps.
    public var readyOrderSeed: UInt64?

    /// The Unix time at virtual time zero: 2026-01-01T00:00:00Z.
    public static let startOfVirtualTime: Int64 = 1_767_225_600

    /// Creates a runner.
    /// - Parameters:
    ///   - logger: The logger the engine of every case logs to.
    ///   - interceptors: The custom interceptors the workflows may use.
    ///   - virtualTimeLimit: The most virtual time a case may take.
    ///   - wallTimeLimit: The most real time a case may take.
    ///   - maxConcurrentCases: The most cases that run at once, at least 1; by default the number of active cores.
    public init(
        logger: Logger,
        interceptors: InterceptorRegistry = InterceptorRegistry(),
        virtualTimeLimit: Duration = .seconds(600),
        wallTimeLimit: Duration = .seconds(10),
        maxConcurrentCases: Int? = nil
    ) {
        self.logger = logger
        self.interceptors = interceptors
        self.virtualTimeLimit = virtualTimeLimit
        self.wallTimeLimit = wallTimeLimit
        self.maxConcurrentCases = max(1, maxConcurrentCases ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Runs every case of a suite.
    /// - Parameter suite: The test file and its compiled workflow.
    /// - Returns: The results, in the order of the cases.
    public func run(_ suite: WorkflowTestSuite) async -> [WorkflowTestResult] {
        await run([suite])[0]
    }

    /// One case to run: its suite's and its own position.
    private struct Job: Sendable {
        var suite: Int
        var `case`: Int
    }

    /// Runs the cases of several suites, all sharing one bound on concurrency.
    /// - Parameters:
    ///   - suites: The suites.
    ///   - include: Whether to run a case; the others are left out of the results.
    /// - Returns: For each suite, in order, the results of its included cases, in file order.
    public func run(
        _ suites: [WorkflowTestSuite],
        including include: (WorkflowTestSuite, WorkflowTestCase) -> Bool = { _, _ in true }
    ) async -> [[WorkflowTestResult]] {
        var jobs: [Job] = []
        for (suiteIndex, suite) in suites.enumerated() {
            for (caseIndex, testCase) in suite.file.cases.enumerated() where include(suite, testCase) {
                jobs.append(Job(suite: suiteIndex, case: caseIndex))
            }
        }
        let results = await jobs.concurrentMap(maxConcurrency: maxConcurrentCases) { job in
            let suite = suites[job.suite]
            return await run(suite.file.cases[job.case], of: suite)
        }
        var grouped = [[WorkflowTestResult]](repeating: [], count: suites.count)
        for (job, result) in zip(jobs, results) { grouped[job.suite].append(result) }
        return grouped
    }

    /// Runs one case of a suite and compares the run with its expectation.
    /// - Parameters:
    ///   - testCase: The case.
    ///   - suite: The suite it belongs to, for the plan and the file's path.
    /// - Returns: The result, with a diff for every expectation that did not hold.
    public func run(_ testCase: WorkflowTestCase, of suite: WorkflowTestSuite) async -> WorkflowTestResult {
        let started = ContinuousClock.now
        let raced = await withWallTimeLimit { await execute(testCase, plan: suite.plan) }
        var result = WorkflowTestResult(
            file: suite.file.path, name: testCase.name, location: testCase.location, failures: [], report: nil,
            calls: [], elapsed: .zero, wallTime: .zero)
        switch raced {
        case .finished(.ran(let report, let calls)):
            result.report = report
            result.calls = calls
            result.elapsed = report.duration
            let checker = ExpectationChecker(expectation: testCase.expectation)
            // A diff quotes recorded requests and expected values: redacted like every other report.
            result.failures = checker.failures(report: report, calls: calls).map { failure in
                var failure = failure
                failure.message = report.redactor.redact(failure.message)
                failure.details = failure.details.map { report.redactor.redact($0) }
                return failure
            }
        case .finished(.virtualTimeout(let calls)):
            result.calls = calls
            result.elapsed = virtualTimeLimit
            result.failures = [WorkflowTestFailure(
                .virtualTimeout,
                "the case did not finish within \(ExpectationChecker.text(virtualTimeLimit)) of virtual time, "
                    + "so it was cancelled",
                details: Self.callSummary(calls))]
        case .wallTimeout(let partial):
            if case .ran(_, let calls)? = partial { result.calls = calls }
            if case .virtualTimeout(let calls)? = partial { result.calls = calls }
            result.failures = [WorkflowTestFailure(
                .wallTimeout,
                "the case did not finish within \(ExpectationChecker.text(wallTimeLimit)) of real time, "
                    + "so it was cancelled",
                details: Self.callSummary(result.calls))]
        }
        result.wallTime = started.duration(to: .now)
        return result
    }

    // MARK: Running one case

    /// How a case's runs ended, before the comparison.
    private enum Execution: Sendable {
        /// The runs finished; the report and calls are the last run's.
        case ran(RunReport, [RecordedCall])
        /// The virtual clock passed the limit; the calls made so far.
        case virtualTimeout([RecordedCall])
    }

    /// Runs the case's runs on a fresh clock, mock and engine, racing the virtual time limit.
    private func execute(_ testCase: WorkflowTestCase, plan: Plan) async -> Execution {
        let clock = VirtualClock()
        let mock = MockDispatcher(stubs: testCase.stubs, clock: clock)
        var engine = Engine(
            dispatchers: DispatcherRegistry(["mock": mock]), interceptors: interceptors, clock: clock, logger: logger)
        engine.dispatcherOverride = "mock"
        engine.readyOrderSeed = readyOrderSeed
        engine.jitter = { $0 }
        engine.unixTime = { Self.startOfVirtualTime + clock.now.offset.components.seconds }
        let configured = engine
        let limit = virtualTimeLimit
        return await clock.run {
            await withTaskGroup(of: Execution?.self) { group in
                group.addTask {
                    var last: Execution?
                    for _ in 0..<testCase.runs {
                        let before = mock.calls.count
                        let report = await configured.run(
                            plan, inputs: testCase.inputs, environment: testCase.environment)
                        last = .ran(report, Array(mock.calls.dropFirst(before)))
                        if Task.isCancelled { break }
                    }
                    return last
                }
                group.addTask {
                    do {
                        try await clock.sleep(for: limit)
                        return .virtualTimeout(mock.calls)
                    } catch {
                        return nil  // Cancelled: the runs ended first.
                    }
                }
                var outcome: Execution?
                for await event in group {
                    guard let event, outcome == nil else { continue }
                    outcome = event
                    group.cancelAll()  // Stops the timer, or cancels the runs that ran out of virtual time.
                }
                return outcome ?? .virtualTimeout(mock.calls)
            }
        }
    }

    /// What racing a case against the wall-clock limit gave.
    private enum Raced: Sendable {
        case finished(Execution)
        /// The limit passed; the case's outcome after it was cancelled, if it ended.
        case wallTimeout(partial: Execution?)
    }

    /// Runs `operation`, cancelling it when it takes longer than ``wallTimeLimit`` of real time.
    private func withWallTimeLimit(_ operation: @escaping @Sendable () async -> Execution) async -> Raced {
        let limit = wallTimeLimit
        return await withTaskGroup(of: Raced?.self) { group in
            group.addTask { .finished(await operation()) }
            group.addTask {
                do {
                    try await Task.sleep(for: limit)
                    return .wallTimeout(partial: nil)
                } catch {
                    return nil  // Cancelled: the case ended first.
                }
            }
            var outcome: Raced?
            for await event in group {
                switch (outcome, event) {
                case (nil, let event?):
                    outcome = event
                    group.cancelAll()
                case (.wallTimeout, .finished(let partial)?):
                    outcome = .wallTimeout(partial: partial)  // The cancelled case's calls, for the report.
                default:
                    break
                }
            }
            return outcome ?? .wallTimeout(partial: nil)
        }
    }

    private static func callSummary(_ calls: [RecordedCall]) -> [String] {
        guard !calls.isEmpty else { return ["no calls were made"] }
        let shown = calls.suffix(10).map {
            "\($0.request.method) \($0.request.path) (step \($0.stepID), attempt \($0.attempt))"
        }
        return ["\(calls.count) calls were made; the last:"] + shown
    }
}
