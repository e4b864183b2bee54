/// What a run checks before its first request, so that a problem the engine can see up front fails the run
/// before any request has side effects: unset environment variables, and dispatchers or `use:` interceptors
/// that the embedding program did not register.
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
        var environment: [String: String] = [:]
        var missing: [EnvironmentVariable] = []
        for variable in plan.workflow.environment {
            if let value = given[variable.name.value] ?? variable.defaultValue {
                environment[variable.name.value] = value
            } else {
                missing.append(variable)
            }
        }
        guard let first = missing.first else { return environment }
        let names = missing.map(\.name.value)
        let list = names.count == 1
            ? "environment variable \(names[0]) is not set"
            : "environment variables \(names.joined(separator: ", ")) are not set"
        throw FlowError(
            .validation,
            "\(list); set \(names.count == 1 ? "it" : "them") or give \(names.count == 1 ? "it" : "each") a "
                + "'default' under 'env' (nothing was sent)",
            at: first.name.location)
    }

    /// Checks that every dispatcher and every `use:` interceptor the plan can call is registered.
    /// - Throws: An `unknown-reference` error for the first one that is not.
    func checkRegistrations() throws(FlowError) {
        let steps = plan.steps + plan.compensations.keys.sorted().compactMap { plan.compensations[$0] }
        var checkedInterceptors: Set<String> = []
        for planned in steps {
            let name = engine.dispatcherOverride ?? planned.dispatcher
            if engine.dispatchers[name] == nil {
                let registered = engine.dispatchers.names
                throw FlowError(
                    .unknownReference,
                    "step '\(planned.id)' uses dispatcher '\(name)', which is not registered"
                        + Suggestion.didYouMean(name, in: registered)
                        + "; registered: \(registered.isEmpty ? "none" : registered.joined(separator: ", "))",
                    at: planned.step.dispatcher?.location ?? plan.workflow.defaults.dispatcher?.location)
            }
            for declaration in planned.interceptors where checkedInterceptors.insert(declaration.name.value).inserted {
                guard case .custom(let use, _) = declaration.kind, engine.interceptors[use.value] == nil else {
                    continue
                }
                let registered = engine.interceptors.names
                throw FlowError(
                    .unknownReference,
                    "interceptor '\(declaration.name.value)' uses '\(use.value)', which is not registered"
                        + Suggestion.didYouMean(use.value, in: registered)
                        + "; registered: \(registered.isEmpty ? "none" : registered.joined(separator: ", "))"
                        + " (a Swift program registers interceptors in the Engine's InterceptorRegistry)",
                    at: use.location)
            }
        }
    }
}
