import Foundation

/// The `arazzo` sources of a document: each is read, and every `$sourceDescriptions.<name>.<workflowId>` that a
/// step, a `dependsOn` entry or an action names must be a workflow of it.
extension ArazzoOperationCheck {
    mutating func loadArazzoSources() {
        for source in document.sources where source.type?.value == "arazzo" {
            let name = source.name.value
            let unchecked = "the workflows of it that this document calls are not checked, and cannot run"
            guard let (path, written) = location(of: source) else {
                warnRemote(source, unchecked: unchecked)
                continue
            }
            // A call names the file relative to the calling document, as written; a local copy, by its absolute path.
            let callPath = written
                ?? (path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
            switch loader.arazzoDocument(path) {
            case .failure(let failure):
                unreadable(source, failure.message, unchecked: "the workflows of it that this document calls are not checked")
            case .success(let other):
                arazzoSources[name] = ArazzoCheck.ArazzoSource(callPath: callPath, document: other)
            }
        }
        for reference in workflowReferences() { checkWorkflowReference(reference) }
    }

    /// Every workflow the document names: in steps, `dependsOn` and actions (the components' included).
    private func workflowReferences() -> [Located<String>] {
        func named(_ actions: [ArazzoReusable<ArazzoAction>]) -> [Located<String>] {
            actions.compactMap { if case .object(let action) = $0 { action.workflowID } else { nil } }
        }
        var references: [Located<String>] = []
        for workflow in document.workflows {
            references += workflow.dependsOn + named(workflow.successActions) + named(workflow.failureActions)
            for step in workflow.steps {
                if case .workflowID(let called)? = step.target { references.append(called) }
                references += named(step.onSuccess) + named(step.onFailure)
            }
        }
        references += (document.components.successActions + document.components.failureActions).compactMap(\.action.workflowID)
        return references
    }

    /// A `$sourceDescriptions.<name>.<workflowId>` of an `arazzo` source that was read must name one of its
    /// workflows.
    private mutating func checkWorkflowReference(_ reference: Located<String>) {
        guard let (name, id) = ArazzoExpression.sourceDescriptionMember(reference.value),
            let source = arazzoSources[name]
        else { return }
        let ids = source.document.workflows.map(\.id.value)
        guard !ids.contains(id) else { return }
        let hint = Suggestion.closest(to: id, in: ids).map { "; did you mean '\($0)'?" }
            ?? (ids.isEmpty ? "; it has none" : "; it has \(ids.joined(separator: ", "))")
        diagnostics.append(Diagnostic(
            .error, .unknownReference, "source '\(name)' (\(source.callPath)) has no workflow '\(id)'" + hint,
            at: reference.location))
    }
}
