/// `forEach:` on a step: the step's request is sent once per item of an array, at most ``maxConcurrency`` at
/// a time, and each output becomes the array of the items' values, in the order of the items.
///
/// ```yaml
/// - id: details
///   forEach: $steps.transactions.outputs.list
///   maxConcurrency: 4
///   onItemFailure: skip
///   request: { method: GET, path: "/transactions/{$item#/id}" }
///   outputs: { detail: $response.body }
/// ```
package struct ForEach: Sendable {
    /// What a failed item does to the step.
    package enum ItemFailure: String, Sendable, CaseIterable {
        /// The step fails with the first item's failure; the items not started yet are not sent.
        case fail
        /// The item is left out of the outputs; the step succeeds with the items that did.
        case skip
        /// The step succeeds; each output keeps one entry per item, `null` for a failed one, and the output
        /// ``errorsOutput`` lists the failed items' errors.
        case collect
    }

    /// The output that `onItemFailure: collect` adds: `{ item, code, message, status? }` per failed item.
    package static let errorsOutput = "errors"

    /// The array: a whole-value runtime expression.
    package var items: RuntimeExpression
    /// Where the expression is written.
    package var location: SourceLocation
    /// How many items run at once.
    package var maxConcurrency: Int
    /// What a failed item does.
    package var onItemFailure: ItemFailure

    /// The default of ``maxConcurrency``: one item at a time.
    package static let defaultMaxConcurrency = 1
    /// The largest ``maxConcurrency`` accepted.
    package static let maxConcurrencyLimit = 64

    /// Creates the setting.
    package init(items: RuntimeExpression, location: SourceLocation, maxConcurrency: Int, onItemFailure: ItemFailure) {
        self.items = items
        self.location = location
        self.maxConcurrency = maxConcurrency
        self.onItemFailure = onItemFailure
    }
}
