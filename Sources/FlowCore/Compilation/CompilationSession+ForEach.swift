/// Checks of `forEach:` on steps: it reads an array, `$item` has the array's item type, and the step has no
/// `set` (which item's value would a var get?) and is not on-demand.
extension CompilationSession {
    /// Checks the `forEach` of `step`.
    mutating func checkForEach(of step: Step) {
        guard let forEach = step.forEach else { return }
        if step.onDemand {
            error(.invalidValue,
                  "step '\(step.id.value)' is on-demand: 'forEach' applies to regular steps", at: forEach.location)
        }
        if let first = step.set.first {
            error(.invalidValue,
                  "step '\(step.id.value)' runs once per item of 'forEach', so 'set' would update its vars once per "
                      + "item; read the step's outputs (arrays, in the order of the items) instead",
                  at: first.name.location)
        }
        _ = itemType(of: step)
        if forEach.onItemFailure == .collect,
            let clash = step.outputs.first(where: { $0.name.value == ForEach.errorsOutput })
        {
            error(.duplicateName,
                  "step '\(step.id.value)' collects its failed items' errors in the output '\(ForEach.errorsOutput)' "
                      + "('onItemFailure: collect'); give this output another name",
                  at: clash.name.location)
        }
    }

    /// The outputs of a `forEach` step whose items' outputs have `types`: the array of the items' values, in the
    /// order of the items; with `onItemFailure: collect` each value may be `null` (a failed item), and
    /// `errors` lists the failed items' errors.
    func forEachOutputTypes(_ types: [String: JSONSchema?], _ forEach: ForEach) -> [String: JSONSchema?] {
        let at = forEach.location
        let collects = forEach.onItemFailure == .collect
        var arrays = types.mapValues { type -> JSONSchema? in
            var item = type ?? JSONSchema(location: at)
            if collects, type != nil { item = navigator.union(item, JSONSchema(location: at, types: [.null]), at: at) }
            return JSONSchema(location: at, types: [.array], items: item)
        }
        if collects { arrays[ForEach.errorsOutput] = .some(Self.itemErrorsType(at: at)) }
        return arrays
    }

    /// The type of the `errors` output of `onItemFailure: collect`: `{ item, code, message, status? }` per
    /// failed item.
    static func itemErrorsType(at location: SourceLocation) -> JSONSchema {
        func typed(_ type: JSONSchema.TypeName) -> JSONSchema { JSONSchema(location: location, types: [type]) }
        let entry = JSONSchema(
            location: location, types: [.object],
            properties: [
                ("item", typed(.integer)), ("code", typed(.string)), ("message", typed(.string)),
                ("status", typed(.integer)),
            ],
            required: ["item", "code", "message"].map { Located($0, at: location) },
            additionalProperties: .allowed(false))
        return JSONSchema(location: location, types: [.array], items: entry)
    }

    /// The type of `$item` in `step`: the item type of the array its `forEach` reads (`nil` when unknown).
    /// Reports once a `forEach` that reads something other than an array.
    mutating func itemType(of step: Step) -> JSONSchema? {
        guard let forEach = step.forEach else { return nil }
        if let memo = itemTypeMemo[step.id.value] { return memo }
        itemTypeMemo[step.id.value] = .some(nil)  // A forEach that reads its own items cannot loop here.
        var itemType: JSONSchema?
        if let type = typeOf(forEach.items, at: forEach.location, in: .stepCondition(step)),
            let resolved = navigator.resolve(type)
        {
            if let types = resolved.types, !types.contains(.array) {
                error(.bindingTypeMismatch,
                      "'forEach' reads '\(forEach.items)', which is \(navigator.describe(type)), not an array",
                      at: forEach.location)
            } else {
                itemType = resolved.items
            }
        }
        itemTypeMemo[step.id.value] = .some(itemType)
        return itemType
    }
}
