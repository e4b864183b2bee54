/// Decoding of `forEach:`, `maxConcurrency:` and `onItemFailure:` on a step.
extension WorkflowDecoder {
    /// The `forEach` of a step whose keys `fields` holds, or `nil` without one.
    mutating func forEach(_ fields: MappingReader, stepID: String) -> ForEach? {
        guard let node = fields["forEach"] else {
            reportKeys(["maxConcurrency", "onItemFailure"], thatNeed: "forEach", in: fields, stepID: stepID)
            return nil
        }
        guard let (expression, location) = wholeValueExpression(
            node, key: "forEach", expecting: "a runtime expression that gives an array, such as '$steps.list.outputs.items'")
        else { return nil }
        var maxConcurrency = ForEach.defaultMaxConcurrency
        if let limit = fields["maxConcurrency"] {
            if case .int(let value)? = limit.scalar?.value, (1...ForEach.maxConcurrencyLimit).contains(value) {
                maxConcurrency = value
            } else {
                report(.invalidValue,
                       "'maxConcurrency' is a whole number from 1 to \(ForEach.maxConcurrencyLimit), found "
                           + (limit.scalar.map { "'\($0.text)'" } ?? limit.kindDescription),
                       limit)
            }
        }
        var onItemFailure = ForEach.ItemFailure.fail
        if let mode = fields["onItemFailure"], let text = string(mode, "'onItemFailure'") {
            if let value = ForEach.ItemFailure(rawValue: text.value) {
                onItemFailure = value
            } else {
                let modes = ForEach.ItemFailure.allCases.map(\.rawValue)
                report(.invalidValue,
                       "'onItemFailure' is one of \(modes.joined(separator: ", ")), found '\(text.value)'"
                           + Suggestion.didYouMean(text.value, in: modes),
                       mode)
            }
        }
        return ForEach(
            items: expression, location: location, maxConcurrency: maxConcurrency,
            onItemFailure: onItemFailure)
    }
}
