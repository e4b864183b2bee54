/// Decoding of `forEach:`, `maxConcurrency:` and `onItemFailure:` on a step.
extension WorkflowDecoder {
    /// The `forEach` of a step whose keys `fields` holds, or `nil` without one.
    mutating func forEach(_ fields: MappingReader, stepID: String) -> ForEach? {
        guard let node = fields["forEach"] else {
            for key in ["maxConcurrency", "onItemFailure"] where fields.contains(key) {
                report(.invalidValue, "'\(key)' applies to a step with 'forEach', which step '\(stepID)' is not",
                       fields[key]!, key: fields.keyNode(key))
            }
            return nil
        }
        guard case .string(let text)? = node.scalar?.value, text.hasPrefix("$") else {
            report(.typeMismatch,
                   "expected 'forEach' to be a runtime expression that gives an array, such as "
                       + "'$steps.list.outputs.items', found \(node.scalar.map { "'\($0.text)'" } ?? node.kindDescription)",
                   node)
            return nil
        }
        let quote = node.scalar?.style == .plain ? 0 : 1
        let expression: RuntimeExpression
        do {
            expression = try RuntimeExpression(parsing: text)
        } catch {
            report(.invalidExpression, "invalid expression in 'forEach': \(error.message)", node)
            diagnostics[diagnostics.count - 1].location = node.location.advanced(by: quote + error.offset)
            return nil
        }
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
            items: expression, location: node.location.advanced(by: quote), maxConcurrency: maxConcurrency,
            onItemFailure: onItemFailure)
    }
}
