import Logging

/// What a run takes from its ``Engine``, without the engine's clock type.
///
/// The engine is generic over its clock; a run is not, so the code that runs
/// steps is compiled once and specialised (see ``EngineClock``).
///
/// A class, made once per run: the run, its preflight and the context of its `workflow:` steps each hold it,
/// and a struct of this many references would be copied part by part into each of them.
final class EngineSettings: Sendable {
    let dispatchers: DispatcherRegistry
    let interceptors: InterceptorRegistry
    let parsers: ResponseParserRegistry
    let clock: EngineClock
    /// The engine's logger with the run's id as metadata.
    let logger: Logger
    let maxConcurrentSteps: Int
    let unixTime: @Sendable () -> Int64
    let dispatcherOverride: String?
    let jitter: @Sendable (Double) -> Double
    let circuitBreakers: CircuitBreakers
    let readyOrderSeed: UInt64?
    let responseConformance: ResponseConformance
    /// Where the run records its events; a called workflow's run records none of its own (its result is one
    /// event of the calling run).
    let journal: (any RunJournal)?
    /// The run's id.
    let runID: String

    /// The settings of run `runID` of `engine`.
    init<C>(_ engine: Engine<C>, runID: String) {
        // Observed, each dispatcher is wrapped once per run, so that every call it makes is reported. (Not with
        // `map`: a closure that captures the engine looks up the generic engine type's metadata at every run.)
        if let observer = engine.exchangeObserver {
            dispatchers = engine.dispatchers.observed(by: observer)
        } else {
            dispatchers = engine.dispatchers
        }
        interceptors = engine.interceptors
        parsers = engine.parsers
        clock = engine.engineClock
        var logger = engine.logger
        // The id itself, not text interpolated from it (a new string per run). A no-op handler keeps no metadata:
        // setting it there would only copy the logger's storage, for a value nobody can read.
        if type(of: logger.handler) != SwiftLogNoOpLogHandler.self { logger[metadataKey: "run"] = .string(runID) }
        self.logger = logger
        maxConcurrentSteps = engine.maxConcurrentSteps
        unixTime = engine.unixTime
        dispatcherOverride = engine.dispatcherOverride
        jitter = engine.jitter
        circuitBreakers = engine.circuitBreakers
        readyOrderSeed = engine.readyOrderSeed
        responseConformance = engine.responseConformance
        journal = engine.journal
        self.runID = runID
    }
}
