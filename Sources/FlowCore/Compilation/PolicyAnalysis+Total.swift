extension PolicyAnalysis {
    /// What one run of a workflow can send and take at most: its regular steps' figures added up.
    ///
    /// On-demand steps count where they run: a refresh inside the attempts of the steps it serves, a `switch`
    /// case inside its switch step. Steps that run at the same time take no longer than one after another, so
    /// ``duration`` is an upper bound. A `catch` rule's `goto` or `run` can add runs, as
    /// ``PolicyAnalysis`` says. A `forEach` step's figures grow with its items, which are only known at run
    /// time: they are left out of ``requests`` and ``duration`` and listed in ``perItem``, so those two are
    /// the total only when ``perItem`` is empty.
    public struct Total: Sendable, Hashable {
        /// The most requests of the steps whose count is known (every one but the `forEach` steps).
        public var requests: Int
        /// The longest the steps whose count is known can take, one after another, capped by the workflow's
        /// `deadline`; `nil` when some step is unbounded and no deadline bounds the run.
        public var duration: Duration?
        /// Whether the workflow's `deadline` decides ``duration``.
        public var isDeadline: Bool
        /// The `forEach` steps, whose figures add `requests` per item and `duration × ⌈items / maxConcurrency⌉`;
        /// a called workflow's are named by the calling step's path, `login/details`.
        public var perItem: [PerItemStep]

        /// Whether ``requests`` and ``duration`` are only a lower bound: a `forEach` step adds to them per item.
        public var isLowerBound: Bool { !perItem.isEmpty }

        /// Creates a total from its parts.
        /// - Parameters:
        ///   - requests: The known steps' most requests.
        ///   - duration: Their longest time, `nil` when unbounded.
        ///   - isDeadline: Whether the deadline decides the duration.
        ///   - perItem: The `forEach` steps.
        public init(requests: Int, duration: Duration?, isDeadline: Bool = false, perItem: [PerItemStep] = []) {
            self.requests = requests
            self.duration = duration
            self.isDeadline = isDeadline
            self.perItem = perItem
        }

        /// Adds up regular steps' worst cases.
        /// - Parameters:
        ///   - steps: The regular (not on-demand) steps' worst cases.
        ///   - deadline: The workflow's `deadline`, which ends the run.
        init(regularSteps steps: [StepWorstCase], deadline: Duration?) {
            var requests = 0
            var duration: Duration? = .zero
            var perItem: [PerItemStep] = []
            for step in steps {
                perItem += step.subWorkflow?.total.perItem.map { $0.called(by: step.id) } ?? []
                if let loop = step.loop, loop.isPerItem {
                    perItem.append(PerItemStep(
                        id: step.id, requests: step.requests, duration: step.duration,
                        maxConcurrency: loop.maxConcurrency ?? 1))
                    continue
                }
                requests = requests.saturatingAdd(step.requests)
                duration = switch step.duration {
                case .atMost(let longest), .totalTimeout(let longest): duration.map { $0.saturatingAdd(longest) }
                case .unbounded: nil
                }
            }
            var isDeadline = false
            if let deadline, duration.map({ $0 > deadline }) ?? true {
                (duration, isDeadline) = (deadline, true)
            }
            self.init(requests: requests, duration: duration, isDeadline: isDeadline, perItem: perItem)
        }
    }

    /// A `forEach` step in a workflow's total: what each of its items adds.
    public struct PerItemStep: Sendable, Hashable {
        /// The step's id; in a called workflow, the calling step's id, `/`, and the step's: `login/details`.
        public var id: String
        /// The most requests of one item.
        public var requests: Int
        /// The longest one item can take.
        public var duration: DurationBound
        /// The most items at once: the step takes `duration × ⌈items / maxConcurrency⌉` at most.
        public var maxConcurrency: Int

        /// Creates a per-item entry.
        /// - Parameters:
        ///   - id: The step's id or path.
        ///   - requests: One item's most requests.
        ///   - duration: One item's longest time.
        ///   - maxConcurrency: The most items at once.
        public init(id: String, requests: Int, duration: DurationBound, maxConcurrency: Int) {
            self.id = id
            self.requests = requests
            self.duration = duration
            self.maxConcurrency = maxConcurrency
        }

        /// The entry as the workflow that calls this one through step `caller` names it.
        func called(by caller: String) -> Self {
            var entry = self
            entry.id = caller + "/" + id
            return entry
        }
    }
}
