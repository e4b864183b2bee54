import Logging

/// What a run takes from its ``Engine``, without the engine's clock type.
///
/// The engine is generic over its clock; a run is not, so the code that runs
/// steps is compiled once and specialised (see ``EngineClock``).
///
/// A class, made by the engine when it is created or changed, not per run: the runs, their preflights and the
/// context of their `workflow:` steps each hold it, and a struct of this many references would be copied part by
/// part into each of them. What is a run's own (its id, and the logger that carries it) each run adds.
final class EngineSettings: Sendable {
    let dispatchers: DispatcherRegistry
    let interceptors: InterceptorRegistry
    let parsers: ResponseParserRegistry
    let clock: EngineClock
    /// The engine's logger; a run logs with ``logger(ofRun:)``.
    let logger: Logger
    /// Whether ``logger`` is the no-op one, which keeps no metadata.
    private let loggerIsNoOp: Bool
    let maxConcurrentSteps: Int
    let unixTime: @Sendable () -> Int64
    let dispatcherOverride: String?
    let jitter: @Sendable (Double) -> Double
    let circuitBreakers: CircuitBreakers
    let readyOrderSeed: UInt64?
    let responseConformance: ResponseConformance
    /// Where the runs record their events; a called workflow's run records none of its own (its result is one
    /// event of the calling run).
    let journal: (any RunJournal)?

    /// The settings of `engine`'s runs.
    init<C>(_ engine: Engine<C>) {
        // Observed, each dispatcher is wrapped, so that every call it makes is reported.
        if let observer = engine.exchangeObserver {
            dispatchers = engine.dispatchers.observed(by: observer)
        } else {
            dispatchers = engine.dispatchers
        }
        interceptors = engine.interceptors
        parsers = engine.parsers
        clock = engine.engineClock
        logger = engine.logger
        loggerIsNoOp = type(of: engine.logger.handler) == SwiftLogNoOpLogHandler.self
        maxConcurrentSteps = engine.maxConcurrentSteps
        unixTime = engine.unixTime
        dispatcherOverride = engine.dispatcherOverride
        jitter = engine.jitter
        circuitBreakers = engine.circuitBreakers
        readyOrderSeed = engine.readyOrderSeed
        responseConformance = engine.responseConformance
        journal = engine.journal
    }

    /// The logger of run `runID`: the engine's, with the id as metadata. The id itself, not text interpolated
    /// from it (a new string per run). A no-op handler keeps no metadata: setting it there would only copy the
    /// logger's storage, for a value nobody can read.
    func logger(ofRun runID: String) -> Logger {
        guard !loggerIsNoOp else { return logger }
        var logger = logger
        logger[metadataKey: "run"] = .string(runID)
        return logger
    }
}
