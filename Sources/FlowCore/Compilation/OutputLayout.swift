/// Where the run keeps one step output: the step's position in the plan and the output's position among the
/// step's outputs.
struct OutputSlot: Hashable, Sendable, Codable {
    var step: Int
    var output: Int
}

/// The outputs of a plan's steps, by position: which steps there are and which outputs each produces, so that
/// a run keeps outputs in an ``OutputTable`` indexed by ``OutputSlot`` and an expression resolved to a slot
/// reads its value without a lookup by name.
///
/// Made once per plan. The names stay for what still asks by name: a report, an expression made at run time,
/// and the check that a step produced what it declares.
final class OutputLayout: Sendable {
    /// The id of each step, by position in the plan.
    let stepIDs: [String]
    /// The names of each step's outputs, by position in the plan, in the step's order.
    let outputNames: [[String]]
    /// No step's outputs: what a run's ``OutputTable`` starts from, made once (as ``StepGraph/allWaiting`` is).
    let noOutputs: [[JSONValue?]?]
    private let stepPositions: [String: Int]
    private let outputPositions: [[String: Int]]

    /// The layout of `steps`, in plan order, each with its output names.
    init(_ steps: [(id: String, outputs: [String])]) {
        stepIDs = steps.map(\.id)
        outputNames = steps.map(\.outputs)
        noOutputs = Array(repeating: nil, count: steps.count)
        stepPositions = Dictionary(steps.indices.map { (steps[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        outputPositions = steps.map { step in
            Dictionary(step.outputs.indices.map { (step.outputs[$0], $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The position of step `id`, the first when ids repeat, or `nil` when the plan has no such step. The plan
    /// finds its steps by id here too.
    func position(of id: String) -> Int? { stepPositions.value(forFewKeys: id) }

    /// Where the run keeps output `output` of step `step`, or `nil` when the step declares no such output.
    func slot(step: String, output: String) -> OutputSlot? {
        guard let position = stepPositions[step], let index = outputPositions[position][output] else { return nil }
        return OutputSlot(step: position, output: index)
    }

    /// The position of output `name` among the outputs of the step at `position`.
    func outputPosition(_ name: String, ofStepAt position: Int) -> Int? {
        outputPositions[position][name]
    }
}
