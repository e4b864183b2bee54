/// Which regular steps of a run are waiting, ready, running or done, kept so that every scheduling
/// operation costs time in proportion to the steps it touches, not to the whole workflow.
///
/// A step is *ready* when every step it depends on is done. Ready steps start in plan order (the
/// compiler's dependency-respecting order), lowest first, so a run's order of calls does not depend on
/// the order in which concurrent steps happened to finish. With a seed, ready steps start in an order
/// drawn from it instead (``Engine/readyOrderSeed``): a race between steps that nothing orders then shows
/// in a test instead of only over a network.
///
/// Each step keeps a count of its dependencies that are not done; finishing a step decrements the counts
/// of its dependents only. A `goto` that sends the run back is rare and bounded by its visit limit, so
/// ``reopen(_:)`` simply recounts.
struct StepSchedule {
    enum State: Equatable, Codable {
        case waiting
        case running
        case done
    }

    /// What does not change during a run: the steps and how they depend on each other, shared by every run of
    /// a plan (``Plan`` makes it once).
    private let graph: StepGraph
    private(set) var states: [State]
    /// How many of each step's dependencies are not done.
    private var unmet: [Int]
    /// The waiting steps whose dependencies are all done, as a binary min-heap by ``rank``.
    private var ready: [Int]
    /// The order in which ready steps start, lowest first, by position: the position itself (plan order),
    /// or a permutation drawn from a seed.
    private let rank: [Int]

    /// The ids of the regular steps, in plan order; a step is known by its position here.
    var ids: [String] { graph.ids }

    /// A schedule in which no step has started.
    /// - Parameters:
    ///   - steps: The regular steps in plan order, each with the ids of the steps it depends on.
    ///   - seed: When set, ready steps start in an order drawn from it rather than in plan order.
    init(_ steps: [(id: String, dependencies: [String])], seed: UInt64? = nil) {
        self.init(StepGraph(steps), seed: seed)
    }

    /// A schedule of `graph`'s steps in which no step has started.
    /// - Parameters:
    ///   - graph: The steps and their dependencies.
    ///   - seed: When set, ready steps start in an order drawn from it rather than in plan order.
    init(_ graph: StepGraph, seed: UInt64? = nil) {
        self.graph = graph
        states = graph.allWaiting
        unmet = graph.initialUnmet
        guard let seed else {
            // In plan order the initial heap is the ready positions in ascending order, which is a heap already.
            rank = graph.planOrder
            ready = graph.initiallyReady
            return
        }
        var rank = graph.planOrder
        var generator = SplitMix64(seed: seed)
        rank.shuffle(using: &generator)
        self.rank = rank
        ready = []
        for index in graph.initiallyReady { push(index) }
    }

    /// How many waiting steps could start now.
    var readyCount: Int { ready.count }

    /// The ids of the steps that have not started, in plan order.
    var waitingIDs: [String] { ids.indices.filter { states[$0] == .waiting }.map { ids[$0] } }

    /// Marks the first ready step (in plan order) as running.
    /// - Returns: Its id, or `nil` when no step is ready.
    mutating func startNext() -> String? {
        startNextStep()?.id
    }

    /// Marks the first ready step (in plan order) as running.
    /// - Returns: Its id, its position here and its position among all the plan's steps, or `nil` when no step
    ///   is ready.
    mutating func startNextStep() -> (id: String, position: Int, planPosition: Int)? {
        guard let index = popFirst() else { return nil }
        states[index] = .running
        return (graph.ids[index], index, graph.planPositions[index])
    }

    /// The position here of the step at `planPosition` among all the plan's steps; `nil` for an on-demand one.
    func position(ofPlanPosition planPosition: Int) -> Int? {
        graph.graphPositions[planPosition]
    }

    /// Whether step `id` is running.
    func isRunning(_ id: String) -> Bool {
        graph.position[id].map { states[$0] == .running } ?? false
    }

    /// Marks step `id` as done, which may make the steps that depend on it ready.
    ///
    /// Marking a step that is already done again changes nothing; an id that is not a regular step is ignored.
    mutating func finish(_ id: String) {
        guard let index = graph.position[id] else { return }
        finish(at: index)
    }

    /// Marks the step at `index` as done, as ``finish(_:)`` does.
    mutating func finish(at index: Int) {
        guard states[index] != .done else { return }
        states[index] = .done
        for dependent in graph.dependents[index] {
            unmet[dependent] -= 1
            if unmet[dependent] == 0 && states[dependent] == .waiting { push(dependent) }
        }
    }

    /// Returns steps to waiting (those not running), for a `goto` that runs them again, and recounts
    /// what every waiting step still needs.
    mutating func reopen(_ reopened: [String]) {
        for id in reopened {
            if let index = graph.position[id], states[index] != .running { states[index] = .waiting }
        }
        ready.removeAll(keepingCapacity: true)
        for index in ids.indices {
            unmet[index] = graph.dependencies[index].count { dependency in
                guard let dependency else { return true }
                return states[dependency] != .done
            }
            if states[index] == .waiting && unmet[index] == 0 { push(index) }
        }
    }

    /// A step and every regular step that depends on it, directly or not, in the order they are reached.
    func downstream(of id: String) -> [String] {
        guard let start = graph.position[id] else { return [id] }
        var result = [start]
        var seen: Set<Int> = [start]
        var next = 0
        while next < result.count {
            for dependent in graph.dependents[result[next]] where seen.insert(dependent).inserted {
                result.append(dependent)
            }
            next += 1
        }
        return result.map { ids[$0] }
    }

    /// Where each step stands, as a value that encodes: with the same steps and seed, ``restore(_:)`` brings a
    /// new schedule to this one's state.
    struct Progress: Codable, Sendable {
        var states: [State]
        var unmet: [Int]
        var ready: [Int]
    }

    /// Where each step stands now.
    var progress: Progress { Progress(states: states, unmet: unmet, ready: ready) }

    /// Takes the progress of a schedule of the same steps.
    mutating func restore(_ progress: Progress) {
        precondition(progress.states.count == ids.count, "a progress of another workflow")
        states = progress.states
        unmet = progress.unmet
        ready = progress.ready
    }

    // MARK: The heap

    private mutating func push(_ index: Int) {
        ready.append(index)
        var child = ready.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard rank[ready[child]] < rank[ready[parent]] else { break }
            ready.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popFirst() -> Int? {
        guard !ready.isEmpty else { return nil }
        let first = ready[0]
        let last = ready.removeLast()
        if !ready.isEmpty {
            ready[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < ready.count && rank[ready[left]] < rank[ready[smallest]] { smallest = left }
                if right < ready.count && rank[ready[right]] < rank[ready[smallest]] { smallest = right }
                if smallest == parent { break }
                ready.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }
}

/// The regular steps of a plan and how they depend on each other, by position: what every ``StepSchedule`` of
/// the plan starts from, worked out once when the plan is made.
final class StepGraph: Sendable {
    /// The ids of the regular steps, in plan order; a step is known by its position here.
    let ids: [String]
    let position: [String: Int]
    /// For each step, the positions of the steps it depends on, each once. A dependency that is not a
    /// regular step (and so is never done here) keeps the step waiting for good.
    let dependencies: [[Int?]]
    /// For each step, the positions of the steps that depend on it.
    let dependents: [[Int]]
    /// How many dependencies each step has.
    let initialUnmet: [Int]
    /// The positions of the steps that depend on nothing, ascending.
    let initiallyReady: [Int]
    /// Every position, ascending: the rank of each step in plan order.
    let planOrder: [Int]
    /// Each step's position among all the plan's steps (``Plan/steps``, on-demand ones included).
    let planPositions: [Int]
    /// Each of the plan's steps' position here, by its position in the plan; `nil` for an on-demand step.
    let graphPositions: [Int?]
    /// Every step waiting, and no step started yet: what a run's schedule and visit counts start from.
    ///
    /// Made once and shared, because `Array(repeating:count:)` looks up the array's generic metadata at every
    /// call (in the standard library's unspecialized allocation path), which cost a run more than the array.
    let allWaiting: [StepSchedule.State]
    let noVisits: [Int]

    /// The graph of `steps`, in plan order, each with the ids of the steps it depends on.
    /// - Parameters:
    ///   - steps: The regular steps.
    ///   - planPositions: Each step's position among all the plan's steps; by default, its position in `steps`.
    ///   - planStepCount: How many steps the plan has in all; by default, as many as `steps`.
    init(_ steps: [(id: String, dependencies: [String])], planPositions: [Int]? = nil, planStepCount: Int? = nil) {
        let planPositions = planPositions ?? Array(steps.indices)
        self.planPositions = planPositions
        var graphPositions = [Int?](repeating: nil, count: planStepCount ?? steps.count)
        for (index, position) in planPositions.enumerated() { graphPositions[position] = index }
        self.graphPositions = graphPositions
        let ids = steps.map(\.id)
        self.ids = ids
        let position = Dictionary(ids.indices.map { (ids[$0], $0) }, uniquingKeysWith: { first, _ in first })
        self.position = position
        var dependencies: [[Int?]] = []
        var dependents = [[Int]](repeating: [], count: ids.count)
        dependencies.reserveCapacity(ids.count)
        for (index, step) in steps.enumerated() {
            var seen: Set<String> = []
            let resolved = step.dependencies.filter { seen.insert($0).inserted }.map { position[$0] }
            for case let dependency? in resolved { dependents[dependency].append(index) }
            dependencies.append(resolved)
        }
        self.dependencies = dependencies
        self.dependents = dependents
        initialUnmet = dependencies.map(\.count)
        initiallyReady = ids.indices.filter { dependencies[$0].isEmpty }
        planOrder = Array(ids.indices)
        allWaiting = Array(repeating: .waiting, count: ids.count)
        noVisits = Array(repeating: 0, count: ids.count)
    }
}
