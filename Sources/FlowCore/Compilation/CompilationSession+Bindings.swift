/// Type-checking of value templates and the runtime expressions in them.
extension CompilationSession {
    /// Checks every expression of `template` in `context` and returns the template's static type.
    /// - Returns: The type of the value, or `nil` when it is unknown.
    /// - Parameters:
    ///   - template: The template.
    ///   - context: Where it is evaluated.
    ///   - placement: Where its value goes.
    ///   - location: Where it is written, for problems with the whole of a literal template.
    mutating func checkTemplate(
        _ template: ValueTemplate, in context: BindingContext, placement: Placement, at location: SourceLocation? = nil
    ) -> JSONSchema? {
        switch template {
        case .literal(let value):
            switch (value, placement) {
            case (.array, .scalar(let label)), (.object, .scalar(let label)):
                error(.bindingTypeMismatch, "\(value.typeName == "array" ? "a sequence" : "a mapping") cannot be bound into \(label)",
                      at: location)
            case (.object, .query):
                error(.bindingTypeMismatch, "a mapping cannot be bound into a query parameter", at: location)
            case (.array(let elements), .query) where elements.contains(where: \.isContainer):
                error(.bindingTypeMismatch,
                      "a query parameter takes a scalar or a list of scalars; this list holds a list or a mapping, "
                          + "which has no query form",
                      at: location)
            default:
                break
            }
            return JSONSchema(location: location ?? SourceLocation(path: workflow.path, line: 1, column: 1),
                              types: [JSONSchema.TypeName(rawValue: value.typeName) ?? .string])
        case .expression(let expression, let location):
            let type = typeOf(expression, at: location, in: context)
            checkPlacement(type, of: expression, at: location, placement: placement, embedded: false)
            return type
        case .string(let stringTemplate, let location):
            for (index, segment) in stringTemplate.segments.enumerated() {
                guard case .expression(let expression, _) = segment else { continue }
                let at = stringTemplate.location(ofSegment: index, origin: location)
                let type = typeOf(expression, at: at, in: context)
                let inner: Placement = if case .value = placement { .scalar("a string") } else { placement }
                checkPlacement(type, of: expression, at: at, placement: inner, embedded: true)
            }
            return JSONSchema(location: location, types: [.string])
        case .array(let elements):
            let elementPlacement: Placement = if case .query = placement { .scalar("a query parameter") } else { .value }
            for element in elements {
                _ = checkTemplate(element, in: context, placement: elementPlacement, at: location)
            }
            if case .scalar(let label) = placement {
                error(.bindingTypeMismatch, "a sequence cannot be bound into \(label)", at: template.firstLocation ?? location)
            }
            return nil
        case .object(let members):
            for (_, member) in members.sorted(by: { $0.key < $1.key }) {
                _ = checkTemplate(member, in: context, placement: .value, at: location)
            }
            if case .value = placement {} else {
                error(.bindingTypeMismatch, "a mapping cannot be bound into \(placement.label)",
                      at: template.firstLocation ?? location)
            }
            return nil
        }
    }

    private mutating func checkPlacement(
        _ type: JSONSchema?, of expression: RuntimeExpression, at location: SourceLocation,
        placement: Placement, embedded: Bool
    ) {
        guard let type, let resolved = navigator.resolve(type), let types = resolved.types, !types.isEmpty else {
            return
        }
        let allowed: Set<JSONSchema.TypeName>
        switch placement {
        case .value: return
        case .query: allowed = [.object]
        case .scalar: allowed = [.object, .array]
        }
        if types.isSubset(of: allowed) {
            let member = scalarMemberPointer(in: resolved).map { ", such as '\(expression)#\($0)'" }
                ?? " with a JSON pointer ('\(expression)#/<member>')"
            error(.bindingTypeMismatch,
                  "'\(expression)' is \(navigator.describe(type)), which cannot be bound into \(placement.label); "
                      + "bind one of its scalar members\(member)",
                  at: location)
        } else if case .query = placement, types == [.array], let items = resolved.items,
            let itemTypes = navigator.resolve(items)?.types, !itemTypes.isEmpty,
            itemTypes.isSubset(of: [.object, .array])
        {
            let member = scalarMemberPointer(in: resolved).map { "; bind a scalar member instead, such as '\(expression)#\($0)'" } ?? ""
            error(.bindingTypeMismatch,
                  "'\(expression)' is \(navigator.describe(type)), which has no query form: a query parameter "
                      + "takes a scalar or a list of scalars\(member)",
                  at: location)
        }
    }

    /// The static type of an expression, after checking that what it reads exists.
    mutating func typeOf(_ expression: RuntimeExpression, at location: SourceLocation, in context: BindingContext)
        -> JSONSchema?
    {
        let nameLocation = expression.spans.name.map { location.advanced(by: $0) } ?? location
        let base: JSONSchema?
        switch expression.source {
        case .input(let name):
            usedInputs.insert(name)
            guard let inputs = workflow.inputs, let resolved = navigator.resolve(inputs) else {
                error(.unknownReference, "'\(expression)' reads input '\(name)', but the workflow declares no inputs",
                      at: nameLocation)
                return nil
            }
            if let property = resolved.property(name) {
                base = property
            } else if case .allowed(true) = resolved.additionalProperties {
                base = nil
            } else {
                let names = resolved.properties.map(\.name)
                error(.unknownReference,
                      "unknown input '\(name)'\(Suggestion.didYouMean(name, in: names))\(names.isEmpty ? "; 'inputs' declares no properties" : "")",
                      at: nameLocation)
                return nil
            }
        case .variable(let name):
            usedVars.insert(name)
            if let step = context.dependentStep { varReads[step.id.value, default: []].insert(name) }
            guard varsByName[name] != nil else {
                let hint = varsByName.isEmpty
                    ? "; the workflow declares no vars" : Suggestion.didYouMean(name, in: varsByName.keys)
                error(.unknownReference, "unknown var '\(name)'\(hint)", at: nameLocation)
                return nil
            }
            base = varType(name)
        case .environment(let name):
            usedEnvironment.insert(name)
            guard environmentByName[name] != nil else {
                var hint = Suggestion.didYouMean(name, in: environmentByName.keys)
                if hint.isEmpty {
                    hint = "; a workflow reads only the variables it declares: add '\(name): {}' under "
                        + "'\(workflow.environmentKey)'"
                }
                error(.unknownReference,
                      "environment variable '\(name)' is not declared under '\(workflow.environmentKey)'\(hint)",
                      at: nameLocation)
                return nil
            }
            base = JSONSchema(location: location, types: [.string])
        case .stepOutput(let stepID, let output):
            guard context.hasSteps else {
                error(.invalidExpression,
                      "'\(expression)' cannot be used in \(context.label): step outputs do not exist yet there; bind it in a step's 'set' to update a var instead",
                      at: location)
                return nil
            }
            let stepLocation = expression.spans.step.map { location.advanced(by: $0) } ?? location
            guard let target = stepsByID[stepID] else {
                unknownStep(stepID, "unknown step '\(stepID)'\(Suggestion.didYouMean(stepID, in: stepsByID.keys))",
                      at: stepLocation)
                return nil
            }
            if case .compensation(let compensated) = context {
                compensationReads[compensated.id.value, default: []].append(Located(stepID, at: stepLocation))
            }
            // Arazzo reads an output no step produces as absent: the document's checks warned (a step's own
            // outputs, an output not declared), and the step that reads it fails there at run time.
            let readsAbsentOutputs = workflow.arazzoWorkflowID != nil
            // Read once: the context holds the step by value, and each read copies all of it.
            let reader = context.dependentStep
            if let dependent = reader {
                if dependent.id.value == stepID {
                    if readsAbsentOutputs { return nil }
                    let hint = if case .response = context { "; read its response with '$response.body' instead" } else { "" }
                    error(.dependencyCycle, "step '\(stepID)' reads its own outputs\(hint)", at: stepLocation)
                    return nil
                }
                dependencies[dependent.id.value, default: []].append(Located(stepID, at: stepLocation))
            }
            if target.onDemand, !(reader?.onDemand ?? false) {
                error(.invalidValue,
                      "'\(expression)' reads an output of on-demand step '\(stepID)', which runs only when an interceptor or catch rule runs it; have it 'set' a var and read the var",
                      at: stepLocation)
                return nil
            }
            let outputs = outputTypes(of: stepID)
            // A called workflow that does not compile has been reported where the step names it.
            if target.call != nil, calleePlan(of: target) == nil { return nil }
            guard let type = outputs[output] else {
                if readsAbsentOutputs { return nil }
                let names = outputNames(of: target)
                error(.unknownReference,
                      "step '\(stepID)' has no output '\(output)'\(Suggestion.didYouMean(output, in: names))\(names.isEmpty ? "; it declares no outputs" : "")",
                      at: nameLocation)
                return nil
            }
            if !target.otherwise.contains(where: { $0.name.value == output }),
                let cause = skipCause(of: target, reader: reader)
            {
                error(.maybeSkipped,
                      "'\(expression)' may not exist: step '\(stepID)' is skipped when \(cause.text); give the "
                          + "output a value for that case, 'else: { \(output): … }' on step '\(stepID)'"
                          + cause.otherRemedy(reader: reader),
                      at: nameLocation)
            }
            base = type
        case .item:
            let step: Step? =
                switch context {
                case .request(let step), .response(let step), .retryCondition(let step, _): step
                default: nil
                }
            guard let step, step.forEach != nil else {
                error(.invalidExpression,
                      "'\(expression)' cannot be used in \(context.label): '$item' is the current item of a step with "
                          + "'forEach', in its request, outputs and retry conditions",
                      at: location)
                return nil
            }
            base = itemType(of: step)
        case .responseBody:
            if case .failureHandler(let handler, let handles) = context {
                return failureHandlerBodyType(expression, handler: handler, handles: handles, at: location)
            }
            guard context.hasResponse, let step = responseStep(context) ?? nil else {
                if !context.hasResponse { reportNoResponse(expression, in: context, at: location) }
                return nil
            }
            if case .failure = context {
                return failureBodyType(expression, of: step, at: location)
            }
            if case .retryCondition(_, failedResponse: true) = context {
                return failureBodyType(expression, of: step, at: location)
            }
            return responseBodyType(expression, of: step, at: location)
        case .responseHeader:
            guard context.hasResponse else {
                reportNoResponse(expression, in: context, at: location)
                return nil
            }
            return JSONSchema(location: location, types: [.string])
        case .statusCode:
            guard context.hasResponse else {
                reportNoResponse(expression, in: context, at: location)
                return nil
            }
            return JSONSchema(location: location, types: [.integer])
        case .url:
            guard context.hasResponse else {
                reportNoResponse(expression, in: context, at: location)
                return nil
            }
            return JSONSchema(location: location, types: [.string])
        }
        return follow(expression, from: base, at: location)
    }

    private mutating func reportNoResponse(
        _ expression: RuntimeExpression, in context: BindingContext, at location: SourceLocation
    ) {
        error(.invalidExpression,
              "'\(expression)' cannot be used in \(context.label): there is no response there; $response, $statusCode and $url belong in a step's outputs and set, and in the request of an on-demand step that only catch and on-error 'run' rules run",
              at: location)
    }

    private func responseStep(_ context: BindingContext) -> Step?? {
        switch context {
        case .response(let step): .some(step)
        case .failure(let step): .some(step)
        case .retryCondition(let step, _): .some(step)
        case .loop(let step): .some(step)
        default: nil
        }
    }

    /// Walks the expression's pointer, if any, from `base`.
    private mutating func follow(_ expression: RuntimeExpression, from base: JSONSchema?, at location: SourceLocation)
        -> JSONSchema?
    {
        guard let pointer = expression.pointer, !pointer.tokens.isEmpty else { return base }
        switch navigator.walk(pointer.tokens, in: base) {
        case .found(let type): return type
        case .missing(let message, _):
            let pointerLocation = expression.spans.pointer.map { location.advanced(by: $0) } ?? location
            error(.bindingTypeMismatch, "'\(expression)' reads nothing: \(message)", at: pointerLocation)
            return nil
        }
    }

    /// The type at `$response.body#pointer` in a `catch` rule: the failed response, so one of the step's error types.
    ///
    /// A failure may also have no response at all (a timeout), or a status the step
    /// does not declare, so a pointer is checked only when every status is declared.
    private mutating func failureBodyType(
        _ expression: RuntimeExpression, of step: Step, at location: SourceLocation
    ) -> JSONSchema? {
        let errors = step.responses.filter { !$0.status.value.isSuccess }
        guard let pointer = expression.pointer, !pointer.tokens.isEmpty, !errors.isEmpty else { return nil }
        var failures: [String] = []
        for response in errors {
            switch navigator.walk(pointer.tokens, in: response.schema) {
            case .found(let type): return type
            case .missing(let message, _): failures.append("\(response.status.value): \(message)")
            }
        }
        let pointerLocation = expression.spans.pointer.map { location.advanced(by: $0) } ?? location
        error(.bindingTypeMismatch,
              "'\(expression)' reads nothing from the error responses of step '\(step.id.value)': \(failures.joined(separator: "; "))",
              at: pointerLocation)
        return nil
    }

    /// The type at `$response.body#pointer` of `step`, checked against every success type it declares.
    private mutating func responseBodyType(_ expression: RuntimeExpression, of step: Step, at location: SourceLocation)
        -> JSONSchema?
    {
        let success = step.responses.filter { $0.status.value.isSuccess }
        guard !success.isEmpty else { return nil }
        guard let pointer = expression.pointer, !pointer.tokens.isEmpty else {
            return success.count == 1 ? success[0].schema : nil
        }
        var failures: [String] = []
        for response in success {
            switch navigator.walk(pointer.tokens, in: response.schema) {
            case .found(let type): return type
            case .missing(let message, _): failures.append("\(response.status.value): \(message)")
            }
        }
        let pointerLocation = expression.spans.pointer.map { location.advanced(by: $0) } ?? location
        let detail = failures.count == 1 ? String(failures[0].drop { $0 != " " }.dropFirst()) : failures.joined(separator: "; ")
        error(.bindingTypeMismatch,
              "'\(expression)' reads nothing from the response of step '\(step.id.value)': \(detail)",
              at: pointerLocation)
        return nil
    }

    /// A JSON pointer to a scalar member of a value of type `schema`, to suggest in place of binding the whole
    /// value: `/id` when an object has a scalar `id`, else its first scalar property; `/0` (or `/0/<member>`) for
    /// an array. `nil` when the type declares none.
    func scalarMemberPointer(in schema: JSONSchema, depth: Int = 0) -> String? {
        guard depth < 4, let resolved = navigator.resolve(schema) else { return nil }
        let scalarTypes: Set<JSONSchema.TypeName> = [.string, .number, .integer, .boolean]
        func isScalar(_ candidate: JSONSchema) -> Bool {
            guard let types = navigator.resolve(candidate)?.types, !types.isEmpty else { return false }
            return types.isSubset(of: scalarTypes.union([.null]))
        }
        if resolved.types?.contains(.array) == true, let items = resolved.items {
            if isScalar(items) { return "/0" }
            return scalarMemberPointer(in: items, depth: depth + 1).map { "/0" + $0 }
        }
        let properties = resolved.properties
        if let id = properties.first(where: { $0.name == "id" }), isScalar(id.schema) { return "/id" }
        if let first = properties.first(where: { isScalar($0.schema) }) {
            return JSONPointer(tokens: [first.name]).description
        }
        for property in properties {
            if let inner = scalarMemberPointer(in: property.schema, depth: depth + 1) {
                return JSONPointer(tokens: [property.name]).description + inner
            }
        }
        return nil
    }
}

extension Placement {
    /// What the placement is, for messages.
    var label: String {
        switch self {
        case .value: "a value"
        case .scalar(let label): label
        case .query: "a query parameter"
        }
    }
}

extension ValueTemplate {
    /// The location of the first expression or string in the template, for messages about the whole of it.
    var firstLocation: SourceLocation? {
        switch self {
        case .literal: nil
        case .expression(_, let location), .string(_, let location): location
        case .array(let elements): elements.lazy.compactMap(\.firstLocation).first
        case .object(let members): members.values.lazy.compactMap(\.firstLocation).min()
        }
    }
}
