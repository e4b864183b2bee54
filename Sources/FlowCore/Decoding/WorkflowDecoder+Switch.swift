/// Decoding of `switch:`, `cases:` and `default:` on a step.
extension WorkflowDecoder {
    /// The keys a step with `switch` may not have: it sends no request, and the case step it runs brings its own
    /// request, responses, outputs, policy and interceptors.
    static let keysNotForSwitchSteps = [
        "request", "response", "outputs", "set", "server", "dispatcher", "interceptors", "policy", "idempotent",
        "idempotencyKey", "on-demand", "compensate", "forEach", "maxConcurrency", "onItemFailure", "repeat",
        "paginate", "inputs",
    ]

    /// The `switch` of a step whose keys `fields` holds, or `nil` without one.
    mutating func switchSetting(_ fields: MappingReader, stepID: String) -> Switch? {
        guard let node = fields["switch"] else { return nil }
        for key in Self.keysNotForSwitchSteps where fields.contains(key) {
            report(.invalidValue,
                   "'\(key)' does not apply to switch step '\(stepID)': it sends no request itself, and the case "
                       + "step it runs has its own request, outputs and policy",
                   fields[key]!, key: fields.keyNode(key))
        }
        let fallback = fields["default"].flatMap { name($0, "'default'") }
        if !fields.contains("cases") {
            report(.missingKey, "switch step '\(stepID)' is missing the required key 'cases'", node,
                   key: fields.keyNode("switch"))
        }
        // Kept without cases, so its default counts as run and its readers are checked.
        let cases = fields["cases"].map { switchCases($0, stepID: stepID) } ?? []
        guard let (value, location) = wholeValueExpression(
            node, key: "switch",
            expecting: "a runtime expression whose value picks the case, such as '$steps.account.outputs.country'")
        else { return nil }
        return Switch(value: value, location: location, cases: cases, fallback: fallback)
    }

    /// The entries of `cases:`, each a scalar key and the name of the step it runs.
    private mutating func switchCases(_ node: YAMLNode, stepID: String) -> [Switch.Case] {
        guard let pairs = node.mapping, !pairs.isEmpty else {
            if node.mapping == nil && node.scalar?.value != .null {
                report(.typeMismatch,
                       "expected 'cases' to be a mapping of values to on-demand steps, found \(node.kindDescription)",
                       node)
            } else {
                report(.invalidValue, "switch step '\(stepID)' needs at least one case under 'cases'", node)
            }
            return []
        }
        return pairs.compactMap { pair in
            guard let key = pair.key.scalar, let step = name(pair.value, "the step of case '\(key.text)'") else {
                return nil
            }
            return Switch.Case(
                text: key.text, value: JSONValue(yaml: pair.key), location: pair.key.location, step: step)
        }
    }
}
