/// Decoding of `workflow:` and `inputs:` on a step, which calls another workflow file.
extension WorkflowDecoder {
    /// The step keys that describe a request, and why each does not apply to a `workflow:` step.
    static let requestOnlyStepKeys: KeyValuePairs<String, String> = [
        "request": "a step either sends a 'request' or calls a 'workflow', not both",
        "response": "the called workflow's steps declare their responses",
        "outputs": "the step's outputs are the called workflow's outputs, read as '$steps.<id>.outputs.<name>'",
        "set": "read the step's outputs instead",
        "server": "the called workflow's steps use its own servers",
        "dispatcher": "the called workflow's steps use its own dispatchers",
        "interceptors": "the called workflow's steps use its own interceptors",
        "policy": "the called workflow's steps use its own policies; handle the call's failure with 'on-error'",
        "idempotent": "it sends no request of its own",
        "idempotencyKey": "it sends no request of its own",
        "on-demand": "only a step that sends a request can be on-demand",
        "forEach": "a called workflow runs once per step",
        "maxConcurrency": "a called workflow runs once per step",
        "onItemFailure": "a called workflow runs once per step",
        "repeat": "put the loop in the called workflow, on the step that sends the request",
        "switch": "a step either calls a 'workflow' or runs one of several steps with 'switch', not both",
        "paginate": "put the loop in the called workflow, on the step that sends the request",
    ]

    /// The call of a step whose keys `fields` holds and whose `workflow:` value is `node`, reporting every
    /// request key it also has.
    mutating func subWorkflowCall(_ fields: MappingReader, _ node: YAMLNode, stepID: String) -> SubWorkflowCall? {
        for (key, reason) in Self.requestOnlyStepKeys where fields.contains(key) {
            report(.invalidValue, "'\(key)' does not apply to step '\(stepID)', which calls a workflow: \(reason)",
                   fields[key]!, key: fields.keyNode(key))
        }
        if let compensation = fields["compensate"], compensation.mapping?.contains(where: {
            $0.key.scalar?.text == "request"
        }) == true {
            report(.invalidValue,
                   "step '\(stepID)' calls a workflow, so it has no server or interceptors for a compensation "
                       + "'request'; compensate it with an on-demand step: 'compensate: <step id>'",
                   compensation)
        }
        let inputs = fields["inputs"].map { bindings($0, "the inputs of step '\(stepID)'") } ?? []
        guard let path = string(node, "'workflow'") else { return nil }
        if path.value.isEmpty {
            report(.invalidValue, "'workflow' is the path of a workflow file, relative to this one; found ''", node)
            return nil
        }
        return SubWorkflowCall(path: path, inputs: inputs)
    }
}

extension Request {
    /// The request of a step that sends none itself (a `workflow:` or `switch` step), never built or sent: an
    /// empty `GET` located at the step.
    static func placeholder(at location: SourceLocation) -> Request {
        Request(method: Located("GET", at: location), path: .literal(.string("")), pathLocation: location)
    }
}
