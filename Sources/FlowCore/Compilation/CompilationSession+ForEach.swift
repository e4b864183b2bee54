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
