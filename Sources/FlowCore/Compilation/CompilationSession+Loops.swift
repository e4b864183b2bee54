/// Checks of `repeat:` and `paginate:` on steps: their conditions and next-page values read what a step's
/// outputs may read, with types that fit, and a loop is the only loop of its step.
extension CompilationSession {
    /// Checks the `repeat` or `paginate` of `step`.
    mutating func checkLoop(of step: Step) {
        let loopLocation = step.repetition?.location ?? step.pagination?.location
        if let loopLocation, let forEach = step.forEach {
            error(.invalidValue,
                  "step '\(step.id.value)' has 'forEach' (line \(forEach.location.line)) and a loop; a step has one "
                      + "of them: put the loop on a step of its own and read its outputs in the forEach",
                  at: loopLocation)
        }
        if let repetition = step.repetition {
            let condition = repetition.stop.condition
            checkCondition(condition, in: .loop(step))
        }
        if let pagination = step.pagination { checkPagination(pagination, of: step) }
    }

    private mutating func checkPagination(_ pagination: Pagination, of step: Step) {
        switch pagination.next {
        case .link:
            break
        case .value(let expression, let param):
            guard let type = typeOf(expression, at: pagination.nextLocation, in: .loop(step)),
                let types = navigator.resolve(type)?.types
            else { return }
            if param == nil, !types.contains(.string) {
                error(.bindingTypeMismatch,
                      "'next' reads '\(expression)', which is \(navigator.describe(type)), not the next page's URL; "
                          + "to send it as a cursor, name its query parameter with 'param'",
                      at: pagination.nextLocation)
            } else if param != nil, types.isSubset(of: [.object, .array, .boolean]) {
                error(.bindingTypeMismatch,
                      "'next' reads '\(expression)', which is \(navigator.describe(type)); a cursor sent in a query "
                          + "parameter is a string or a number",
                      at: pagination.nextLocation)
            }
        case .page:
            let types = outputTypes(of: step.id.value)
            let mayBeArray = types.values.contains { type in
                guard let type, let resolved = navigator.resolve(type)?.types else { return true }
                return resolved.contains(.array)
            }
            if !mayBeArray {
                error(.invalidValue,
                      "'next: page' stops at the first page whose array outputs are all empty, and step "
                          + "'\(step.id.value)' has no output that is an array; collect the page's items in one "
                          + "(such as 'items: $response.body#/items')",
                      at: pagination.nextLocation)
            }
        }
    }
}
