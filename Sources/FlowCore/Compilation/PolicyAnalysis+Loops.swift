extension PolicyAnalysis {
    /// How a `repeat`, `paginate` or `forEach` step multiplies the worst case of one run of its request.
    ///
    /// A `repeat` step runs its request at most `maxIterations` times and a `paginate` step at most `maxPages`
    /// times, waiting between runs: their worst case is the iterations' figures added up, plus every wait. A
    /// `forEach` step runs it once per item, and the number of items is only known at run time: its figures
    /// are per item, and its longest time is `perItem × ⌈items / maxConcurrency⌉`.
    public struct Loop: Sendable, Hashable {
        /// Which loop a step has.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// `repeat:`, bounded by `maxIterations`.
            case `repeat`
            /// `paginate:`, bounded by `maxPages`.
            case paginate
            /// `forEach:`, once per item.
            case forEach
        }

        /// Which loop it is.
        public var kind: Kind
        /// For `repeat` and `paginate`: the most iterations (`maxIterations`, `maxPages`); `nil` for `forEach`,
        /// whose item count is unknown until run time.
        public var maxIterations: Int?
        /// For `forEach`: the most items that run at once.
        public var maxConcurrency: Int?
        /// The most attempts of one iteration (item).
        public var attempts: Int
        /// The most requests of one iteration (item).
        public var requests: Int
        /// The longest one iteration (item) can take.
        public var duration: DurationBound
        /// The longest sum of the waits between iterations, all `maxIterations − 1` of them; zero for `forEach`.
        public var waits: Duration

        /// Whether the step's figures are per item: a `forEach` step.
        public var isPerItem: Bool { kind == .forEach }

        /// Creates a loop description.
        /// - Parameters:
        ///   - kind: Which loop.
        ///   - maxIterations: The most iterations, `nil` for `forEach`.
        ///   - maxConcurrency: For `forEach`, the most items at once.
        ///   - attempts: One iteration's most attempts.
        ///   - requests: One iteration's most requests.
        ///   - duration: One iteration's longest time.
        ///   - waits: The longest sum of the waits between iterations.
        public init(
            kind: Kind, maxIterations: Int?, maxConcurrency: Int?, attempts: Int, requests: Int,
            duration: DurationBound, waits: Duration
        ) {
            self.kind = kind
            self.maxIterations = maxIterations
            self.maxConcurrency = maxConcurrency
            self.attempts = attempts
            self.requests = requests
            self.duration = duration
            self.waits = waits
        }
    }

    /// `single`, the worst case of one run of `step`'s request, widened to the step's loop if it has one.
    static func looped(_ single: StepWorstCase, step: Step) -> StepWorstCase {
        let kind: Loop.Kind
        let iterations: Int?
        let pacing: LoopPacing?
        if let repetition = step.repetition {
            (kind, iterations, pacing) = (.repeat, repetition.maxIterations, repetition.pacing)
        } else if let pagination = step.pagination {
            (kind, iterations, pacing) = (.paginate, pagination.maxPages, pagination.pacing)
        } else if step.forEach != nil {
            (kind, iterations, pacing) = (.forEach, nil, nil)
        } else {
            return single
        }
        var waits = Duration.zero
        if let iterations, let pacing, iterations > 1 {
            for index in 0..<(iterations - 1) { waits = waits.saturatingAdd(pacing.wait(after: index)) }
        }
        var worst = single
        worst.loop = Loop(
            kind: kind, maxIterations: iterations, maxConcurrency: step.forEach?.maxConcurrency,
            attempts: single.attempts, requests: single.requests, duration: single.duration, waits: waits)
        guard let iterations else { return worst }
        worst.attempts = single.attempts.saturatingMultiply(iterations)
        worst.duration = switch single.duration {
        case .atMost(let one), .totalTimeout(let one): .atMost(one.saturatingMultiply(iterations).saturatingAdd(waits))
        case .unbounded(let reason): .unbounded(reason)
        }
        return worst
    }
}
