/// Checks of handler steps: on-demand steps that a `catch` or `on-error` rule runs with `run:`, whose request
/// may read the failed response (`$statusCode`, `$response.header.X`, `$response.body#/...`).
extension CompilationSession {
    /// The context a step's request is checked in: a failure handler's when every way the step runs is a
    /// `run:` rule, so a failed response is always there to read; a plain request's otherwise.
    func requestContext(of step: Step) -> BindingContext {
        guard step.onDemand, !isRunOtherwise(step.id.value) else { return .request(step) }
        let handled = failuresHandled(by: step.id.value)
        return handled.isEmpty ? .request(step) : .failureHandler(step, handles: handled)
    }

    /// The failures that `run:` rules hand to step `id`: each rule's failing step (`nil` for a `catch` rule
    /// without `step`) and the statuses it matches.
    func failuresHandled(by id: String) -> [HandledFailure] {
        var handled: [HandledFailure] = []
        for rule in workflow.catchRules {
            guard case .run(let target, _) = rule.action, target.value == id else { continue }
            handled.append(HandledFailure(failing: rule.step.flatMap { stepsByID[$0.value] }, rule: rule))
        }
        for step in workflow.steps {
            for rule in step.onError {
                guard case .run(let target, _) = rule.action, target.value == id else { continue }
                handled.append(HandledFailure(failing: step, rule: rule))
            }
        }
        return handled
    }

    /// Whether step `id` also runs where there is no failed response: as a refresh step, a compensation or a
    /// switch's case.
    private func isRunOtherwise(_ id: String) -> Bool {
        let refreshes = workflow.interceptors.contains { declaration in
            if case .refresh(_, let target) = declaration.kind { target.value == id } else { false }
        }
        let compensates = workflow.steps.contains { step in
            if case .step(let target)? = step.compensation { target.value == id } else { false }
        }
        return refreshes || compensates || isSwitchCase(id)
    }

    /// The type of `$response.body#pointer` in a failure handler's request: the error type each handled step
    /// declares for the statuses its rule matches.
    ///
    /// The pointer must exist in the error type of every handled step that declares one; a rule for any step,
    /// or a step that declares no error type, leaves the value unchecked (`nil`).
    mutating func failureHandlerBodyType(
        _ expression: RuntimeExpression, handler: Step, handles: [HandledFailure], at location: SourceLocation
    ) -> JSONSchema? {
        var found: JSONSchema?
        for handled in handles {
            guard let failing = handled.failing else { return nil }
            let candidates = handled.errorResponses
            guard !candidates.isEmpty else { return nil }
            guard let pointer = expression.pointer, !pointer.tokens.isEmpty else {
                if candidates.count == 1 { found = found ?? candidates[0].schema }
                continue
            }
            var failures: [String] = []
            var type: JSONSchema?
            for response in candidates {
                switch navigator.walk(pointer.tokens, in: response.schema) {
                case .found(let match): type = type ?? match
                case .missing(let message, _): failures.append("\(response.status.value): \(message)")
                }
            }
            guard let type else {
                let pointerLocation = expression.spans.pointer.map { location.advanced(by: $0) } ?? location
                error(.bindingTypeMismatch,
                      "'\(expression)' reads nothing from the failed response of step '\(failing.id.value)' "
                          + "that the rule at line \(handled.rule.location.line) hands to '\(handler.id.value)': "
                          + failures.joined(separator: "; "),
                      at: pointerLocation)
                return nil
            }
            found = found ?? type
        }
        return found
    }

    /// Warns about `run:` rules whose handler reads the failed response although the rule also matches
    /// failures that have none (timeouts, transport errors): the handler would fail there.
    mutating func checkFailureHandlersHaveResponses() {
        for step in workflow.steps where step.onDemand {
            guard case .failureHandler(_, let handles) = requestContext(of: step),
                readsFailedResponse(step.request)
            else { continue }
            for handled in handles where !handled.alwaysHasResponse {
                warning(.missingResponse,
                        "step '\(step.id.value)' reads the failed response, but this rule also runs it for failures "
                            + "without one (timeouts, transport errors); add 'when: { status: [...] }' or "
                            + "'errors: [http]'",
                        at: handled.rule.location)
            }
        }
    }

    /// Whether a request reads `$response` or `$statusCode`.
    private func readsFailedResponse(_ request: Request) -> Bool {
        request.templates.contains { template in
            template.expressions.contains { expression, _ in
                switch expression.source {
                case .responseBody, .responseHeader, .statusCode, .url: true
                default: false
                }
            }
        }
    }
}

/// A failure that a `run:` rule hands to its handler step.
struct HandledFailure {
    /// The step whose failure the rule handles; `nil` for a `catch` rule without `step`, which handles any step.
    let failing: Step?
    let rule: CatchRule

    /// The error responses the failing step declares for the statuses the rule matches (all of them when the
    /// rule names no status).
    var errorResponses: [ResponseCase] {
        guard let failing else { return [] }
        let errors = failing.responses.filter { !$0.status.value.isSuccess }
        let statuses = rule.when.statuses.map(\.value)
        guard !statuses.isEmpty else { return errors }
        return errors.filter { response in
            statuses.contains { pattern in
                switch (pattern, response.status.value) {
                case (.code(let status), _):
                    ResponseMatcher.match(status, in: failing.responses)?.status.value == response.status.value
                case (.range(let range), .code(let code)): code / 100 == range
                case (.range(let range), .range(let declared)): range == declared
                default: response.status.value == .default
                }
            }
        }
    }

    /// Whether every failure the rule matches has a response: it lists statuses, or only the `http` kind.
    var alwaysHasResponse: Bool {
        !rule.when.statuses.isEmpty || (!rule.when.kinds.isEmpty && rule.when.kinds.allSatisfy { $0.value == "http" })
    }
}
