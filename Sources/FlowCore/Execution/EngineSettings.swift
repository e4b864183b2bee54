import Logging

/// What a run takes from its ``Engine``, without the engine's clock type.
///
/// The engine is generic over its clock; a run is not, so the code that runs
/// steps is compiled once and specialised (see ``EngineClock``).
struct EngineSettings: Sendable {
    let dispatchers: DispatcherRegistry
    let interceptors: InterceptorRegistry
    let parsers: ResponseParserRegistry
    let clock: EngineClock
    var logger: Logger
    let maxConcurrentSteps: Int
    let unixTime: @Sendable () -> Int64
    let dispatcherOverride: String?
    let jitter: @Sendable (Double) -> Double
    let circuitBreakers: CircuitBreakers
    let readyOrderSeed: UInt64?
    /// Where the run records its events; a called workflow's run records none of its own (its result is one
    /// event of the calling run).
    var journal: (any RunJournal)?
    /// The run's id.
    var runID = ""

    init<C>(_ engine: Engine<C>) {
        // Observed, each dispatcher is wrapped once per run, so that every call it makes is reported.
        dispatchers = engine.exchangeObserver.map { engine.dispatchers.observed(by: $0) } ?? engine.dispatchers
        interceptors = engine.interceptors
        parsers = engine.parsers
        clock = engine.engineClock
        logger = engine.logger
        maxConcurrentSteps = engine.maxConcurrentSteps
        unixTime = engine.unixTime
        dispatcherOverride = engine.dispatcherOverride
        jitter = engine.jitter
        circuitBreakers = engine.circuitBreakers
        readyOrderSeed = engine.readyOrderSeed
        journal = engine.journal
    }
}
