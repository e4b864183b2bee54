extension InterceptorDeclaration.Kind {
    /// Every value the interceptor evaluates at each call: header values, credentials, query values, keys,
    /// an envelope, the arguments of a registered interceptor.
    var values: [ValueTemplate] {
        switch self {
        case .headers(let set, _): set.map(\.value)
        case .bearer(let token): [token]
        case .basic(let username, let password): [username, password]
        case .apiKey(_, let value): [value]
        case .query(let bindings): bindings.map(\.value)
        case .sign(let signing): [signing.key]
        case .wrap(_, let envelope): envelope.map { [$0] } ?? []
        case .encrypt(let encryption): [encryption.key]
        case .decrypt(let key): [key]
        case .custom(_, let arguments): arguments.map(\.value)
        case .refresh, .unwrap: []
        }
    }
}
