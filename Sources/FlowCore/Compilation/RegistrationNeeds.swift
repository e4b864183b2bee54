/// What a plan needs the embedding program to have registered: each dispatcher its steps name, each `use:`
/// interceptor and each response parser a step chooses with `parse: { use: … }`.
///
/// Worked out once, when the plan is made, so that a run's preflight (``RunPreflight``) checks a few names, each
/// once, rather than every step of the plan on every run.
struct RegistrationNeeds: Sendable {
    /// A name the program must have registered, where the plan first needs it.
    enum Need: Sendable {
        /// `step`, the first (in plan order) to name dispatcher `name`.
        case dispatcher(String, step: PlannedStep)
        /// An interceptor declared with `use:`: the first declaration of its name.
        case interceptor(InterceptorDeclaration)
    }

    /// The dispatchers and `use:` interceptors, each name once, in the order the plan's steps (then its
    /// compensations) first need them: the order a preflight reports the first missing one in.
    let needs: [Need]
    /// The response parsers the steps choose with `parse: { use: <name> }`, each where it is written.
    let responseParsers: [Located<String>]

    /// The needs of `stepsAndCompensations` (a called workflow's steps excluded: its own plan has its needs) and
    /// the response parsers of `steps`.
    init(stepsAndCompensations: [PlannedStep], steps: [PlannedStep]) {
        var needs: [Need] = []
        var dispatchers: Set<String> = []
        var interceptors: Set<String> = []
        for planned in stepsAndCompensations where planned.subWorkflow == nil {
            if dispatchers.insert(planned.dispatcher).inserted { needs.append(.dispatcher(planned.dispatcher, step: planned)) }
            for declaration in planned.interceptors
            where declaration.usedName != nil && interceptors.insert(declaration.name.value).inserted {
                needs.append(.interceptor(declaration))
            }
        }
        self.needs = needs
        responseParsers = steps.compactMap { planned in
            guard let parse = planned.step.parse, case .parser(let name) = parse.value else { return nil }
            return Located(name, at: parse.location)
        }
    }
}
