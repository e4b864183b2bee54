extension Plan {
    /// The inputs of `workflow` whose values are secrets (`format: password`).
    static func secretInputs(of workflow: Workflow, types: [String: JSONSchema]) -> Set<String> {
        guard let inputs = workflow.inputs else { return [] }
        let resolved = inputs.ref.flatMap { types[$0.value] } ?? inputs
        return Set(resolved.properties.filter { $0.schema.isSecret }.map(\.name))
    }

    /// The environment variables `workflow` declares with `secret: true`.
    static func secretEnvironment(of workflow: Workflow) -> Set<String> {
        Set(workflow.environment.filter(\.secret).map(\.name.value))
    }

    /// The vars of `workflow` that an interceptor sends as a credential (`bearer: $vars.token`), and those whose
    /// initial value reads a secret input, a secret environment variable or another secret var.
    ///
    /// Every value such a var later receives through `set` (a token a login or refresh step obtained) is a
    /// secret too, from the moment it is bound: before the interceptor first sends it, so the response that
    /// handed it out is redacted wherever it is shown (`flowrun run -vv`).
    static func secretVariables(
        of workflow: Workflow, secretInputs: Set<String>, secretEnvironment: Set<String>
    ) -> Set<String> {
        var secret: Set<String> = []
        for declaration in workflow.interceptors {
            for credential in SecretRedactor.credentials(of: declaration.kind) {
                for (expression, _) in credential.expressions {
                    if case .variable(let name) = expression.source { secret.insert(name) }
                }
            }
        }
        var changed = true
        while changed {
            changed = false
            for binding in workflow.vars where !secret.contains(binding.name.value) {
                let readsSecret = binding.value.expressions.contains { expression, _ in
                    switch expression.source {
                    case .input(let name): secretInputs.contains(name)
                    case .variable(let name): secret.contains(name)
                    case .environment(let name): secretEnvironment.contains(name)
                    default: false
                    }
                }
                if readsSecret {
                    secret.insert(binding.name.value)
                    changed = true
                }
            }
        }
        return secret
    }

    /// The kinds of the interceptors of `steps` that send a credential, each declaration once (by name): worked
    /// out with the plan, so that a run does not go through every step's interceptors to find them.
    static func credentialInterceptors(of steps: [PlannedStep]) -> [InterceptorDeclaration.Kind] {
        var seen: Set<String> = []
        var kinds: [InterceptorDeclaration.Kind] = []
        for step in steps {
            for declaration in step.interceptors where seen.insert(declaration.name.value).inserted {
                if !SecretRedactor.credentials(of: declaration.kind).isEmpty { kinds.append(declaration.kind) }
            }
        }
        return kinds
    }
}

extension SecretRedactor {
    /// Registers every secret a run of `plan` can know before its first request: the values of secret inputs
    /// and vars in `scope`, and the credentials of every interceptor that can be worked out from them and
    /// from `$env` (a bearer token, a basic password and its header value, an API key, a signing or payload
    /// key).
    ///
    /// The engine calls this once, after binding the inputs and the initial vars and before the first
    /// request, so that even the first attempt's trace lines are redacted. This is the entry point for
    /// secrets known at run start: add a new kind of secret here. Credentials
    /// that read step outputs are registered later, when an interceptor sends them.
    /// - Parameters:
    ///   - plan: The compiled workflow.
    ///   - scope: The run's inputs, environment and initial vars.
    func register(secretsOf plan: Plan, in scope: RunScope) {
        for (name, value) in scope.inputs where plan.secretInputs.contains(name) { add(value) }
        for name in plan.secretEnvironment {
            if let value = scope.environment[name] { add(.string(value)) }
        }
        for name in plan.secretVariables {
            if let value = scope.variables[name] { add(value) }
        }
        for kind in plan.credentialInterceptors {
            for credential in Self.credentials(of: kind) {
                // A credential that reads a step's outputs cannot be known yet; its interceptor adds it.
                guard let text = try? scope.evaluateText(credential) else { continue }
                add(.string(text))
            }
            if case .basic(let username, let password) = kind,
                let user = try? scope.evaluateText(username), let secret = try? scope.evaluateText(password)
            {
                add(.string(Base64.encode(Array("\(user):\(secret)".utf8))))
            }
        }
    }

    /// The templates of an interceptor whose values are secrets.
    fileprivate static func credentials(of kind: InterceptorDeclaration.Kind) -> [ValueTemplate] {
        switch kind {
        case .bearer(let token): [token]
        case .basic(_, let password): [password]
        case .apiKey(_, let value): [value]
        case .sign(let signing): [signing.key]
        case .encrypt(let encryption): [encryption.key]
        case .decrypt(let key): [key]
        case .headers, .query, .refresh, .unwrap, .wrap, .custom: []
        }
    }
}
