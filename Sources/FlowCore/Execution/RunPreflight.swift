/// What a run checks before its first request, so that a problem the engine can see up front fails the run
/// before any request has side effects: unset environment variables, and dispatchers, `use:` interceptors or
/// `parse: { use: … }` response parsers that the embedding program did not register.
///
/// Its errors end the run with nothing sent; `flowrun run` exits 2 for them, like a missing input.
struct RunPreflight {
    let plan: Plan
    let engine: EngineSettings

    /// The environment `$env.NAME` reads: the variables the workflow declares under `env:`, from `given` or
    /// their `default`, and nothing else.
    /// - Parameter given: The process environment (or what the embedding program passes).
    /// - Returns: The declared variables' values.
    /// - Throws: A `validation` error listing every declared variable that is unset and has no default.
    func environment(from given: [String: String]) throws(FlowError) -> [String: String] {
        let environment = plan.workflow.declaredEnvironment(from: given)
        let missing = plan.workflow.environment.filter { environment[$0.name.value] == nil }
        guard let first = missing.first else { return environment }
        let names = missing.map(\.name.value)
        let list = names.count == 1
            ? "environment variable \(names[0]) is not set"
            : "environment variables \(names.joined(separator: ", ")) are not set"
        throw FlowError(
            .validation,
            "\(list); set \(names.count == 1 ? "it" : "them") or give \(names.count == 1 ? "it" : "each") a "
                + "'default' under '\(plan.workflow.environmentKey)' (nothing was sent)",
            at: first.name.location)
    }

    /// Checks that every dispatcher, `use:` interceptor and response parser the plan can call is registered,
    /// and that the program registered no interceptor under a built-in kind's name.
    /// - Throws: A `duplicate-name` error for an interceptor registration the registry refused; else an
    ///   `unknown-reference` error for the first name that is not registered.
    func checkRegistrations() throws(FlowError) {
        if let refused = engine.interceptors.refusedNames.first {
            throw FlowError(
                .duplicateName,
                "the program registered an interceptor as '\(refused)', the name of a built-in interceptor kind; "
                    + "the registry refused it, so as not to replace the built-in one: register it under another "
                    + "name (built-in kinds: \(InterceptorRegistry.builtInNames.joined(separator: ", ")))")
        }
        let needs = plan.registrationNeeds
        // An override replaces every step's dispatcher: checked once, at the first step.
        var overrideChecked = false
        for need in needs.needs {
            switch need {
            case .dispatcher(let declared, let planned):
                if engine.dispatcherOverride != nil {
                    if overrideChecked { continue }
                    overrideChecked = true
                }
                let name = engine.dispatcherOverride ?? declared
                if engine.dispatchers[name] == nil {
                    throw Self.unregistered(
                        "step '\(planned.id)' uses dispatcher '\(name)', which is not registered", name,
                        among: engine.dispatchers.names, hint: "",
                        at: planned.step.dispatcher?.location ?? plan.workflow.defaults.dispatcher?.location)
                }
            case .interceptor(let declaration):
                guard let use = declaration.usedName, engine.interceptors.factory(for: declaration) == nil else {
                    continue
                }
                if InterceptorRegistry.isBuiltIn(use.value) {
                    throw FlowError(
                        .unknownReference,
                        "interceptor '\(declaration.name.value)' uses '\(use.value)', a built-in interceptor kind, "
                            + "which a workflow declares with its own key, not with 'use:'",
                        at: use.location)
                }
                throw Self.unregistered(
                    "interceptor '\(declaration.name.value)' uses '\(use.value)', which is not registered", use.value,
                    among: engine.interceptors.customNames,
                    hint: " (a Swift program registers interceptors in the Engine's InterceptorRegistry)", at: use.location)
            }
        }
        if let missing = needs.responseParsers.first(where: { engine.parsers[$0.value] == nil }) {
            throw Self.unregistered(
                "'parse: { use: \(missing.value) }' names a response parser that is not registered", missing.value,
                among: engine.parsers.names,
                hint: " (a Swift program registers parsers in Engine.parsers; the flowrun CLI has none)",
                at: missing.location)
        }
    }

    /// The error for `name`, which is not among the `registered` names: what is missing, the nearest registered
    /// name, every registered one, and where to register it.
    /// Runs the preflight of every workflow that a `workflow:` step calls, and of those they call, so that a
    /// run that cannot succeed sends nothing: their environment variables set, their dispatchers,
    /// interceptors and parsers registered.
    /// - Parameter given: The process environment the run was given.
    /// - Throws: The first problem, located in the called file, its message naming the file.
    func checkCalledWorkflows(environment given: [String: String]) throws(FlowError) {
        for planned in plan.steps {
            guard let callee = planned.subWorkflow else { continue }
            let preflight = RunPreflight(plan: callee, engine: engine)
            do {
                _ = try preflight.environment(from: given)
                try preflight.checkRegistrations()
                try preflight.checkCalledWorkflows(environment: given)
            } catch {
                var error = error
                error.message = "workflow '\(planned.step.call?.path.value ?? callee.workflow.path)' (step "
                    + "'\(planned.id)'): \(error.message)"
                throw error
            }
        }
    }

    private static func unregistered(
        _ problem: String, _ name: String, among registered: [String], hint: String, at location: SourceLocation?
    ) -> FlowError {
        FlowError(
            .unknownReference,
            problem + Suggestion.didYouMean(name, in: registered)
                + "; registered: " + (registered.isEmpty ? "none" : registered.joined(separator: ", ")) + hint,
            at: location)
    }
}
