public import Logging
public import Tracing

/// Runs compiled workflows.
///
/// The engine executes a ``Plan``: steps whose inputs are ready run
/// concurrently (at most ``maxConcurrentSteps`` at a time) and a step starts as
/// soon as the steps it depends on have finished. Every failure becomes a
/// ``FlowError`` that the workflow's `catch` rules see; the run's
/// ``RunReport`` lists every step and attempt with secrets redacted.
///
/// Everything the engine needs is injected; it holds no global state, and all
/// per-run state lives in ``run(_:inputs:environment:observer:)``.
///
/// A run is traced with swift-distributed-tracing: a `flowrun.run` span, a
/// `flowrun.step` span per step run and an `HTTP <METHOD>` client span per
/// attempt, whose context goes out in the request headers (W3C `traceparent`
/// with most tracers). See ``tracer``.
///
/// ```swift
/// let plan = try WorkflowCompiler().compile(yaml: text, path: "banking.yaml")
/// let engine = Engine(dispatchers: DispatcherRegistry(["http": myDispatcher]), logger: logger)
/// let report = await engine.run(plan, inputs: ["token": "t-1"], environment: ["BANK_URL": url])
/// print(report.outputs)
/// ```
public struct Engine<C: Clock>: Sendable where C.Duration == Duration {
    /// The dispatchers steps may use, by name.
    public var dispatchers: DispatcherRegistry { didSet { settingsChanged() } }
    /// The interceptor kinds workflows may declare, by name: the built-in ones and those the program
    /// registers, which workflows `use:`.
    public var interceptors: InterceptorRegistry { didSet { settingsChanged() } }
    /// The response parsers steps may choose with `parse: { use: <name> }`, by name.
    ///
    /// A run whose plan names one that is not registered fails before its first request.
    public var parsers = ResponseParserRegistry() { didSet { settingsChanged() } }
    /// The logger; the engine never bootstraps logging.
    public var logger: Logger { didSet { settingsChanged() } }
    /// The most steps that run at once.
    public var maxConcurrentSteps: Int { didSet { settingsChanged() } }
    /// The wall-clock time in Unix seconds, for request-signature timestamps.
    public var unixTime: @Sendable () -> Int64 { didSet { settingsChanged() } }
    /// When set, every step uses this dispatcher, whatever its `dispatcher:` says (the CLI's `--dispatcher`).
    public var dispatcherOverride: String? { didSet { settingsChanged() } }
    /// The tracer of the runs' spans; `nil`, the default, means `InstrumentationSystem.tracer`.
    ///
    /// The engine never bootstraps the instrumentation system: an application does,
    /// and a `nil` tracer is looked up when each run starts, so a bootstrap before
    /// the run is seen. Until something is bootstrapped that is the `NoOpTracer`,
    /// and the engine then creates no spans and adds no headers. Set a tracer here to
    /// trace one engine without global state, as tests do.
    ///
    /// Span attributes come from the run's redacted reports: no secret reaches a span.
    public var tracer: (any Tracer)?
    /// Draws the random part of a retry delay: a number from zero to `upperBound`.
    ///
    /// After a failed attempt of a step with a `jitter: full` or `equal` retry rule, the
    /// engine calls it with an upper bound of 1 and scales the draw by the delay it
    /// jitters, so the draw is a value the step's retry decisions can be replayed from.
    /// By default it draws uniformly. Tests replace it to make delays exact: `{ $0 }`
    /// gives every jittered delay its maximum, which is the computed backoff.
    public var jitter: @Sendable (_ upperBound: Double) -> Double { didSet { settingsChanged() } }
    /// When set, steps that are ready at the same time start in an order drawn from this seed instead of plan
    /// order. `flowrun test --shuffle` sets it, so a race between steps that nothing orders (an interceptor
    /// reading a var another step sets) fails a test the way it fails over a network; `nil` by default.
    public var readyOrderSeed: UInt64? { didSet { settingsChanged() } }
    /// What a run does when an Arazzo step's response does not match its OpenAPI operation's description: warn
    /// (the default), fail the attempt, or nothing. `flowrun run --check-responses` sets it.
    public var responseConformance: ResponseConformance = .warn { didSet { settingsChanged() } }
    /// Hears of every request the runs send and of what came back: each redirect hop and each replay after a
    /// refresh as an exchange of its own, the request as it went out after the interceptors. `nil`, the default,
    /// means nobody listens, and nothing is timed or reported. `flowrun run -v` and `--har-out` set one; see
    /// ``ExchangeObserver``.
    public var exchangeObserver: (any ExchangeObserver)? { didSet { settingsChanged() } }
    /// The circuit breakers, shared by every run of this engine (and of its copies).
    let circuitBreakers: CircuitBreakers
    /// Where each run records its events, in order, when set (see ``RunEvent``).
    var journal: (any RunJournal)? { didSet { settingsChanged() } }
    /// ``clock`` as the runs use it, its type erased.
    let engineClock: EngineClock
    /// What the runs take from the engine, made once rather than at every run: when the engine is created
    /// (``init(dispatchers:interceptors:clock:logger:maxConcurrentSteps:tracer:)`` makes it last) and again when
    /// a property a run reads changes (each one's `didSet`). Copies of an engine share it until one of them
    /// changes.
    private var settings: EngineSettings?
    /// The clock for timeouts and retry delays; a test injects a virtual one.
    ///
    /// Timeouts are timers of the clock when it conforms to ``TimerScheduling`` (as `ContinuousClock`,
    /// `SuspendingClock` and FlowTesting's `VirtualClock` do), else tasks sleeping on it. It is fixed
    /// when the engine is created: the circuit breakers, shared by every run, measure time on it.
    ///
    /// Stored last: the other properties then have the same offsets whatever `C` is, so the engine's code,
    /// compiled once for every clock, reads them without looking up the engine type's metadata (at every run).
    public let clock: C

    /// Creates an engine.
    /// - Parameters:
    ///   - dispatchers: The dispatchers steps may use.
    ///   - interceptors: The custom interceptors workflows may use.
    ///   - clock: The clock for timeouts and retry delays.
    ///   - logger: The logger.
    ///   - maxConcurrentSteps: The most steps that run at once; 8 by default.
    ///   - tracer: The tracer of the runs' spans; `nil` means `InstrumentationSystem.tracer`.
    public init(
        dispatchers: DispatcherRegistry,
        interceptors: InterceptorRegistry = InterceptorRegistry(),
        clock: C,
        logger: Logger,
        maxConcurrentSteps: Int = 8,
        tracer: (any Tracer)? = nil
    ) {
        self.dispatchers = dispatchers
        self.interceptors = interceptors
        self.clock = clock
        self.logger = logger
        self.maxConcurrentSteps = max(1, maxConcurrentSteps)
        self.tracer = tracer
        self.unixTime = WallClock.unixTime
        self.jitter = { Double.random(in: 0...$0) }
        self.engineClock = EngineClock(clock)
        self.circuitBreakers = CircuitBreakers(clock: engineClock)
        settings = EngineSettings(self)
    }

    /// Makes ``settings`` again, from the properties as they are now.
    private mutating func settingsChanged() {
        settings = EngineSettings(self)
    }

    /// Runs `plan` to completion, failure or cancellation.
    ///
    /// Inputs are checked against the workflow's `inputs` schema (defaults
    /// applied), the declared environment variables are read and every dispatcher and `use:` interceptor
    /// the plan can call is checked to be registered, all before any request is sent.
    /// - Parameters:
    ///   - plan: The compiled workflow.
    ///   - inputs: The run's inputs.
    ///   - environment: The process environment (or the variables to expose): `$env.NAME` reads only the
    ///     variables the workflow declares under `env:`, from here or their `default`. A declared variable
    ///     without a default that is missing here fails the run before its first request.
    ///   - observer: Told as steps start and finish, for progress output.
    /// - Returns: The report, with the outputs when the run succeeded.
    public func run(
        _ plan: Plan, inputs: [String: JSONValue], environment: [String: String],
        observer: (any RunObserver)? = nil
    ) async -> RunReport {
        let tracer = self.tracer.map { RunTracer($0) } ?? RunTracer.system
        let start = engineClock.now
        let runID = RandomUUID.makeRunID()
        let settings = self.settings ?? EngineSettings(self)
        var run = RunExecution(
            engine: settings, runID: runID, logger: settings.logger(ofRun: runID), plan: plan, start: start,
            observer: observer, tracer: tracer)
        // Untraced, the run goes on in this frame, not in an operation closure of `withSpan`.
        let outcome =
            if tracer.isOn {
                await tracer.withSpan("flowrun.run", ofKind: .internal) { span in
                    if let span { RunTracer.annotate(run: span.span, plan: plan, id: runID) }
                    run.runSpan = span
                    let outcome = await run.execute(inputs: inputs, environment: environment)
                    if let span { RunTracer.annotate(run: span.span, error: outcome.error) }
                    return outcome
                }
            } else {
                await run.execute(inputs: inputs, environment: environment)
            }
        return RunReport(
            runID: runID,
            workflow: plan.workflow.name ?? plan.workflow.path,
            outcome: outcome.error.map { .failed($0) } ?? .succeeded,
            // Workflow outputs are redacted like step outputs: a secret, or a server's echo of one, never
            // reaches the report in clear.
            outputs: outcome.error == nil ? run.redactor.redact(.object(outcome.outputs)).objectValue ?? [:] : [:],
            steps: run.reports,
            duration: start.duration(to: engineClock.now),
            redactor: run.redactor)
    }
}

extension Engine where C == ContinuousClock {
    /// Creates an engine on the real clock.
    /// - Parameters:
    ///   - dispatchers: The dispatchers steps may use.
    ///   - interceptors: The custom interceptors workflows may use.
    ///   - logger: The logger.
    ///   - maxConcurrentSteps: The most steps that run at once; 8 by default.
    ///   - tracer: The tracer of the runs' spans; `nil` means `InstrumentationSystem.tracer`.
    public init(
        dispatchers: DispatcherRegistry,
        interceptors: InterceptorRegistry = InterceptorRegistry(),
        logger: Logger,
        maxConcurrentSteps: Int = 8,
        tracer: (any Tracer)? = nil
    ) {
        self.init(
            dispatchers: dispatchers, interceptors: interceptors, clock: ContinuousClock(), logger: logger,
            maxConcurrentSteps: maxConcurrentSteps, tracer: tracer)
    }
}
