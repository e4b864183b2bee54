/// The outputs of the steps of one run, kept by ``OutputSlot``: what `$steps.<id>.outputs.<name>` reads.
///
/// A step's outputs are recorded as a whole when it completes (or is given fallback or `else` outputs) and
/// removed when a `goto` runs it again. An expression the plan resolved to a slot reads its value by two
/// indexes; ``subscript(_:)`` still gives and takes a step's outputs by name, for reports, catch rules and
/// snapshots. Outputs of a step the plan does not have, and outputs a step does not declare, are not kept: no
/// expression the compiler accepts can read them.
///
/// A value type: every scope holds the table as it was when its step started, and recording shares storage
/// until one side changes.
struct OutputTable: Sendable {
    let layout: OutputLayout
    /// Each step's outputs by output position, by step position; `nil` for a step that has produced none.
    private var values: [[JSONValue?]?]

    /// A table for the steps of `layout`, none of which has produced outputs.
    init(layout: OutputLayout) {
        self.layout = layout
        values = layout.noOutputs
    }

    /// A table for no steps at all: for evaluating what can read no step output.
    init() {
        self.init(layout: Self.noSteps)
    }

    private static let noSteps = OutputLayout([])

    /// The value in `slot`: `.some(nil)` when the step completed without that output, `nil` when the step has
    /// produced no outputs.
    subscript(slot: OutputSlot) -> JSONValue?? {
        guard let outputs = values[slot.step] else { return nil }
        return .some(outputs[slot.output])
    }

    /// The outputs of step `id`, by name, or `nil` when it has produced none.
    subscript(id: String) -> [String: JSONValue]? {
        get {
            guard let position = layout.position(of: id), let outputs = values[position] else { return nil }
            var named: [String: JSONValue] = [:]
            for (index, name) in layout.outputNames[position].enumerated() {
                if let value = outputs[index] { named[name] = value }
            }
            return named
        }
        set {
            guard let position = layout.position(of: id) else { return }
            if let newValue { set(StepOutputs(newValue), at: position) } else { values[position] = nil }
        }
    }

    /// Records `outputs` as those of the step at `position`, as setting ``subscript(_:)`` by its id does.
    /// Outputs bound for the step's own names, in their order, are kept as they are.
    mutating func set(_ outputs: StepOutputs, at position: Int) {
        values[position] = outputs.values(for: layout.outputNames[position])
    }

    /// The value of output `output` of step `id`, looked up by name: `.some(nil)` when the step completed
    /// without it, `nil` when the step has produced no outputs.
    func value(step id: String, output: String) -> JSONValue?? {
        guard let position = layout.position(of: id), let outputs = values[position] else { return nil }
        guard let index = layout.outputPosition(output, ofStepAt: position) else { return .some(nil) }
        return .some(outputs[index])
    }

    /// Every step's outputs, by step id and output name: how a snapshot keeps them.
    var named: [String: [String: JSONValue]] {
        var named: [String: [String: JSONValue]] = [:]
        for (position, id) in layout.stepIDs.enumerated() where values[position] != nil {
            named[id] = self[id]
        }
        return named
    }

    /// A table of `layout`'s steps holding the outputs `named` gives by step id and output name.
    init(layout: OutputLayout, named: [String: [String: JSONValue]]) {
        self.init(layout: layout)
        for (id, outputs) in named { self[id] = outputs }
    }
}
