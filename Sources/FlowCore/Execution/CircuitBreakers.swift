import Synchronization

/// The circuit breakers of an engine, shared by every run it performs.
///
/// A breaker counts the outcomes of calls over a sliding window. When at
/// least `minimumThroughput` calls are in the window and the share of
/// failures reaches `failureRatio`, it opens: calls fail at once with
/// `circuit-open` and no request leaves the machine. After `breakDuration` it
/// is half-open and lets exactly one probe through; the probe's success
/// closes it, its failure opens it again. This is the state machine of Polly's
/// circuit breaker.
///
/// Failures that count are `transport`, `timeout.attempt` and `http` with
/// status 429 or 5xx: the ones that say the server is unwell. A 404 or a
/// validation error says nothing about the server's health.
final class CircuitBreakers: Sendable {
    private enum State {
        case closed
        case open(until: EngineClock.Instant)
        case halfOpen(probeInFlight: Bool)
    }

    private struct Breaker {
        var state: State = .closed
        var window: [(time: EngineClock.Instant, failed: Bool)] = []
        var lastOpening: (failures: Int, calls: Int) = (0, 0)
    }

    private let breakers = Mutex<[String: Breaker]>([:])
    private let clock: EngineClock

    init(clock: EngineClock) {
        self.clock = clock
    }

    /// The key of the breaker that guards `planned` under `configuration`.
    ///
    /// The key names the workflow file and the policy too, so two workflows that both call a server
    /// `bank`, or two policies with different breaker settings, never share a breaker by accident.
    static func key(for planned: PlannedStep, _ configuration: Policy.CircuitBreaker, in plan: Plan) -> String {
        let guarded = switch configuration.scope {
        case .server: planned.server.map { "server '\($0.name.value)'" } ?? "step '\(planned.id)'"
        case .step: "step '\(planned.id)'"
        }
        return "\(guarded) (policy '\(planned.policy?.name.value ?? "")' of \(plan.workflow.path))"
    }

    /// Lets a call through, or throws `circuit-open` when the breaker is open or its one probe is in flight.
    func acquire(_ key: String, _ configuration: Policy.CircuitBreaker) throws(FlowError) {
        let now = clock.now
        let refusal: String? = breakers.withLock { all in
            var breaker = all[key] ?? Breaker()
            defer { all[key] = breaker }
            switch breaker.state {
            case .closed:
                return nil
            case .open(let until) where now >= until:
                breaker.state = .halfOpen(probeInFlight: true)
                return nil
            case .open(let until):
                let remaining = now.duration(to: until)
                return "the circuit breaker for \(key) is open after \(breaker.lastOpening.failures) of "
                    + "\(breaker.lastOpening.calls) calls failed; it lets a probe through in \(remaining.roundedText)"
            case .halfOpen(true):
                return "the circuit breaker for \(key) is half-open and its one probe is in flight"
            case .halfOpen(false):
                breaker.state = .halfOpen(probeInFlight: true)
                return nil
            }
        }
        if let refusal { throw FlowError(.circuitOpen, refusal) }
    }

    /// Records the outcome of a call that ``acquire(_:_:)`` let through.
    /// - Parameters:
    ///   - key: The breaker's key.
    ///   - configuration: The breaker's configuration.
    ///   - error: The call's error, or `nil` when it succeeded.
    func record(_ key: String, _ configuration: Policy.CircuitBreaker, error: FlowError?) {
        let failed = error.map(Self.countsAsFailure) ?? false
        let now = clock.now
        breakers.withLock { all in
            var breaker = all[key] ?? Breaker()
            defer { all[key] = breaker }
            switch breaker.state {
            case .halfOpen:
                if failed {
                    breaker.state = .open(until: now.advanced(by: configuration.breakDuration))
                } else {
                    breaker.state = .closed
                    breaker.window.removeAll()
                }
            case .open:
                break  // A call that started before the breaker opened; it changes nothing.
            case .closed:
                breaker.window.append((now, failed))
                let start = now.advanced(by: .zero - configuration.window)
                breaker.window.removeAll { $0.time < start }
                let failures = breaker.window.count { $0.failed }
                let calls = breaker.window.count
                if calls >= configuration.minimumThroughput,
                    Double(failures) / Double(calls) >= configuration.failureRatio
                {
                    breaker.state = .open(until: now.advanced(by: configuration.breakDuration))
                    breaker.lastOpening = (failures, calls)
                    breaker.window.removeAll()
                }
            }
        }
    }

    /// Releases a half-open probe that ended without an outcome (cancelled), so the next call may probe.
    func release(_ key: String) {
        breakers.withLock { all in
            if case .halfOpen(true)? = all[key]?.state { all[key]?.state = .halfOpen(probeInFlight: false) }
        }
    }

    static func countsAsFailure(_ error: FlowError) -> Bool {
        switch error.code {
        case .transport, .attemptTimeout: true
        case .httpStatus: error.status.map { $0 == 429 || $0 >= 500 } ?? false
        default: false
        }
    }
}
