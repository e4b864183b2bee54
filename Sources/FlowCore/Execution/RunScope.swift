/// The values runtime expressions read at one point of a run.
///
/// A scope is cheap to copy: the variables are shared by reference, the rest
/// are immutable snapshots. A step's request is evaluated in a scope without
/// a response; its outputs and `set` in the same scope with the response.
struct RunScope: Sendable {
    var inputs: [String: JSONValue]
    var environment: [String: String]
    var variables: RunVariables
    var stepOutputs: [String: [String: JSONValue]]
    var response: DecodedResponse?

    /// The value of `expression`, with its pointer applied.
    /// - Throws: ``FlowError`` with code ``FlowError/Code/binding`` when the value does not exist.
    func value(of expression: RuntimeExpression) throws(FlowError) -> JSONValue {
        let base: JSONValue
        switch expression.source {
        case .input(let name):
            guard let value = inputs[name] else {
                throw FlowError(.binding, "'\(expression)' reads input '\(name)', which the run was not given")
            }
            base = value
        case .variable(let name):
            guard let value = variables[name] else {
                throw FlowError(.binding, "'\(expression)' reads var '\(name)', which has no value")
            }
            base = value
        case .environment(let name):
            guard let value = environment[name] else {
                throw FlowError(.binding, "environment variable \(name) is not set (read by '\(expression)')")
            }
            base = .string(value)
        case .stepOutput(let step, let output):
            guard let outputs = stepOutputs[step] else {
                throw FlowError(.binding, "'\(expression)' reads step '\(step)', which has not produced outputs")
            }
            guard let value = outputs[output] else {
                throw FlowError(.binding, "'\(expression)' reads output '\(output)', which step '\(step)' did not produce")
            }
            base = value
        case .responseBody:
            guard let response else { throw FlowError(.binding, "'\(expression)' has no response to read") }
            base = response.body
        case .responseHeader(let name):
            guard let response else { throw FlowError(.binding, "'\(expression)' has no response to read") }
            guard let value = response.headers[name] else {
                throw FlowError(.binding, "'\(expression)' reads header \(name), which the response does not have")
            }
            return .string(value)
        case .statusCode:
            guard let response else { throw FlowError(.binding, "'\(expression)' has no response to read") }
            return .int(response.status)
        }
        guard let pointer = expression.pointer, !pointer.tokens.isEmpty else { return base }
        guard let value = pointer.resolve(in: base) else {
            throw FlowError(.binding, "'\(expression)' reads nothing: there is no \(pointer) in the value")
        }
        return value
    }

    /// Evaluates a template.
    func evaluate(_ template: ValueTemplate) throws(FlowError) -> JSONValue {
        do {
            return try template.evaluate { expression in try value(of: expression) }
        } catch let error as FlowError {
            throw error
        } catch {
            throw FlowError(.binding, "\(error)", underlyingError: error)
        }
    }

    /// Evaluates a template into text: strings as they are, other values as compact JSON.
    func evaluateText(_ template: ValueTemplate) throws(FlowError) -> String {
        let value = try evaluate(template)
        if case .string(let text) = value { return text }
        return value.serialized()
    }
}

/// A response with its body decoded: JSON when it parses as JSON, else the text as a string.
struct DecodedResponse: Sendable {
    var status: Int
    var headers: HeaderFields
    var body: JSONValue
}
