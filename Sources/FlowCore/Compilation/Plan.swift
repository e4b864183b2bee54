/// A compiled workflow: every reference resolved, every binding type-checked, steps in dependency order.
///
/// A `Plan` is what ``WorkflowCompiler`` produces and what the engine runs. To a
/// program that embeds flowrun it is opaque: compile it, run it with an ``Engine``,
/// draw it with ``PlanGraph`` or bound its cost with ``PolicyAnalysis``. Its parts
/// (the decoded workflow it keeps, so reports can point back into the file, and its
/// planned steps) are `package`: they are the compiler's and the engine's to change.
///
/// A plan is immutable, and its parts live in one shared object, so copying a
/// plan — which every run and every step does — costs one reference count, not one per part. The workflow and
/// the other large parts are read in place (`_read`), as ``PlannedStep``'s are.
public struct Plan: Sendable {
    /// The parts of a plan, shared by its copies.
    private final class Storage: Sendable {
        let workflow: Workflow
        let steps: [PlannedStep]
        let types: [String: JSONSchema]
        let warnings: [Diagnostic]
        let compensations: [String: PlannedStep]
        let outputTypes: [String: JSONSchema]
        let validator: JSONSchemaValidator
        let secretInputs: Set<String>
        let secretEnvironment: Set<String>
        let secretVariables: Set<String>
        /// The interceptors of the steps that send a credential, each declaration once: what a run registers as
        /// secrets before its first request.
        let credentialInterceptors: [InterceptorDeclaration.Kind]
        /// The regular steps and their dependencies, which every run's schedule starts from.
        let stepGraph: StepGraph
        /// The steps, then the compensations by the id of the step they undo.
        let stepsAndCompensations: [PlannedStep]
        /// Whether each step, by position, declares `compensate:`.
        let compensated: [Bool]
        /// The dispatchers, interceptors and parsers a run needs registered.
        let registrationNeeds: RegistrationNeeds
        /// Whether an interceptor of a step or compensation may run a step (a `refresh`).
        let runsRefreshSteps: Bool

        /// The steps' outputs by position, which a run's ``OutputTable`` and the plan's resolved expressions use.
        let outputLayout: OutputLayout

        init(
            workflow: Workflow, steps: [PlannedStep], types: [String: JSONSchema],
            compensations: [String: PlannedStep], outputTypes: [String: JSONSchema], warnings: [Diagnostic]
        ) {
            // Lowering: every step output an expression reads is resolved to the slot the run keeps it in.
            let outputLayout = OutputLayout(steps.map { ($0.id, $0.outputNames) })
            let resolver = SlotResolver(layout: outputLayout)
            var workflow = workflow
            resolver.resolve(&workflow)
            self.outputLayout = outputLayout
            self.workflow = workflow
            self.steps = steps.enumerated().map { $1.resolvingSlots(with: resolver, position: $0) }
            self.types = types
            self.compensations = compensations.mapValues { $0.resolvingSlots(with: resolver, position: nil) }
            self.outputTypes = outputTypes
            self.warnings = warnings
            self.validator = JSONSchemaValidator(types: types, formats: workflow.validation.formats)
            let secretInputs = Plan.secretInputs(of: workflow, types: types)
            self.secretInputs = secretInputs
            let secretEnvironment = Plan.secretEnvironment(of: workflow)
            self.secretEnvironment = secretEnvironment
            self.secretVariables = Plan.secretVariables(
                of: workflow, secretInputs: secretInputs, secretEnvironment: secretEnvironment)
            self.credentialInterceptors = Plan.credentialInterceptors(of: self.steps)
            let lowered = self.compensations
            self.stepsAndCompensations = self.steps + lowered.keys.sorted().compactMap { lowered[$0] }
            let planned = self.steps
            let regular = planned.indices.filter { !planned[$0].step.onDemand }
            self.stepGraph = StepGraph(
                regular.map { (planned[$0].id, planned[$0].dependencies) }, planPositions: regular,
                planStepCount: planned.count)
            self.compensated = planned.map { lowered[$0.id] != nil }
            self.registrationNeeds = RegistrationNeeds(stepsAndCompensations: stepsAndCompensations, steps: planned)
            self.runsRefreshSteps = stepsAndCompensations.contains { $0.interceptors.contains(where: \.mayRunSteps) }
        }
    }

    private let storage: Storage

    /// The workflow the plan was compiled from.
    package var workflow: Workflow { _read { yield storage.workflow } }
    /// Every step, regular steps first in a dependency-respecting order, then the on-demand steps.
    package var steps: [PlannedStep] { storage.steps }
    /// The named types, by name, for validating values at run time.
    package var types: [String: JSONSchema] { storage.types }
    /// The warnings the compiler found; a plan exists only when there were no errors.
    public var warnings: [Diagnostic] { storage.warnings }
    /// What undoes each step that declares `compensate:`, by step id: an on-demand step or a planned inline request.
    package var compensations: [String: PlannedStep] { storage.compensations }
    /// The statically known type of each workflow output, by name; absent when unknown. Its `$ref`s name
    /// ``types``.
    package var outputTypes: [String: JSONSchema] { storage.outputTypes }
    /// The steps' outputs by position: what a run's ``OutputTable`` is laid out by.
    var outputLayout: OutputLayout { _read { yield storage.outputLayout } }
    /// Whether each step, by position, declares `compensate:`.
    var compensated: [Bool] { storage.compensated }
    /// The position in ``steps`` of step `id`, the first when ids repeat.
    func position(of id: String) -> Int? { storage.outputLayout.position(of: id) }
    /// Every step, then the compensations by the id of the step they undo.
    var stepsAndCompensations: [PlannedStep] { storage.stepsAndCompensations }
    /// The dispatchers, `use:` interceptors and response parsers a run needs registered: what its preflight checks.
    var registrationNeeds: RegistrationNeeds { _read { yield storage.registrationNeeds } }
    /// The regular steps and their dependencies, by position: what every run's schedule starts from.
    var stepGraph: StepGraph { _read { yield storage.stepGraph } }
    /// The validator for the plan's types, shared by every run so compiled patterns are cached once.
    var validator: JSONSchemaValidator { _read { yield storage.validator } }
    /// The inputs whose values are secrets (`format: password`).
    var secretInputs: Set<String> { storage.secretInputs }
    /// The kinds of the interceptors that send a credential, each declaration once (``SecretRedactor/register(secretsOf:in:)``).
    var credentialInterceptors: [InterceptorDeclaration.Kind] { storage.credentialInterceptors }
    /// The vars that hold secrets: those an interceptor sends as a credential, and those whose initial value reads
    /// a secret input, a secret environment variable or another secret var.
    var secretVariables: Set<String> { storage.secretVariables }
    /// Whether an interceptor of a step or compensation may run a step (a `refresh`): only then does a run
    /// coordinate refreshes and collect the reports of the steps they run.
    var runsRefreshSteps: Bool { storage.runsRefreshSteps }
    /// Whether the workflow declares `vars`: without, its vars stay empty for the whole run, as only a declared
    /// var can be `set`.
    var declaresVariables: Bool { !storage.workflow.vars.isEmpty }
    /// The environment variables declared with `secret: true`.
    var secretEnvironment: Set<String> { storage.secretEnvironment }

    init(
        workflow: Workflow, steps: [PlannedStep], types: [String: JSONSchema],
        compensations: [String: PlannedStep], outputTypes: [String: JSONSchema] = [:], warnings: [Diagnostic]
    ) {
        storage = Storage(
            workflow: workflow, steps: steps, types: types, compensations: compensations, outputTypes: outputTypes,
            warnings: warnings)
    }

    /// The planned step with the given id.
    ///
    /// Looked up in an index built with the plan, so the engine can call it for every step it starts.
    /// - Parameter id: A step id.
    /// - Returns: The step, or `nil` when the workflow declares none with that id.
    package func step(_ id: String) -> PlannedStep? {
        position(of: id).map { storage.steps[$0] }
    }
}

/// One step of a ``Plan``, with everything it refers to resolved.
///
/// Its parts live in one shared, immutable object, so the copies the engine makes of a step as it
/// runs it cost one reference count each rather than one per part of the step. The large parts (the step as
/// declared, its policy, server and lowered request) are read in place (`_read`): `planned.step.condition`
/// borrows the step rather than copying the whole of it, with every string in it, to read one field.
package struct PlannedStep: Sendable {
    /// The parts of a planned step, shared by its copies.
    private final class Storage: Sendable {
        let step: Step
        let dependencies: [String]
        let server: Server?
        let interceptors: [InterceptorDeclaration]
        let policy: Policy?
        let dispatcher: String
        let outputTypes: [String: JSONSchema]
        let outputNames: [String]
        /// For each of the step's outputs, in order, the pointer it reads in the response body when that is all it
        /// reads (`$response.body#/id`), else `nil`.
        let responseBodyPointers: [JSONPointer?]
        let subWorkflow: Plan?
        /// The request lowered for sending; `nil` until the step is a step of a finished plan.
        let loweredRequest: LoweredRequest?
        let position: Int?
        let timeLimits: (attempt: Duration?, total: Duration?)?
        let retryRules: [RetryRule]
        let circuitBreaker: Policy.CircuitBreaker?

        init(
            step: Step, dependencies: [String], server: Server?, interceptors: [InterceptorDeclaration],
            policy: Policy?, dispatcher: String, outputTypes: [String: JSONSchema], outputNames: [String],
            subWorkflow: Plan?, position: Int?, loweredRequest: LoweredRequest?
        ) {
            self.position = position
            self.outputNames = outputNames
            self.responseBodyPointers = step.outputs.map { output in
                guard case .expression(let expression, _) = output.value, case .responseBody = expression.source else {
                    return nil
                }
                return expression.pointer ?? JSONPointer(tokens: [])
            }
            self.subWorkflow = subWorkflow
            self.step = step
            self.dependencies = dependencies
            self.server = server
            self.interceptors = interceptors
            self.policy = policy
            self.dispatcher = dispatcher
            self.outputTypes = outputTypes
            self.loweredRequest = loweredRequest
            self.timeLimits = policy?.timeout.map { ($0.attempt?.value, $0.total?.value) }
            self.retryRules = policy?.retry ?? []
            self.circuitBreaker = policy?.circuitBreaker
        }

        /// These parts with the ones given replaced; the lowered request is kept unless one is given.
        func replacing(
            step: Step? = nil, dependencies: [String]? = nil, policy: Policy?? = nil, position: Int?? = nil,
            loweredRequest: LoweredRequest? = nil
        ) -> Storage {
            Storage(
                step: step ?? self.step, dependencies: dependencies ?? self.dependencies, server: server,
                interceptors: interceptors, policy: policy ?? self.policy, dispatcher: dispatcher,
                outputTypes: outputTypes, outputNames: outputNames, subWorkflow: subWorkflow,
                position: position ?? self.position, loweredRequest: loweredRequest ?? self.loweredRequest)
        }
    }

    private var storage: Storage

    init(
        step: Step, dependencies: [String], server: Server?, interceptors: [InterceptorDeclaration],
        policy: Policy?, dispatcher: String, outputTypes: [String: JSONSchema], outputNames: [String],
        subWorkflow: Plan? = nil, position: Int? = nil
    ) {
        storage = Storage(
            step: step, dependencies: dependencies, server: server, interceptors: interceptors, policy: policy,
            dispatcher: dispatcher, outputTypes: outputTypes, outputNames: outputNames, subWorkflow: subWorkflow,
            position: position, loweredRequest: nil)
    }

    /// The step at `position` of its plan (`nil` for a compensation's request), with every step output its
    /// expressions read resolved to its slot by `resolver`, and its request lowered for sending: the step as
    /// the finished plan holds it.
    func resolvingSlots(with resolver: SlotResolver, position: Int?) -> PlannedStep {
        var step = step
        resolver.resolve(&step)
        var policy = policy
        if policy != nil { resolver.resolve(&policy!) }
        var resolved = self
        resolved.storage = storage.replacing(
            step: step, policy: .some(policy), position: .some(position),
            loweredRequest: LoweredRequest(step.request, server: server))
        return resolved
    }

    /// The step as declared.
    package var step: Step { _read { yield storage.step } }
    /// The ids of the steps whose completion this step waits for.
    package internal(set) var dependencies: [String] {
        get { storage.dependencies }
        set { storage = storage.replacing(dependencies: newValue) }
    }
    /// The server the request goes to; `nil` when the path is an absolute URL.
    package var server: Server? { _read { yield storage.server } }
    /// The interceptors around the call, in the order they run outbound.
    package var interceptors: [InterceptorDeclaration] { storage.interceptors }
    /// The error policy, if any.
    package var policy: Policy? { _read { yield storage.policy } }
    /// The policy's `timeout`, its two limits as durations; `nil` when the step has no `timeout`.
    ///
    /// This and ``retryRules`` and ``circuitBreaker`` are the parts of ``policy`` the step runner reads at every
    /// attempt, kept apart when the step is planned: read through the optional policy, each copied the whole
    /// policy first.
    var timeLimits: (attempt: Duration?, total: Duration?)? { storage.timeLimits }
    /// The policy's retry rules; none when the step has no policy.
    var retryRules: [RetryRule] { storage.retryRules }
    /// The policy's circuit breaker, if any.
    var circuitBreaker: Policy.CircuitBreaker? { storage.circuitBreaker }
    /// The name of the dispatcher that performs the request.
    package var dispatcher: String { storage.dispatcher }
    /// For each of the step's declared outputs, in order, the pointer it reads in the response body when that
    /// is all it reads (`$response.body#/id`, as most outputs do), else `nil`: such an output is read straight
    /// from the body, without a scope to evaluate it in.
    var responseBodyPointers: [JSONPointer?] { storage.responseBodyPointers }
    /// The statically known type of each output, by output name; absent when unknown.
    package var outputTypes: [String: JSONSchema] { storage.outputTypes }
    /// The step's request lowered for sending: what does not depend on the run, worked out once, when the plan
    /// is finished (a step still being compiled lowers it when asked).
    ///
    /// A getter, not a `_read` coroutine: the lowered request is an object, so giving it out is one reference
    /// count, where a coroutine with two ways to yield allocated its frame at every call.
    var loweredRequest: LoweredRequest {
        storage.loweredRequest ?? LoweredRequest(storage.step.request, server: storage.server)
    }
    /// The step's position in its plan's ``Plan/steps``, where the run keeps what it knows of it; `nil` for a
    /// compensation's inline request, which is no step of the plan.
    var position: Int? { storage.position }
    /// The names of the step's outputs, in its order: where each is kept in a run's ``OutputTable``.
    var outputNames: [String] { storage.outputNames }
    /// For a `workflow:` step: the plan of the workflow it calls.
    package var subWorkflow: Plan? { storage.subWorkflow }

    /// The step's id.
    package var id: String { storage.step.id.value }
}
