/// The workflows a lowered workflow calls, by a step's `workflowId`, `dependsOn` or an action: of the same document,
/// or of one of its `arazzo` sources (`$sourceDescriptions.<name>.<workflowId>`), each run as a sub-workflow.
extension ArazzoLowering {
    /// A workflow that a reference names, with the document that holds it.
    struct CalledWorkflow {
        var workflow: ArazzoWorkflow
        var document: ArazzoDocument
        /// The path a call names, relative to the calling document (or absolute).
        var path: String
    }

    /// The workflow `reference` names: a workflow id of this document, or `$sourceDescriptions.<name>.<workflowId>`
    /// of an `arazzo` source that was read; `nil` otherwise (reported by the checks, or by ``callOf(_:inputs:)``).
    func called(_ reference: String) -> CalledWorkflow? {
        if reference.hasPrefix("$") {
            guard let (name, id) = ArazzoExpression.sourceDescriptionMember(reference),
                let source = checked.arazzoSources[name],
                let workflow = source.document.workflows.first(where: { $0.id.value == id })
            else { return nil }
            return CalledWorkflow(workflow: workflow, document: source.document, path: source.callPath)
        }
        guard let workflow = document.workflows.first(where: { $0.id.value == reference }) else { return nil }
        let file = document.path.split(separator: "/").last.map(String.init) ?? document.path
        return CalledWorkflow(workflow: workflow, document: document, path: file)
    }

    /// The workflow `reference` names, or `nil` after reporting a workflow of an `arazzo` source flowrun could not
    /// read (one that names nothing at all the checks reported).
    mutating func calledOrReported(_ reference: Located<String>) -> CalledWorkflow? {
        if let called = called(reference.value) { return called }
        if let (name, _) = ArazzoExpression.sourceDescriptionMember(reference.value),
            document.sources.contains(where: { $0.name.value == name && $0.type?.value == "arazzo" })
        {
            error(.unreadableFile,
                  "'\(reference.value)' is a workflow of source '\(name)', which flowrun could not read; give a "
                      + "local copy with --source \(name)=PATH",
                  at: reference.location)
        }
        return nil
    }

    /// A call of the workflow `reference` names, with `inputs`; `nil` when it names none (``calledOrReported(_:)``).
    mutating func callOf(_ reference: Located<String>, inputs: [Binding]) -> SubWorkflowCall? {
        guard let called = calledOrReported(reference) else { return nil }
        return call(of: called, at: reference.location, inputs: inputs)
    }

    /// A call of `called`, with `inputs`.
    private func call(of called: CalledWorkflow, at location: SourceLocation, inputs: [Binding]) -> SubWorkflowCall {
        var call = SubWorkflowCall(path: Located(called.path, at: location), inputs: inputs)
        call.arazzoWorkflowID = called.workflow.id.value
        return call
    }

    /// A step `id` that calls the workflow `reference` names with the run's inputs it declares, or only those of
    /// them in `passing`; `nil` when it names none.
    mutating func workflowCallStep(_ reference: Located<String>, id: String, passing: Set<String>?) -> Step? {
        guard let called = calledOrReported(reference) else { return nil }
        // An input whose name no expression can read (`$inputs.a b`) is not passed on: the called workflow then
        // reports it missing if it needs it.
        let inputs = Self.inputNames(called.workflow.inputs, in: called.document).compactMap { name -> Binding? in
            guard passing?.contains(name) ?? true, let read = try? RuntimeExpression(parsing: "$inputs.\(name)") else {
                return nil
            }
            return Binding(name: Located(name, at: reference.location), value: .expression(read, reference.location))
        }
        let placeholder = Request(
            method: Located("GET", at: reference.location), path: .literal(.string("/")),
            pathLocation: reference.location)
        var step = Step(id: Located(id, at: reference.location), location: reference.location, request: placeholder)
        step.call = call(of: called, at: reference.location, inputs: inputs)
        return step
    }

    /// The part of a step's id that names the workflow `reference` names: its id, or `<source>-<workflowId>` for
    /// one of an `arazzo` source.
    static func stepIDPart(_ reference: String) -> String {
        guard let (name, id) = ArazzoExpression.sourceDescriptionMember(reference) else { return reference }
        return name + "-" + id
    }
}
