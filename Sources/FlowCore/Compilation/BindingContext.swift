/// Where a value template is evaluated, which decides the expressions it may use.
enum BindingContext {
    /// The initial value of a variable.
    case variable(String)
    /// A server URL.
    case server
    /// An interceptor's configuration.
    case interceptor
    /// The request of a step.
    case request(Step)
    /// The request of an on-demand step that only `run:` rules run, which may read the failed response.
    case failureHandler(Step, handles: [HandledFailure])
    /// The outputs or `set` of a step, after its response arrived.
    case response(Step)
    /// A `catch` rule's values, after a step failed.
    case failure(Step?)
    /// The `if` condition of a retry rule of the step's policy, which reads the step's response: a failed one
    /// when the rule matches only failures (`failedResponse`), else a successful one (polling).
    case retryCondition(Step, failedResponse: Bool)
    /// A step's `if` condition and `else` outputs, evaluated when it is ready, before any request.
    case stepCondition(Step)
    /// The `until`/`while` of a step's `repeat`, or the `next` of its `paginate`, read after each successful
    /// response.
    case loop(Step)
    /// The value a `switch` step compares with its cases, evaluated when it is ready, before any request.
    case switchValue(Step)
    /// The workflow's outputs.
    case workflowOutputs
    /// The inline compensation request of a step, sent when the run fails after the step succeeded.
    case compensation(Step)
    /// The values a `workflow:` step binds to the called workflow's inputs.
    case workflowInputs(Step)

    /// The step whose dependencies grow when the template reads another step's outputs.
    var dependentStep: Step? {
        switch self {
        case .request(let step), .response(let step), .failureHandler(let step, _), .retryCondition(let step, _),
            .stepCondition(let step), .loop(let step), .workflowInputs(let step), .switchValue(let step): step
        default: nil
        }
    }

    /// Whether `$response...` and `$statusCode` are available.
    var hasResponse: Bool {
        switch self {
        case .response, .failure, .failureHandler, .retryCondition, .loop: true
        default: false
        }
    }

    /// Whether `$steps...` is available.
    var hasSteps: Bool {
        switch self {
        case .variable, .server, .interceptor: false
        default: true
        }
    }

    /// What the context is, for messages.
    var label: String {
        switch self {
        case .variable(let name): "the initial value of var '\(name)'"
        case .server: "a server URL"
        case .interceptor: "an interceptor"
        case .request(let step), .failureHandler(let step, _): "the request of step '\(step.id.value)'"
        case .response(let step): "the outputs of step '\(step.id.value)'"
        case .failure: "a catch rule"
        case .retryCondition(let step, _): "the retry condition of step '\(step.id.value)'"
        case .stepCondition(let step): "the 'if' and 'else' of step '\(step.id.value)'"
        case .loop(let step):
            step.pagination != nil ? "the 'paginate' of step '\(step.id.value)'" : "the 'repeat' of step '\(step.id.value)'"
        case .switchValue(let step): "the 'switch' of step '\(step.id.value)'"
        case .workflowOutputs: "the workflow outputs"
        case .compensation(let step): "the compensation of step '\(step.id.value)'"
        case .workflowInputs(let step): "the inputs of step '\(step.id.value)'"
        }
    }
}

/// Where a template's value ends up, which decides the types it may have.
enum Placement {
    /// Anywhere a JSON value may go.
    case value
    /// Somewhere only a scalar fits; the associated text names it: "a URL path", "a header".
    case scalar(String)
    /// A query parameter: a scalar or an array of scalars (sent as repeated parameters).
    case query
}
