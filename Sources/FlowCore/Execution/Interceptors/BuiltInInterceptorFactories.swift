extension InterceptorRegistry {
    /// The factories of the built-in kinds, which every registry holds, by kind name.
    ///
    /// Each reads its kind's typed fields from the declaration the compiler checked, and evaluates its
    /// templates from the setup's scope when its interceptor runs, so a var a refresh step updates is read
    /// on the replay.
    static let builtInFactories: [String: Factory] = [
        BuiltInInterceptorKind.headers.rawValue: { setup in
            guard case .headers(let set, let remove) = setup.declaration.kind else { throw setup.mismatch(.headers) }
            return HeaderSettingInterceptor(set: set, remove: remove.map(\.value), scope: setup.scope)
        },
        BuiltInInterceptorKind.bearer.rawValue: { setup in
            guard case .bearer(let token) = setup.declaration.kind else { throw setup.mismatch(.bearer) }
            return CredentialHeaderInterceptor(scheme: .bearer(token), scope: setup.scope, redactor: setup.redactor)
        },
        BuiltInInterceptorKind.basic.rawValue: { setup in
            guard case .basic(let username, let password) = setup.declaration.kind else { throw setup.mismatch(.basic) }
            return CredentialHeaderInterceptor(
                scheme: .basic(username: username, password: password), scope: setup.scope, redactor: setup.redactor)
        },
        BuiltInInterceptorKind.apiKey.rawValue: { setup in
            guard case .apiKey(let placement, let value) = setup.declaration.kind else { throw setup.mismatch(.apiKey) }
            switch placement {
            case .header(let name):
                return CredentialHeaderInterceptor(
                    scheme: .raw(header: name, value: value), scope: setup.scope, redactor: setup.redactor)
            case .query(let name):
                return QueryParameterInterceptor(
                    parameters: [Binding(name: Located(name, at: setup.declaration.name.location), value: value)],
                    secret: true, scope: setup.scope, redactor: setup.redactor)
            }
        },
        BuiltInInterceptorKind.query.rawValue: { setup in
            guard case .query(let parameters) = setup.declaration.kind else { throw setup.mismatch(.query) }
            return QueryParameterInterceptor(
                parameters: parameters, secret: false, scope: setup.scope, redactor: setup.redactor)
        },
        BuiltInInterceptorKind.refresh.rawValue: { setup in
            guard case .refresh(let statuses, let target) = setup.declaration.kind else {
                throw setup.mismatch(.refresh)
            }
            // The refresh step never refreshes itself: its 401 is the answer.
            if setup.engine.asRefresh || target.value == setup.stepID { return OmittedInterceptor() }
            let runRefreshStep = setup.engine.runRefreshStep
            // Every run of a plan with a refresh interceptor has one (``Plan/runsRefreshSteps``).
            guard let coordinator = setup.engine.coordinator else {
                throw FlowError(.interceptor, "the run has no refresh coordinator for interceptor '\(setup.declaration.name.value)'")
            }
            return RefreshInterceptor(
                statuses: statuses, coordinator: coordinator, isReplay: setup.engine.isReplay,
                refreshStep: target.value, refresh: { try await runRefreshStep(target.value) })
        },
        BuiltInInterceptorKind.sign.rawValue: { setup in
            guard case .sign(let signing) = setup.declaration.kind else { throw setup.mismatch(.sign) }
            return HMACSigningInterceptor(
                signing: signing, scope: setup.scope, redactor: setup.redactor, unixTime: setup.engine.unixTime)
        },
        BuiltInInterceptorKind.unwrap.rawValue: { setup in
            guard case .unwrap(let pointer) = setup.declaration.kind else { throw setup.mismatch(.unwrap) }
            return UnwrapInterceptor(pointer: pointer)
        },
        BuiltInInterceptorKind.wrap.rawValue: { setup in
            guard case .wrap(let pointer, let envelope) = setup.declaration.kind else { throw setup.mismatch(.wrap) }
            return WrapInterceptor(pointer: pointer, envelope: envelope, scope: setup.scope)
        },
        BuiltInInterceptorKind.encrypt.rawValue: { setup in
            guard case .encrypt(let encryption) = setup.declaration.kind else { throw setup.mismatch(.encrypt) }
            return EncryptInterceptor(encryption: encryption, scope: setup.scope, redactor: setup.redactor)
        },
        BuiltInInterceptorKind.decrypt.rawValue: { setup in
            guard case .decrypt(let key) = setup.declaration.kind else { throw setup.mismatch(.decrypt) }
            return DecryptInterceptor(key: key, scope: setup.scope, redactor: setup.redactor)
        },
    ]
}

extension InterceptorSetup {
    /// The error of a built-in factory given a declaration of another kind, which the registry never does.
    fileprivate func mismatch(_ expected: BuiltInInterceptorKind) -> FlowError {
        FlowError(
            .interceptor,
            "interceptor '\(name)' is a '\(declaration.factoryName.value)' interceptor, not a '\(expected.rawValue)' one")
    }
}
