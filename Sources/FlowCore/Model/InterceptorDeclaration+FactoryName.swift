/// The names the built-in interceptor kinds are registered under in every ``InterceptorRegistry``.
///
/// Each is the key that declares the kind in YAML, but `refresh`, which a workflow declares with `run:`.
enum BuiltInInterceptorKind: String, CaseIterable, Sendable {
    case headers, bearer, basic, apiKey, query, refresh, sign, unwrap, wrap, encrypt, decrypt
}

extension InterceptorDeclaration {
    /// The name its factory is registered under in an ``InterceptorRegistry``: its built-in kind's, located
    /// at the declaration's name, or the name it writes after `use:`.
    var factoryName: Located<String> {
        guard let builtIn = builtInKind else { return usedName! }
        return Located(builtIn.rawValue, at: name.location)
    }

    /// Its built-in kind; `nil` for an interceptor the program registers (`use:`).
    var builtInKind: BuiltInInterceptorKind? {
        switch kind {
        case .headers: .headers
        case .bearer: .bearer
        case .basic: .basic
        case .apiKey: .apiKey
        case .query: .query
        case .refresh: .refresh
        case .sign: .sign
        case .unwrap: .unwrap
        case .wrap: .wrap
        case .encrypt: .encrypt
        case .decrypt: .decrypt
        case .custom: nil
        }
    }

    /// The name it writes after `use:`, for an interceptor the program registers; `nil` for a built-in kind.
    var usedName: Located<String>? {
        if case .custom(let name, _) = kind { name } else { nil }
    }

    /// Whether its interceptor may run another step of the workflow: a refresh interceptor runs its refresh step.
    var mayRunSteps: Bool {
        if case .refresh = kind { true } else { false }
    }

    /// Whether its interceptor may wait on something besides the dispatcher's call: a refresh step, or what a
    /// program's own (`use:`) interceptor does. Only a step without such interceptors lets a dispatcher keep
    /// the attempt's time limit alone (``Dispatcher/enforcesTimeLimits``).
    var mayWaitOutsideTheDispatcher: Bool {
        switch kind {
        case .refresh, .custom: true
        default: false
        }
    }

    /// Its `with:` arguments, evaluated for its factory; a built-in kind has none.
    var arguments: [Binding] {
        if case .custom(_, let arguments) = kind { arguments } else { [] }
    }
}
