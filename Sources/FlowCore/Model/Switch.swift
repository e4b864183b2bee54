/// `switch:` on a step: the step sends no request of its own but runs the one on-demand step whose case matches
/// a value, and its outputs are that step's outputs.
///
/// ```yaml
/// - id: payout
///   switch: $steps.account.outputs.country
///   cases: { DE: sepaPayout, AT: sepaPayout, US: wirePayout }
///   default: wirePayout
/// ```
///
/// A value that matches no case skips the step, as a false `if:` does, unless there is a ``fallback``
/// (`default:`).
package struct Switch: Sendable {
    /// One `key: step` entry under `cases:`.
    package struct Case: Sendable {
        /// The key as written, without quotes: `DE`, `1`, `true`.
        package var text: String
        /// The key as YAML reads it: a string, or a number, boolean or null when written as a plain scalar.
        package var value: JSONValue
        /// Where the key is written.
        package var location: SourceLocation
        /// The on-demand step the case runs.
        package var step: Located<String>

        /// Creates a case.
        package init(text: String, value: JSONValue, location: SourceLocation, step: Located<String>) {
            self.text = text
            self.value = value
            self.location = location
            self.step = step
        }

        /// Whether the switch value `value` selects this case: a string matches the key's text; a number, a
        /// boolean or null matches a key written as that scalar (numbers by value, so `1` matches `1.0`).
        package func matches(_ value: JSONValue) -> Bool {
            switch value {
            case .string(let string): return string == text
            case .int, .bigInteger, .double:
                guard let number = value.doubleValue, let key = self.value.doubleValue else { return false }
                return number == key
            case .bool, .null: return value == self.value
            case .array, .object: return false
            }
        }
    }

    /// What a switch chose for a value: the case step to run and why.
    package struct Choice: Sendable, Equatable {
        /// The key that matched, or `default`.
        package var key: String
        /// The id of the on-demand step to run.
        package var step: String
    }

    /// The value compared with the cases: a whole-value runtime expression.
    package var value: RuntimeExpression
    /// Where the expression is written.
    package var location: SourceLocation
    /// The cases, in file order; the first that matches wins.
    package var cases: [Case]
    /// `default:`: the step to run when no case matches; without it such a value skips the step.
    package var fallback: Located<String>?

    /// Creates the setting.
    package init(value: RuntimeExpression, location: SourceLocation, cases: [Case], fallback: Located<String>?) {
        self.value = value
        self.location = location
        self.cases = cases
        self.fallback = fallback
    }

    /// The case that `value` selects, else the default; `nil` when neither (a missing value matches no case).
    package func choose(_ value: JSONValue?) -> Choice? {
        if let value, let match = cases.first(where: { $0.matches(value) }) {
            return Choice(key: match.text, step: match.step.value)
        }
        return fallback.map { Choice(key: "default", step: $0.value) }
    }

    /// Whether a value may match no case, which skips the step: there is no default.
    package var mayMatchNoCase: Bool { fallback == nil }

    /// The ids of the steps the switch may run, each once, in file order (`default` last).
    package var stepIDs: [String] {
        var seen: Set<String> = []
        return (cases.map(\.step) + (fallback.map { [$0] } ?? [])).map(\.value).filter { seen.insert($0).inserted }
    }

    /// The keys that run step `id`, in file order, and `default` when it is the default: `DE, AT`.
    package func keys(runningStep id: String) -> [String] {
        cases.filter { $0.step.value == id }.map(\.text) + (fallback?.value == id ? ["default"] : [])
    }
}
