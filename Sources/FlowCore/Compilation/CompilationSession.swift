/// The state of compiling one workflow: what has been resolved, used and reported so far.
///
/// The session runs the checks in a fixed order — types, servers and
/// declarations, step outputs, step requests, catch rules, workflow outputs,
/// dependencies, unused declarations — and only ever appends diagnostics, so
/// one problem never hides another.
struct CompilationSession {
    let workflow: Workflow
    var diagnostics: [Diagnostic] = []

    let navigator: SchemaNavigator
    let stepsByID: [String: Step]
    let serversByName: [String: Server]
    let interceptorsByName: [String: InterceptorDeclaration]
    let policiesByName: [String: Policy]
    let varsByName: [String: Binding]
    let environmentByName: [String: EnvironmentVariable]

    /// Names referenced somewhere, to report unused declarations.
    var usedTypes: Set<String> = []
    var usedServers: Set<String> = []
    var usedInterceptors: Set<String> = []
    var usedPolicies: Set<String> = []
    var usedVars: Set<String> = []
    var usedInputs: Set<String> = []
    var usedEnvironment: Set<String> = []
    /// On-demand steps that an interceptor or catch rule runs.
    var invokedSteps: Set<String> = []

    /// Data dependencies: step id → the steps whose outputs it reads (with where it reads them).
    var dependencies: [String: [Located<String>]] = [:]
    /// Variables each step reads, for ordering readers after setters.
    var varReads: [String: Set<String>] = [:]
    /// The step outputs each inline compensation request reads, by compensated step id.
    var compensationReads: [String: [Located<String>]] = [:]

    /// Output types by step id, computed on first use; `nil` entries are unknown types.
    var outputTypeMemo: [String: [String: JSONSchema?]] = [:]
    var outputTypesInProgress: Set<String> = []
    var varTypeMemo: [String: JSONSchema?] = [:]
    /// The type of `$item` of each `forEach` step, worked out once.
    var itemTypeMemo: [String: JSONSchema?] = [:]

    /// Reads and compiles the files that `workflow:` steps call.
    let subWorkflows: SubWorkflowLoader
    /// What each `workflow:` step's call gave, by step id: the called plan, or `nil` after reporting why not.
    var calleeMemo: [String: Plan?] = [:]
    /// The static type of each workflow output, filled by ``checkWorkflowOutputs()``.
    var workflowOutputTypes: [String: JSONSchema] = [:]

    init(workflow: Workflow, subWorkflows: SubWorkflowLoader) {
        self.workflow = workflow
        self.subWorkflows = subWorkflows
        var types: [String: JSONSchema] = [:]
        for type in workflow.types { types[type.name.value] = type.schema }
        self.navigator = SchemaNavigator(types: types)
        var steps: [String: Step] = [:]
        for step in workflow.steps where steps[step.id.value] == nil { steps[step.id.value] = step }
        self.stepsByID = steps
        self.serversByName = Dictionary(workflow.servers.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
        self.interceptorsByName = Dictionary(
            workflow.interceptors.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
        self.policiesByName = Dictionary(workflow.policies.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
        self.varsByName = Dictionary(workflow.vars.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
        self.environmentByName = Dictionary(
            workflow.environment.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
    }

    mutating func error(_ code: FlowError.Code, _ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.error, code, message, at: location))
    }

    /// Reports a reference to a step that does not exist, unless the file declares it and it was left out
    /// because of errors already reported: the reference is then not a problem of its own.
    mutating func unknownStep(_ id: String, _ message: String, at location: SourceLocation?) {
        guard !workflow.stepsLeftOut.contains(id) else { return }
        error(.unknownStep, message, at: location)
    }

    mutating func warning(_ code: FlowError.Code, _ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.warning, code, message, at: location))
    }

    /// Runs every check and builds the plan (which the caller discards when there are errors).
    mutating func run() -> Plan {
        let (steps, compensations) = check()
        return Plan(
            workflow: workflow, steps: steps, types: navigator.types, compensations: compensations,
            outputTypes: workflowOutputTypes, warnings: diagnostics.filter { $0.severity == .warning })
    }

    /// Runs every check: the diagnostics, and the steps in their order with their dependencies and compensations
    /// that ``run()`` makes a plan of.
    mutating func check() -> (steps: [PlannedStep], compensations: [String: PlannedStep]) {
        checkSchemas()
        checkDuplicateSteps()
        checkVars()
        checkServers()
        checkInterceptors()
        checkPolicies()
        for step in workflow.steps { _ = outputTypes(of: step.id.value) }
        var planned: [String: PlannedStep] = [:]
        for step in workflow.steps where planned[step.id.value] == nil {
            planned[step.id.value] = step.call.map { checkWorkflowCall(step, $0) } ?? checkStep(step)
        }
        checkCatchRules()
        checkWorkflowOutputs()
        addSwitchDependencies()
        let order = orderSteps()
        checkVariableOrdering()
        let compensations = checkCompensations(planned)
        reportUnused()
        var steps = order.compactMap { planned[$0] }
        for index in steps.indices { steps[index].dependencies = dependencyIDs(of: steps[index].id) }
        return (steps, compensations)
    }

    // MARK: Declarations

    private mutating func checkDuplicateSteps() {
        var first: [String: SourceLocation] = [:]
        for step in workflow.steps {
            if let earlier = first[step.id.value] {
                error(.duplicateName,
                      "duplicate step id '\(step.id.value)' (first declared at line \(earlier.line))",
                      at: step.id.location)
            } else {
                first[step.id.value] = step.id.location
            }
        }
    }

    private mutating func checkVars() {
        for binding in workflow.vars {
            _ = varType(binding.name.value)
        }
    }

    /// The static type of a variable, from its initial value.
    mutating func varType(_ name: String) -> JSONSchema? {
        if let memo = varTypeMemo[name] { return memo }
        guard let binding = varsByName[name] else { return nil }
        varTypeMemo[name] = .some(nil)  // Guards against a var that reads itself.
        let type = checkTemplate(binding.value, in: .variable(name), placement: .value, at: binding.name.location)
        varTypeMemo[name] = type
        return type
    }

    private mutating func checkServers() {
        for server in workflow.servers {
            _ = checkTemplate(server.url, in: .server, placement: .scalar("a server URL"), at: server.name.location)
            checkNetwork(of: server)
        }
        if let name = workflow.defaults.server { _ = resolveServer(name) }
    }

    mutating func resolveServer(_ name: Located<String>) -> Server? {
        usedServers.insert(name.value)
        return resolve(name, in: serversByName, kind: "server", section: "servers")
    }

    /// The declaration `name` refers to, or `nil` after reporting it as unknown with a suggestion.
    mutating func resolve<Declaration>(
        _ name: Located<String>, in declarations: [String: Declaration], kind: String, section: String
    ) -> Declaration? {
        if let declaration = declarations[name.value] { return declaration }
        let hint = declarations.isEmpty
            ? "; the workflow declares no \(section)" : Suggestion.didYouMean(name.value, in: declarations.keys)
        error(.unknownReference, "unknown \(kind) '\(name.value)'\(hint)", at: name.location)
        return nil
    }

    private mutating func checkInterceptors() {
        for declaration in workflow.interceptors {
            let context = BindingContext.interceptor
            let at = declaration.name.location
            switch declaration.kind {
            case .headers(let set, _):
                for binding in set {
                    _ = checkTemplate(binding.value, in: context, placement: .scalar("a header"), at: binding.name.location)
                    checkHeaderLiteral(binding.value, header: binding.name.value, at: binding.name.location)
                }
            case .bearer(let token):
                _ = checkTemplate(token, in: context, placement: .scalar("a header"), at: at)
            case .basic(let username, let password):
                _ = checkTemplate(username, in: context, placement: .scalar("a header"), at: at)
                _ = checkTemplate(password, in: context, placement: .scalar("a header"), at: at)
            case .apiKey(let placement, let value):
                let label = if case .header = placement { "a header" } else { "a query parameter" }
                _ = checkTemplate(value, in: context, placement: .scalar(label), at: at)
                if case .header(let name) = placement { checkHeaderLiteral(value, header: name, at: at) }
            case .query(let bindings):
                for binding in bindings {
                    _ = checkTemplate(
                        binding.value, in: context, placement: .scalar("a query parameter"), at: binding.name.location)
                }
            case .refresh(_, let step):
                invokedSteps.insert(step.value)
                checkOnDemandTarget(step, role: "the refresh interceptor '\(declaration.name.value)'")
            case .sign(let signing):
                _ = checkTemplate(signing.key, in: context, placement: .scalar("a signing key"), at: at)
            case .unwrap:
                break
            case .wrap(_, let envelope):
                if let envelope { _ = checkTemplate(envelope, in: context, placement: .value, at: at) }
            case .encrypt(let encryption):
                _ = checkTemplate(encryption.key, in: context, placement: .scalar("an encryption key"), at: at)
            case .decrypt(let key):
                _ = checkTemplate(key, in: context, placement: .scalar("an encryption key"), at: at)
            case .custom(_, let arguments):
                for binding in arguments { _ = checkTemplate(binding.value, in: context, placement: .value, at: binding.name.location) }
            }
        }
        if let names = workflow.defaults.interceptors { _ = resolveInterceptors(names) }
    }

    /// Checks that `step` names an on-demand step.
    mutating func checkOnDemandTarget(_ step: Located<String>, role: String) {
        guard let target = stepsByID[step.value] else {
            unknownStep(step.value,
                  "\(role) runs unknown step '\(step.value)'\(Suggestion.didYouMean(step.value, in: stepsByID.keys))",
                  at: step.location)
            return
        }
        if !target.onDemand {
            error(.invalidValue,
                  "\(role) runs step '\(step.value)', which is not on-demand; add 'on-demand: true' to it so it does not also run in the main flow",
                  at: step.location)
        }
    }

    mutating func resolveInterceptors(_ names: [Located<String>]) -> [InterceptorDeclaration] {
        names.compactMap { name in
            usedInterceptors.insert(name.value)
            return resolve(name, in: interceptorsByName, kind: "interceptor", section: "interceptors")
        }
    }
}
