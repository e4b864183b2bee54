/// The lowering of expressions: every `$steps.<id>.outputs.<name>` in a plan is given the ``OutputSlot`` its
/// value is kept in, so that evaluating it indexes the run's ``OutputTable`` instead of looking the step and the
/// output up by name.
///
/// It walks every place of the decoded model where a step output may be read: a step's request (path, query,
/// headers, body, multipart parts), outputs, `set`, `if` and `else`, `forEach`, `repeat` and `paginate`,
/// `switch` value, the inputs of a called workflow, its compensation request, its `on-error` rules, the retry
/// conditions of its policy, and the workflow's `catch` rules and outputs. (Servers, vars and interceptors
/// cannot read step outputs; the compiler refuses that.) An expression naming a step or output the plan does
/// not have keeps no slot and is looked up by name, which fails as it always did.
struct SlotResolver {
    let layout: OutputLayout

    func resolve(_ expression: inout RuntimeExpression) {
        guard case .stepOutput(let step, let output) = expression.source else { return }
        expression.slot = layout.slot(step: step, output: output)
    }

    func resolve(_ template: inout ValueTemplate) {
        switch template {
        case .literal:
            break
        case .expression(var expression, let location):
            resolve(&expression)
            template = .expression(expression, location)
        case .string(var string, let location):
            resolve(&string)
            template = .string(string, location)
        case .array(var elements):
            for index in elements.indices { resolve(&elements[index]) }
            template = .array(elements)
        case .object(var members):
            for key in members.keys { resolve(&members[key]!) }
            template = .object(members)
        }
    }

    func resolve(_ template: inout StringTemplate) {
        for index in template.segments.indices {
            guard case .expression(var expression, let offset) = template.segments[index] else { continue }
            resolve(&expression)
            template.segments[index] = .expression(expression, offset: offset)
        }
    }

    func resolve(_ bindings: inout [Binding]) {
        for index in bindings.indices { resolve(&bindings[index].value) }
    }

    func resolve(_ condition: inout Condition) {
        resolve(&condition.expression)
    }

    func resolve(_ request: inout Request) {
        resolve(&request.path)
        resolve(&request.query)
        resolve(&request.headers)
        for index in request.parameterTypes.indices { resolve(&request.parameterTypes[index].binding.value) }
        switch request.body {
        case .json(var template, let location)?:
            resolve(&template)
            request.body = .json(template, location)
        case .form(var fields, let location)?:
            resolve(&fields)
            request.body = .form(fields, location)
        case .text(var template, let contentType, let location)?:
            resolve(&template)
            request.body = .text(template, contentType: contentType, location)
        case .multipart(var parts, let location)?:
            for index in parts.indices {
                switch parts[index].content {
                case .value(var template):
                    resolve(&template)
                    parts[index].content = .value(template)
                case .file(var template, let fileLocation):
                    resolve(&template)
                    parts[index].content = .file(template, fileLocation)
                }
                if var filename = parts[index].filename {
                    resolve(&filename)
                    parts[index].filename = filename
                }
            }
            request.body = .multipart(parts, location)
        case nil:
            break
        }
    }

    func resolve(_ rules: inout [CatchRule]) {
        for index in rules.indices {
            if var condition = rules[index].when.condition {
                resolve(&condition)
                rules[index].when.condition = condition
            }
            switch rules[index].action {
            case .fallback(var bindings):
                resolve(&bindings)
                rules[index].action = .fallback(bindings)
            case .end(var bindings):
                resolve(&bindings)
                rules[index].action = .end(bindings)
            case .goto, .run, .fail:
                break
            }
        }
    }

    func resolve(_ policy: inout Policy) {
        for index in policy.retry.indices {
            if var condition = policy.retry[index].when.condition {
                resolve(&condition)
                policy.retry[index].when.condition = condition
            }
        }
    }

    func resolve(_ step: inout Step) {
        resolve(&step.request)
        resolve(&step.outputs)
        resolve(&step.set)
        resolve(&step.onError)
        if case .request(var request, let location)? = step.compensation {
            resolve(&request)
            step.compensation = .request(request, location)
        }
        if var condition = step.condition {
            resolve(&condition)
            step.condition = condition
        }
        resolve(&step.otherwise)
        if var forEach = step.forEach {
            resolve(&forEach.items)
            step.forEach = forEach
        }
        if var repetition = step.repetition {
            switch repetition.stop {
            case .until(var condition):
                resolve(&condition)
                repetition.stop = .until(condition)
            case .while(var condition):
                resolve(&condition)
                repetition.stop = .while(condition)
            }
            step.repetition = repetition
        }
        if var pagination = step.pagination, case .value(var expression, let param) = pagination.next {
            resolve(&expression)
            pagination.next = .value(expression, param: param)
            step.pagination = pagination
        }
        if var call = step.call {
            resolve(&call.inputs)
            step.call = call
        }
        if var setting = step.switch {
            resolve(&setting.value)
            step.switch = setting
        }
    }

    func resolve(_ workflow: inout Workflow) {
        for index in workflow.steps.indices { resolve(&workflow.steps[index]) }
        for index in workflow.policies.indices { resolve(&workflow.policies[index]) }
        resolve(&workflow.catchRules)
        resolve(&workflow.outputs)
    }
}
