/// A compiled workflow: every reference resolved, every binding type-checked, steps in dependency order.
///
/// A `Plan` is what ``WorkflowCompiler`` produces and what the engine runs.
/// It keeps the ``Workflow`` it was compiled from, so reports can point back
/// into the file.
public struct Plan: Sendable {
    /// The workflow the plan was compiled from.
    public let workflow: Workflow
    /// Every step, regular steps first in a dependency-respecting order, then the on-demand steps.
    public let steps: [PlannedStep]
    /// The named types, by name, for validating values at run time.
    public let types: [String: JSONSchema]
    /// The warnings the compiler found; a plan exists only when there were no errors.
    public let warnings: [Diagnostic]
    /// What undoes each step that declares `compensate:`, by step id: an on-demand step or a planned inline request.
    public let compensations: [String: PlannedStep]
    /// The validator for the plan's types, shared by every run so compiled patterns are cached once.
    let validator: JSONSchemaValidator
    /// The inputs whose values are secrets (`format: password`).
    let secretInputs: Set<String>
    /// The vars that hold secrets: those whose initial value reads a secret input or another secret var.
    let secretVariables: Set<String>

    init(
        workflow: Workflow, steps: [PlannedStep], types: [String: JSONSchema],
        compensations: [String: PlannedStep], warnings: [Diagnostic]
    ) {
        self.workflow = workflow
        self.steps = steps
        self.types = types
        self.compensations = compensations
        self.warnings = warnings
        self.validator = JSONSchemaValidator(types: types)
        self.secretInputs = Self.secretInputs(of: workflow, types: types)
        self.secretVariables = Self.secretVariables(of: workflow, secretInputs: secretInputs)
    }

    /// The planned step with the given id.
    /// - Parameter id: A step id.
    /// - Returns: The step, or `nil` when the workflow declares none with that id.
    public func step(_ id: String) -> PlannedStep? {
        steps.first { $0.id == id }
    }
}

/// One step of a ``Plan``, with everything it refers to resolved.
public struct PlannedStep: Sendable {
    /// The step as declared.
    public let step: Step
    /// The ids of the steps whose completion this step waits for.
    public internal(set) var dependencies: [String]
    /// The server the request goes to; `nil` when the path is an absolute URL.
    public let server: Server?
    /// The interceptors around the call, in the order they run outbound.
    public let interceptors: [InterceptorDeclaration]
    /// The error policy, if any.
    public let policy: Policy?
    /// The name of the dispatcher that performs the request.
    public let dispatcher: String
    /// The statically known type of each output, by output name; absent when unknown.
    public let outputTypes: [String: JSONSchema]

    /// The step's id.
    public var id: String { step.id.value }
}
