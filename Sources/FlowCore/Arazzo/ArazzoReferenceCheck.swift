/// Checks what spans the objects of a decoded Arazzo document: ids that must be unique, and every name that
/// must exist (steps, workflows, sources, components, outputs, inputs), each a located error with a suggestion.
///
/// Operations are not resolved here: that needs the OpenAPI documents the sources name.
package struct ArazzoReferenceCheck {
    package let document: ArazzoDocument
    package private(set) var diagnostics: [Diagnostic] = []

    package init(_ document: ArazzoDocument) {
        self.document = document
    }

    /// Runs every check over the document and the expressions its decoder found.
    package mutating func check(_ uses: [ArazzoExpressionUse]) {
        checkUnique(document.sources.map(\.name), "source description name")
        checkUnique(document.workflows.map(\.id), "workflowId")
        for workflow in document.workflows {
            checkUnique(workflow.steps.map(\.id), "stepId in workflow '\(workflow.id.value)'")
            checkDependencies(of: workflow)
            checkReusables(workflow.parameters, section: .parameters)
            checkDuplicateParameters(workflow.parameters)
            checkActions(workflow.successActions, section: .successActions, in: workflow)
            checkActions(workflow.failureActions, section: .failureActions, in: workflow)
            for step in workflow.steps {
                checkTarget(of: step)
                checkReusables(step.parameters, section: .parameters)
                checkActions(step.onSuccess, section: .successActions, in: workflow)
                checkActions(step.onFailure, section: .failureActions, in: workflow)
                checkDuplicateParameters(step.parameters)
            }
        }
        // A component action's stepId names a step of whichever workflow uses it: checked by checkActions there.
        for use in uses { check(use) }
    }

    // MARK: Ids

    private mutating func checkUnique(_ names: [Located<String>], _ what: String) {
        var seen: [String: SourceLocation] = [:]
        for name in names {
            if let first = seen[name.value] {
                diagnostics.append(Diagnostic(
                    .error, .duplicateName, "duplicate \(what) '\(name.value)'; the first is at \(first)", at: name.location))
            } else {
                seen[name.value] = name.location
            }
        }
    }

    private mutating func checkDuplicateParameters(_ parameters: [ArazzoReusable<ArazzoParameter>]) {
        var seen: Set<String> = []
        for case .object(let parameter) in parameters {
            let key = "\(parameter.placement?.value ?? "")\u{0}\(parameter.name.value)"
            if !seen.insert(key).inserted {
                diagnostics.append(Diagnostic(
                    .error, .duplicateName,
                    "duplicate parameter '\(parameter.name.value)'\(parameter.placement.map { " in \($0.value)" } ?? "")",
                    at: parameter.name.location))
            }
        }
    }

    // MARK: Workflows and steps

    private mutating func checkDependencies(of workflow: ArazzoWorkflow) {
        for dependency in workflow.dependsOn {
            if dependency.value.hasPrefix("$") { continue }  // $sourceDescriptions…: checked as an expression
            if dependency.value == workflow.id.value {
                diagnostics.append(Diagnostic(
                    .error, .dependencyCycle, "workflow '\(workflow.id.value)' depends on itself", at: dependency.location))
            } else if document.workflow(dependency.value) == nil {
                unknown("workflow", dependency, among: document.workflows.map(\.id.value))
            } else if let cycle = cycle(from: dependency.value, back: workflow.id.value, seen: []) {
                diagnostics.append(Diagnostic(
                    .error, .dependencyCycle,
                    "workflow '\(workflow.id.value)' depends on itself: "
                        + ([workflow.id.value] + cycle).joined(separator: " → "),
                    at: dependency.location))
            }
        }
    }

    /// The chain of `dependsOn` from `start` that leads back to `target`, if any.
    private func cycle(from start: String, back target: String, seen: Set<String>) -> [String]? {
        guard !seen.contains(start), let workflow = document.workflow(start) else { return nil }
        for dependency in workflow.dependsOn.map(\.value) {
            if dependency == target { return [start, target] }
            if let rest = cycle(from: dependency, back: target, seen: seen.union([start])) { return [start] + rest }
        }
        return nil
    }

    private mutating func checkTarget(of step: ArazzoStep) {
        let openAPISources = document.sources.filter { $0.type?.value != "arazzo" }
        switch step.target {
        case .operationID(let id) where !id.value.hasPrefix("$"):
            if openAPISources.count > 1 {
                diagnostics.append(Diagnostic(
                    .error, .unknownReference,
                    "operationId '\(id.value)' must name its source, as in $sourceDescriptions.<name>.\(id.value): "
                        + "the document has \(openAPISources.count) OpenAPI sources",
                    at: id.location))
            }
        case .operationPath(let path):
            guard let hash = path.value.firstIndex(of: "#"), path.value[path.value.index(after: hash)...].hasPrefix("/paths/"),
                path.value.hasPrefix("{$sourceDescriptions.")
            else {
                diagnostics.append(Diagnostic(
                    .error, .invalidValue,
                    "an operationPath is written '{$sourceDescriptions.<name>.url}#/paths/<escaped path>/<method>'",
                    at: path.location))
                return
            }
        case .workflowID(let id) where !id.value.hasPrefix("$"):
            if document.workflow(id.value) == nil { unknown("workflow", id, among: document.workflows.map(\.id.value)) }
        default:
            break
        }
    }

    // MARK: Components and actions

    private mutating func checkReusables<Object>(_ items: [ArazzoReusable<Object>], section: ArazzoExpression.ComponentKind) {
        // The named component's existence is checked with the other `$components` expressions.
        for case .reference(let reference, let value) in items {
            guard case .component(let kind, _)? = try? ArazzoExpression.parsingLeniently(reference.value).expression
            else {
                diagnostics.append(Diagnostic(
                    .error, .unknownReference,
                    "a reference here is written $components.\(section.rawValue).<name>", at: reference.location))
                continue
            }
            guard kind == section else {
                diagnostics.append(Diagnostic(
                    .error, .unknownReference,
                    "this list takes $components.\(section.rawValue).<name>, not $components.\(kind.rawValue)",
                    at: reference.location))
                continue
            }
            if value != nil, section != .parameters {
                diagnostics.append(Diagnostic(
                    .error, .invalidValue, "only a parameter reference may set a 'value'", at: reference.location))
            }
        }
    }

    private mutating func checkActions(
        _ actions: [ArazzoReusable<ArazzoAction>], section: ArazzoExpression.ComponentKind, in workflow: ArazzoWorkflow
    ) {
        checkReusables(actions, section: section)
        var names: [Located<String>] = []
        for item in actions {
            let action: ArazzoAction?
            switch item {
            case .object(let object): action = object
            case .reference(let reference, _):
                guard case .component(_, let name)? = try? ArazzoExpression.parsingLeniently(reference.value).expression else {
                    continue
                }
                let components = section == .successActions
                    ? document.components.successActions : document.components.failureActions
                action = components.first { $0.name.value == name }?.action
            }
            guard let action else { continue }
            names.append(Located(action.name.value, at: item.location ?? action.name.location))
            if let stepID = action.stepID, workflow.step(stepID.value) == nil {
                unknown("step", stepID, in: "in workflow '\(workflow.id.value)'", among: workflow.steps.map(\.id.value))
            }
            if let workflowID = action.workflowID, !workflowID.value.hasPrefix("$"), document.workflow(workflowID.value) == nil {
                unknown("workflow", workflowID, among: document.workflows.map(\.id.value))
            }
        }
        checkUnique(names, "action name")
    }

    // MARK: Expressions

    private mutating func check(_ use: ArazzoExpressionUse) {
        let workflow = use.workflowID.flatMap(document.workflow)
        switch use.expression {
        case .stepOutput(let stepID, let name, _):
            guard let workflow else { return }
            guard let step = workflow.step(stepID) else {
                unknown("step", Located(stepID, at: use.location), in: "in workflow '\(workflow.id.value)'", among: workflow.steps.map(\.id.value))
                return
            }
            let outputs = step.outputs.map(\.name.value)
            if !outputs.contains(name) {
                undeclaredOutput("step '\(stepID)'", Located(name, at: use.location), among: outputs)
            } else if use.stepID == stepID {
                diagnostics.append(Diagnostic(
                    .warning, .dependencyCycle,
                    "step '\(stepID)' reads its own output '\(name)', which does not exist while the step runs, so the "
                        + "value is absent when it is read",
                    at: use.location))
            }
        case .workflowValue(let workflowID, let part, let name, _):
            guard let called = document.workflow(workflowID) else {
                unknown("workflow", Located(workflowID, at: use.location), among: document.workflows.map(\.id.value))
                return
            }
            if part == .outputs, let reader = workflow, !reader.dependsOn.contains(where: { $0.value == workflowID }) {
                notRunFirst(workflowID, readBy: reader, at: use.location)
            } else if part == .outputs {
                let outputs = called.outputs.map(\.name.value)
                if !outputs.contains(name) {
                    undeclaredOutput("workflow '\(workflowID)'", Located(name, at: use.location), among: outputs)
                }
            }
        case .inputs(let name, _):
            guard let workflow, let declared = declaredInputs(of: workflow) else { return }
            if !declared.contains(name) {
                unknown("input", Located(name, at: use.location), in: "of workflow '\(workflow.id.value)'", among: declared)
            }
        case .outputs(let name, _):
            guard let workflow else { return }
            let outputs = workflow.outputs.map(\.name.value)
            if !outputs.contains(name) {
                undeclaredOutput("workflow '\(workflow.id.value)'", Located(name, at: use.location), among: outputs)
            }
        case .sourceDescription(let name, _):
            if !document.sources.contains(where: { $0.name.value == name }) {
                unknown("source description", Located(name, at: use.location), among: document.sources.map(\.name.value))
            }
        case .component(let kind, let name):
            let names: [String] =
                switch kind {
                case .inputs: document.components.inputs.map(\.name.value)
                case .parameters: document.components.parameters.map(\.name.value)
                case .successActions: document.components.successActions.map(\.name.value)
                case .failureActions: document.components.failureActions.map(\.name.value)
                }
            if !names.contains(name) {
                unknown("component", Located(name, at: use.location), in: "in components.\(kind.rawValue)", among: names)
            }
        case .url, .method, .statusCode, .request, .response:
            break
        }
    }

    /// The property names of a workflow's `inputs` schema, following one `$ref` to `#/components/inputs/<name>`;
    /// `nil` when the schema does not list them (then any input may be read).
    private func declaredInputs(of workflow: ArazzoWorkflow) -> [String]? {
        guard var schema = workflow.inputs?.mapping else { return nil }
        if let ref = schema.first(where: { $0.key.scalar?.text == "$ref" })?.value.scalar?.text {
            let prefix = "#/components/inputs/"
            guard ref.hasPrefix(prefix),
                let target = document.components.inputs.first(where: { $0.name.value == String(ref.dropFirst(prefix.count)) }),
                let mapping = target.schema.mapping
            else { return nil }
            schema = mapping
        }
        guard let properties = schema.first(where: { $0.key.scalar?.text == "properties" })?.value.mapping else { return nil }
        return properties.compactMap { $0.key.scalar?.text }
    }

    /// A read of `$workflows.<id>.outputs` in a workflow that does not list `<id>` in its `dependsOn`: the outputs
    /// flowrun reads are those of the run of `<id>` that `dependsOn` starts first (and that a `retry` action naming
    /// it starts again), so there would be nothing to read.
    private mutating func notRunFirst(_ workflowID: String, readBy reader: ArazzoWorkflow, at location: SourceLocation) {
        diagnostics.append(Diagnostic(
            .error, .unknownReference,
            "workflow '\(reader.id.value)' reads the outputs of workflow '\(workflowID)', which it does not run first: "
                + "list '\(workflowID)' in its dependsOn (a retry action that names it then runs it again, and this "
                + "reads the new outputs)",
            at: location))
    }

    /// A read of an output that is not declared: a warning, not an error, as two of the specification's own
    /// examples (bnpl, pet-coupons) make such reads and must still pass `flowrun lint`; the value is absent at run
    /// time, which a required parameter or a comparison then meets.
    private mutating func undeclaredOutput(_ owner: String, _ name: Located<String>, among candidates: [String]) {
        let suggestion = Suggestion.closest(to: name.value, in: candidates)
        let declared = candidates.isEmpty ? "it declares none" : "it declares \(candidates.joined(separator: ", "))"
        diagnostics.append(Diagnostic(
            .warning, .unknownReference,
            "\(owner) has no output '\(name.value)', so the value is absent when it is read"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "; \(declared)"),
            at: name.location))
    }

    /// An error for `name`, a `what` that does not exist (`in` says where it was looked for), with the closest
    /// candidate, or the candidates when there are few.
    private mutating func unknown(_ what: String, _ name: Located<String>, in place: String? = nil, among listed: [String]) {
        var seen: Set<String> = []
        let candidates = listed.filter { seen.insert($0).inserted }
        let suggestion = Suggestion.closest(to: name.value, in: candidates)
        let listed = candidates.isEmpty ? "; there is none" : candidates.count <= 8 ? "; expected one of: \(candidates.joined(separator: ", "))" : ""
        diagnostics.append(Diagnostic(
            .error, .unknownReference,
            "unknown \(what) '\(name.value)'" + (place.map { " \($0)" } ?? "") + (suggestion.map { "; did you mean '\($0)'?" } ?? listed),
            at: name.location))
    }
}

extension ArazzoReusable {
    /// Where a reference is written; `nil` for an inline object.
    var location: SourceLocation? {
        if case .reference(let reference, _) = self { return reference.location }
        return nil
    }
}
