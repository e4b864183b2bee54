/// The values runtime expressions read at one point of a run.
///
/// A scope is cheap to copy: the variables are shared by reference, the rest
/// are immutable snapshots. A step's request is evaluated in a scope without
/// a response; its outputs and `set` in the same scope with the response.
struct RunScope: Sendable {
    /// What every scope of a run shares: it never changes during the run, so it lives in one object
    /// and a copy of the scope (every step, interceptor and evaluation makes some) retains it once.
    private final class Shared: Sendable {
        let inputs: [String: JSONValue]
        let environment: [String: String]
        let variables: RunVariables

        init(inputs: [String: JSONValue], environment: [String: String], variables: RunVariables) {
            self.inputs = inputs
            self.environment = environment
            self.variables = variables
        }
    }

    /// What a scope inside a `forEach`, `repeat` or `paginate` step adds, in one immutable object: most scopes
    /// are in no loop, and every step copies its scope a few times, so the item and the position (enums with
    /// strings in them) are one optional reference to copy rather than values copied case by case.
    private final class Loop: Sendable {
        let item: JSONValue?
        let position: LoopPosition

        init(item: JSONValue?, position: LoopPosition) {
            self.item = item
            self.position = position
        }
    }

    private let shared: Shared
    private var loop: Loop?
    /// The outputs of the steps that completed before this scope's step started.
    var stepOutputs: OutputTable
    var response: DecodedResponse?
    /// The current item of a `forEach` step, what `$item` reads; `nil` outside one.
    var item: JSONValue? {
        get { loop?.item }
        set { loop = Loop(item: newValue, position: position) }
    }
    /// Where in a loop the step runs: the item and iteration indexes its attempts are reported with, and the
    /// page a paginated step fetches.
    var position: LoopPosition {
        get { loop?.position ?? LoopPosition() }
        set { loop = Loop(item: item, position: newValue) }
    }
    /// The seed the driver drew when the step started, from which its `Idempotency-Key`s are drawn; `nil` for a
    /// step no start event covers (a refresh or compensation), whose keys come from the system's random source.
    var stepSeed: UInt64?

    var inputs: [String: JSONValue] { shared.inputs }
    var environment: [String: String] { shared.environment }
    var variables: RunVariables { shared.variables }

    init(
        inputs: [String: JSONValue], environment: [String: String], variables: RunVariables,
        stepOutputs: OutputTable = OutputTable(), response: DecodedResponse?
    ) {
        self.shared = Shared(inputs: inputs, environment: environment, variables: variables)
        self.stepOutputs = stepOutputs
        self.response = response
    }

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
            // Resolved to a slot when the plan was lowered; an expression made at run time is looked up by name.
            let found: JSONValue??
            if let slot = expression.slot {
                assert(stepOutputs.layout.stepIDs[slot.step] == step, "'\(expression)' resolved in another plan")
                found = stepOutputs[slot]
            } else {
                found = stepOutputs.value(step: step, output: output)
            }
            guard let outputs = found else {
                throw FlowError(.binding, "'\(expression)' reads step '\(step)', which has not produced outputs")
            }
            guard let value = outputs else {
                throw FlowError(.binding, "'\(expression)' reads output '\(output)', which step '\(step)' did not produce")
            }
            base = value
        case .responseBody:
            guard let response else { throw FlowError(.binding, "'\(expression)' has no response to read") }
            base = response.body
        case .item:
            guard let item else { throw FlowError(.binding, "'\(expression)' is read outside a forEach step") }
            base = item
        case .responseHeader(let name):
            guard let response else { throw FlowError(.binding, "'\(expression)' has no response to read") }
            guard let value = response.headers[name] else {
                throw FlowError(.binding, "'\(expression)' reads header \(name), which the response does not have")
            }
            return .string(value)
        case .statusCode:
            guard let response else { throw FlowError(.binding, "'\(expression)' has no response to read") }
            return .int(response.status)
        case .url:
            guard let url = response?.url else { throw FlowError(.binding, "'\(expression)' has no request to read") }
            // Read as reports show it: an API key in the query or a password in the user-info is a secret, whatever
            // its value, and a value read here may end up in outputs.
            return .string(URLRedaction.redact(url))
        }
        guard let pointer = expression.pointer, !pointer.tokens.isEmpty else { return base }
        guard let value = pointer.resolve(in: base) else {
            throw FlowError(.binding, "'\(expression)' reads nothing: there is no \(pointer) in the value")
        }
        return value
    }

    /// Evaluates a template.
    ///
    /// The usual forms — a literal, one expression, an interpolated string — are evaluated here
    /// directly, as ``ValueTemplate/evaluate(_:)`` would: going through its lookup closure copies
    /// the scope into the closure for every template, and every request evaluates several.
    func evaluate(_ template: ValueTemplate) throws(FlowError) -> JSONValue {
        switch template {
        case .literal(let value):
            return value
        case .expression(let expression, _):
            return try value(of: expression)
        case .string(let stringTemplate, _):
            return .string(try text(of: stringTemplate))
        case .array, .object:
            do {
                return try template.evaluate { expression in try value(of: expression) }
            } catch let error as FlowError {
                throw error
            } catch {
                throw FlowError(.binding, "\(error)", underlyingError: error)
            }
        }
    }

    /// Fills in an interpolated string as ``StringTemplate/evaluate(_:)`` does: strings as they are,
    /// other values as compact JSON.
    private func text(of template: StringTemplate) throws(FlowError) -> String {
        var text = ""
        for segment in template.segments {
            switch segment {
            case .literal(let literal): text += literal
            case .expression(let expression, _): text += try value(of: expression).interpolationText
            }
        }
        return text
    }

    /// Evaluates a template into text: strings as they are, other values as compact JSON.
    func evaluateText(_ template: ValueTemplate) throws(FlowError) -> String {
        try evaluate(template).interpolationText
    }
}

extension Condition {
    /// Whether the condition holds for the value its expression reads in `scope`; a value that cannot be read
    /// never satisfies it.
    func holds(in scope: RunScope) -> Bool {
        holds(for: try? scope.value(of: expression))
    }
}
