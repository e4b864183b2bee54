/// Checks of steps: their outputs, requests, servers, interceptors and policies.
extension CompilationSession {
    /// The static type of each output of a step, checking the output bindings on first use.
    mutating func outputTypes(of stepID: String) -> [String: JSONSchema?] {
        if let memo = outputTypeMemo[stepID] { return memo }
        guard let step = stepsByID[stepID] else { return [:] }
        if step.call != nil {
            let types = calleeOutputTypes(of: step)
            outputTypeMemo[stepID] = types
            return types
        }
        if let setting = step.switch {
            outputTypesInProgress.insert(stepID)
            let types = switchOutputTypes(setting)
            outputTypesInProgress.remove(stepID)
            outputTypeMemo[stepID] = types
            return types
        }
        if outputTypesInProgress.contains(stepID) {
            // Outputs that read each other in a circle: the cycle is reported by the dependency check.
            return Dictionary(step.outputs.map { ($0.name.value, nil) }, uniquingKeysWith: { a, _ in a })
        }
        outputTypesInProgress.insert(stepID)
        var types: [String: JSONSchema?] = [:]
        for output in step.outputs {
            if types[output.name.value] != nil {
                error(.duplicateName, "duplicate output '\(output.name.value)'", at: output.name.location)
            }
            types[output.name.value] = .some(
                checkTemplate(output.value, in: .response(step), placement: .value, at: output.name.location))
        }
        outputTypesInProgress.remove(stepID)
        if let forEach = step.forEach { types = forEachOutputTypes(types, forEach) }
        outputTypeMemo[stepID] = types
        return types
    }

    /// The names of a step's outputs: those it declares, in file order (with `errors` for a `forEach` step that
    /// collects its items' errors), a `workflow:` step's, which are the called workflow's, or a `switch` step's,
    /// which are its first case step's.
    mutating func outputNames(of step: Step) -> [String] {
        if step.call != nil { return outputTypes(of: step.id.value).keys.sorted() }
        if let setting = step.switch { return caseSteps(of: setting).first.map { outputNames(of: $0) } ?? [] }
        let collects = step.forEach?.onItemFailure == .collect
        return step.outputs.map(\.name.value) + (collects ? [ForEach.errorsOutput] : [])
    }

    /// Checks the bindings of a request: path, query, headers and body.
    mutating func checkRequest(_ request: Request, in context: BindingContext) {
        _ = checkTemplate(request.path, in: context, placement: .scalar("a URL path"), at: request.pathLocation)
        checkLiteralDotSegments(in: request)
        checkPathPlaceholders(in: request)
        var boundTypes: [String: JSONSchema] = [:]
        for binding in request.query {
            // A JSON `content` parameter takes any value: it goes out as JSON text.
            let placement: Placement = request.jsonQuery.contains(binding.name.value) ? .value : .query
            boundTypes[binding.name.value] =
                checkTemplate(binding.value, in: context, placement: placement, at: binding.name.location)
        }
        for binding in request.headers {
            // A list header (OpenAPI's `simple` style) takes what a query parameter takes: scalars or a list of them.
            let placement: Placement =
                request.commaSeparatedHeaders.contains(binding.name.value) ? .query : .scalar("a header")
            boundTypes[binding.name.value] =
                checkTemplate(binding.value, in: context, placement: placement, at: binding.name.location)
            checkHeaderLiteral(binding.value, header: binding.name.value, at: binding.name.location)
        }
        for parameter in request.parameterTypes {
            checkParameter(parameter, boundType: boundTypes[parameter.binding.name.value])
        }
        switch request.body {
        case .json(let template, let location)?:
            _ = checkTemplate(template, in: context, placement: .value, at: location)
        case .form(let fields, _)?:
            for field in fields {
                _ = checkTemplate(field.value, in: context, placement: .query, at: field.name.location)
            }
        case .text(let template, _, let location)?:
            _ = checkTemplate(template, in: context, placement: .scalar("a text body"), at: location)
        case .multipart(let parts, _)?:
            checkMultipart(parts, in: context)
        case nil:
            break
        }
        // A form, text or multipart body is a body too.
        if let body = request.body, request.method.value == "GET" || request.method.value == "HEAD" {
            warning(.ignoredBody, "a \(request.method.value) request with a body; many servers ignore or refuse it",
                    at: body.location)
        }
    }

    /// Checks the value bound to a parameter of an OpenAPI operation against the parameter's declared type: a
    /// literal by validating it, an expression by its static type (`boundType`, when known). A list parameter
    /// also takes one of its elements.
    private mutating func checkParameter(_ parameter: ParameterType, boundType: JSONSchema?) {
        let expected = navigator.resolve(parameter.schema) ?? parameter.schema
        let itemType = expected.types == [.array] ? expected.items.map { navigator.resolve($0) ?? $0 } : nil
        if case .literal(let value) = parameter.binding.value {
            if let failure = navigator.parameterLiteralFailure(
                value, against: parameter.schema, formats: workflow.validation.formats)
            {
                error(.bindingTypeMismatch,
                      "\(parameter.label) does not accept this value: \(failure.message)",
                      at: parameter.binding.name.location)
            }
            return
        }
        guard let boundType, let bound = navigator.resolve(boundType)?.types, !bound.isEmpty,
            var wanted = expected.types, !wanted.isEmpty
        else { return }
        if let itemTypes = itemType?.types { wanted.formUnion(itemTypes) }
        if wanted.contains(.number) { wanted.insert(.integer) }
        // Every value is sent as text: a string parameter takes numbers and booleans too.
        if wanted.contains(.string) { wanted.formUnion([.integer, .number, .boolean]) }
        if bound.isDisjoint(with: wanted) {
            error(.bindingTypeMismatch,
                  "\(parameter.label) is \(navigator.describe(parameter.schema)), but the value bound to it is "
                      + navigator.describe(boundType),
                  at: parameter.binding.value.firstLocation ?? parameter.binding.name.location)
        }
    }

    /// Checks everything of a step but its outputs, and plans it.
    mutating func checkStep(_ step: Step) -> PlannedStep {
        let request = step.request
        // A switch step sends no request: the case step it runs sends its own.
        let sendsRequest = step.switch == nil
        if sendsRequest { checkRequest(request, in: requestContext(of: step)) }
        for binding in step.set {
            usedVars.insert(binding.name.value)
            if varsByName[binding.name.value] == nil {
                let hint = varsByName.isEmpty
                    ? "; declare it under 'vars'" : Suggestion.didYouMean(binding.name.value, in: varsByName.keys)
                error(.unknownReference, "'set' updates unknown var '\(binding.name.value)'\(hint)",
                      at: binding.name.location)
            }
            _ = checkTemplate(binding.value, in: .response(step), placement: .value, at: binding.name.location)
        }
        checkResponseParsing(step)
        checkCondition(of: step)
        checkForEach(of: step)
        checkLoop(of: step)
        checkSwitch(of: step)
        var seenStatuses: [ResponseCase.Status: SourceLocation] = [:]
        for response in step.responses {
            if let first = seenStatuses[response.status.value] {
                error(.duplicateName, "status '\(response.status.value)' is declared twice (first at line \(first.line))",
                      at: response.status.location)
            }
            seenStatuses[response.status.value] = response.status.location
        }
        checkAfter(of: step)

        // What a step takes from `defaults` was resolved (and reported) once, where `defaults` names it.
        let serverName = step.server ?? workflow.defaults.server
        let server: Server? =
            if !sendsRequest { nil }
            else if let name = step.server { resolveServer(name) }
            else { serverName.flatMap { serversByName[$0.value] } }
        // A path that starts with an expression may give an absolute URL: its value decides at run time.
        if sendsRequest && serverName == nil && RequestPath.origin(of: request.path) == .relative {
            error(.missingKey,
                  "step '\(step.id.value)' has a relative path but no server; set 'server' on the step or under 'defaults'",
                  at: request.pathLocation)
        }
        let interceptors = !sendsRequest ? [] : step.interceptors.map { resolveInterceptors($0) }
            ?? (workflow.defaults.interceptors ?? []).compactMap { interceptorsByName[$0.value] }
        let policy: Policy? =
            if !sendsRequest { nil }
            else if let name = step.policy { resolvePolicy(name) }
            else { workflow.defaults.policy.flatMap { policiesByName[$0.value] } }
        if let policy {
            checkRetriedMethod(of: step, policy: policy)
            checkRetryConditions(of: step, policy: policy)
        }
        let dispatcher = (step.dispatcher ?? workflow.defaults.dispatcher)?.value ?? "http"
        let outputs = outputTypes(of: step.id.value).compactMapValues { $0 }
        return PlannedStep(
            step: step, dependencies: [], server: server, interceptors: interceptors, policy: policy,
            dispatcher: dispatcher, outputTypes: outputs, outputNames: outputNames(of: step))
    }

    /// Refuses a header value whose written text holds a line break or NUL: every request that sends it would
    /// fail, which the file shows already. (A bound value is checked when it is bound.)
    mutating func checkHeaderLiteral(_ value: ValueTemplate, header name: String, at location: SourceLocation) {
        let literals: [String] =
            switch value {
            case .literal(.null): []
            case .literal(let value): [value.interpolationText]
            case .string(let template, _):
                template.segments.compactMap { if case .literal(let text) = $0 { text } else { nil } }
            default: []
            }
        for text in literals {
            guard let problem = RequestBuilder.headerValueProblem(text) else { continue }
            error(.invalidValue, "the value of header \(name) \(problem)", at: location)
            return
        }
    }

    /// Checks the steps `after:` names and orders `step` after them.
    mutating func checkAfter(of step: Step) {
        for name in step.after {
            if stepsByID[name.value] == nil {
                unknownStep(name.value, "unknown step '\(name.value)'\(Suggestion.didYouMean(name.value, in: stepsByID.keys))",
                      at: name.location)
            } else if name.value == step.id.value {
                error(.dependencyCycle, "step '\(name.value)' cannot run after itself", at: name.location)
            } else {
                dependencies[step.id.value, default: []].append(name)
            }
        }
    }

    /// Refuses a path written with a `.` or `..` segment (`/echo/../tail`): servers resolve it away, so the
    /// request would not go where the file says. Bound values are checked at run time.
    private mutating func checkLiteralDotSegments(in request: Request) {
        let text: String
        switch request.path {
        case .literal(.string(let literal)): text = literal
        case .string(let template, _):
            // An expression stands for text that is never a dot-segment by itself: U+0001 is never written.
            text = template.segments.map { segment in
                if case .literal(let literal) = segment { return literal }
                return "\u{1}"
            }.joined()
        default: return
        }
        if let dot = RequestPath.firstDotSegment(in: text) {
            error(.invalidValue,
                  "the path has the dot-segment '\(dot)', which servers and proxies resolve away, so the request "
                      + "would not go to the path written; write the path it means",
                  at: request.pathLocation)
        }
    }

    /// Warns about an OpenAPI-style `{userId}` in a path, which would be sent as the text `%7BuserId%7D`:
    /// flowrun embeds values as `{$inputs.userId}`. Suggests the expression when an input, a var or a step
    /// output has that name.
    private mutating func checkPathPlaceholders(in request: Request) {
        let literals: [String]
        switch request.path {
        case .literal(.string(let text)): literals = [text]
        case .string(let template, _):
            literals = template.segments.compactMap { if case .literal(let text) = $0 { text } else { nil } }
        default: return
        }
        for literal in literals {
            var rest = Substring(literal)
            while let open = rest.firstIndex(of: "{") {
                let afterOpen = rest[rest.index(after: open)...]
                guard let close = afterOpen.firstIndex(of: "}") else { break }
                let name = String(afterOpen[..<close])
                rest = afterOpen[afterOpen.index(after: close)...]
                guard !name.isEmpty, name.unicodeScalars.allSatisfy({
                    $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
                }) else { continue }
                let fix = placeholderExpression(for: name).map { "did you mean '{\($0)}'?" }
                    ?? "embed a value with '{$inputs.\(name)}' or '{$steps.<step>.outputs.\(name)}'"
                warning(.pathPlaceholder,
                        "'{\(name)}' in the path is sent as the literal text '%7B\(name)%7D', not a value; \(fix)",
                        at: request.pathLocation)
            }
        }
    }

    /// The expression that reads `name`: an input, a var or the first step output of that name.
    private func placeholderExpression(for name: String) -> String? {
        if let inputs = workflow.inputs.flatMap({ navigator.resolve($0) }),
            inputs.properties.contains(where: { $0.name == name })
        {
            return "$inputs.\(name)"
        }
        if varsByName[name] != nil { return "$vars.\(name)" }
        if let step = workflow.steps.first(where: { $0.outputs.contains { $0.name.value == name } }) {
            return "$steps.\(step.id.value).outputs.\(name)"
        }
        return nil
    }
}
