/// Lowers one workflow of a checked Arazzo document into flowrun's ``Workflow``, which the compiler then checks and
/// plans like any other: Arazzo runs on the same engine, with the same reports, HTTP client and test runner.
///
/// | Arazzo | flowrun |
/// |---|---|
/// | a step with `operationId` / `operationPath` | an `operation:` step of the step's OpenAPI source, its `parameters` placed by their `in` |
/// | the order of the steps | each step runs `after:` the one before it |
/// | `successCriteria` | ``Step/successCriteria``: they alone judge the response |
/// | `onSuccess` (and the workflow's `successActions`) | ``Step/onSuccess`` rules: `end`, `goto` |
/// | `onFailure` `retry` (and the workflow's `failureActions`) | retry rules of a policy of the step's own |
/// | `onFailure` `goto` / `end` | the step's `on-error` rules: `goto`, or ``CatchRule/Action/fail`` |
/// | `onFailure` `retry` with a `stepId` / `workflowId` | an `on-error` rule that runs the step (or an on-demand step calling the workflow), then the failed step again |
/// | `goto` a `workflowId` | a success rule or `on-error` rule that runs an on-demand step calling the workflow, then ends the run |
/// | `requestBody` (`payload`, `replacements`) | a JSON, form or text body |
/// | step and workflow `outputs`, `inputs` | outputs and inputs |
///
/// An action's criteria read the response of the step, as flowrun's catch rules do. The actions defined on the
/// workflow apply to every step, after the step's own; a step's action of the same name replaces the workflow's.
struct ArazzoLowering {
    /// How many times a `goto` may run its target in one run, its first run included: Arazzo sets no limit, and
    /// flowrun bounds every loop.
    static let maxVisits = 100

    /// The checked document, with the operations its steps resolved to (local copies of sources, `--source`,
    /// were read by then) and the absolute paths of its sources.
    let checked: ArazzoCheck.Checked
    /// Server URLs by source name (`--server`): the base URL the source's operations are sent to instead of the
    /// first server of its OpenAPI document.
    let serverURLs: [String: String]
    var diagnostics: [Diagnostic] = []
    /// The outputs of the workflow being lowered's steps that run workflows, as ``outputAliases(of:)`` gives them.
    var aliases: [String: [String: String]] = [:]
    /// What the step being lowered sends, for `$method` and `$request.…` in its outputs and criteria: `method`,
    /// `query.<name>`, `header.<name>` (lower-case), `path.<name>`, `body`.
    var request: [String: ValueTemplate] = [:]
    /// The workflows the actions of the workflow being lowered go to (`goto` or `retry` with a `workflowId`): each
    /// is called by an on-demand step, added after the workflow's steps.
    var transfers: [Located<String>] = []
    /// The `dependsOn` entries of the workflow being lowered: a `retry` action that names one of them runs its
    /// `dependsOn-<id>` step again, so that `$workflows.<id>.outputs` reads what the new run gave.
    var dependencies: Set<String> = []

    init(_ checked: ArazzoCheck.Checked, serverURLs: [String: String] = [:]) {
        self.checked = checked
        self.serverURLs = serverURLs
    }

    var document: ArazzoDocument { checked.document }

    mutating func error(_ code: FlowError.Code, _ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.error, code, message, at: location))
    }

    /// The workflow `id` names, or the document's only workflow when `id` is `nil`.
    mutating func select(_ id: String?) -> ArazzoWorkflow? {
        let ids = document.workflows.map(\.id.value)
        if let id {
            if let found = document.workflows.first(where: { $0.id.value == id }) { return found }
            // At the first workflowId: where the workflows the message lists begin.
            error(.unknownReference,
                  "the document has no workflow '\(id)'\(Suggestion.didYouMean(id, in: ids)); its workflows: "
                      + ids.joined(separator: ", "),
                  at: document.workflows.first?.id.location ?? document.info.title.location)
            return nil
        }
        guard document.workflows.count == 1 else {
            error(.missingKey,
                  "the document has \(document.workflows.count) workflows; choose one with --workflow: "
                      + ids.joined(separator: ", "),
                  at: document.info.title.location)
            return nil
        }
        return document.workflows[0]
    }

    /// Lowers `workflow`.
    mutating func lower(_ arazzo: ArazzoWorkflow) -> Workflow {
        var workflow = Workflow(path: document.path)
        workflow.name = arazzo.id.value
        workflow.summary = arazzo.summary
        workflow.description = arazzo.description
        workflow.arazzoWorkflowID = arazzo.id.value
        for source in document.sources where source.type?.value != "arazzo" {
            guard let path = checked.sourcePaths[source.name.value] else { continue }
            workflow.openAPISources.append(OpenAPISource(name: source.name, path: Located(path, at: source.url.location)))
            if let url = serverURLs[source.name.value] {
                workflow.servers.append(
                    Server(name: Located(source.name.value, at: source.name.location), url: .literal(.string(url))))
            }
        }
        let inputs = mergedInputs(of: arazzo)
        if let inputs { workflow.inputs = inputSchema(inputs, types: &workflow.types) }
        transfers = []
        dependencies = Set(arazzo.dependsOn.map(\.value))
        let extensions = checked.extensions
        workflow.environment = extensions.environment
        workflow.interceptors = extensions.interceptors
        workflow.policies = extensions.policies
        aliases = Self.outputAliases(of: arazzo)
        let successActions = resolve(arazzo.successActions, in: \.successActions)
        let failureActions = resolve(arazzo.failureActions, in: \.failureActions)
        let workflowParameters = Self.resolve(arazzo.parameters, in: document)
        var previous: String?
        // The workflows it depends on run first, each as a step that calls it with the run's inputs it declares (the
        // run takes them: ``mergedInputs(of:)``); `$workflows.<id>.outputs.<name>` reads that step's outputs.
        for dependency in arazzo.dependsOn {
            guard var step = workflowCallStep(dependency, id: Self.dependencyStepID(dependency.value), passing: nil)
            else { continue }
            if let previous { step.after = [Located(previous, at: dependency.location)] }
            previous = step.id.value
            workflow.steps.append(step)
        }
        for arazzoStep in arazzo.steps {
            guard var step = lower(arazzoStep, of: arazzo, workflowParameters: workflowParameters) else { continue }
            if let previous { step.after = [Located(previous, at: arazzoStep.id.location)] }
            step.onSuccess = successRules(
                merging: resolve(arazzoStep.onSuccess, in: \.successActions), over: successActions, in: arazzoStep)
            // flowrun's own interceptors and policy, when the document opts into them (a step's over its workflow's).
            let chosen = extensions.steps[arazzo.id.value]?[arazzoStep.id.value]
            let defaults = extensions.workflows[arazzo.id.value]
            if step.call == nil {
                step.interceptors = chosen?.interceptors ?? defaults?.interceptors
                step.policy = chosen?.policy ?? defaults?.policy
            }
            failureRules(
                merging: resolve(arazzoStep.onFailure, in: \.failureActions), over: failureActions, into: &step,
                workflow: &workflow)
            previous = step.id.value
            workflow.steps.append(step)
        }
        // A workflow an action goes to is given the run's inputs of the names it declares.
        let runInputNames = Set(Self.inputNames(inputs, in: document))
        var added: Set<String> = []
        for called in transfers where added.insert(called.value).inserted {
            guard var step = workflowCallStep(called, id: Self.transferStepID(called.value), passing: runInputNames)
            else { continue }
            step.onDemand = true
            workflow.steps.append(step)
        }
        for (name, value) in arazzo.outputs {
            workflow.outputs.append(Binding(name: name, value: template(value)))
        }
        return workflow
    }

    // MARK: Steps

    mutating func lower(
        _ arazzoStep: ArazzoStep, of arazzo: ArazzoWorkflow, workflowParameters: [ArazzoParameter]
    ) -> Step? {
        let id = arazzoStep.id
        request = [:]
        let placeholder = Request(
            method: Located("GET", at: id.location), path: .literal(.string("/")), pathLocation: id.location)
        var step = Step(id: id, location: arazzoStep.location, request: placeholder)
        step.description = arazzoStep.description
        step.isArazzo = true
        switch arazzoStep.target {
        case .workflowID(let called)?:
            let parameters = Self.resolve(arazzoStep.parameters, in: document) + workflowParameters.filter { inherited in
                !arazzoStep.parameters.contains {
                    if case .object(let own) = $0 { own.name.value == inherited.name.value } else { false }
                }
            }
            guard let call = callOf(called, inputs: parameters.map { Binding(name: $0.name, value: template($0.value)) })
            else { return nil }
            step.call = call
            if !arazzoStep.successCriteria.isEmpty {
                diagnostics.append(Diagnostic(
                    .warning, .unsupported,
                    "step '\(id.value)' runs a workflow, which has no response of its own: its successCriteria are not "
                        + "evaluated; the step succeeds when the workflow does",
                    at: arazzoStep.successCriteria[0].location))
            }
            step.outputs = []
            return step
        case .operationID(let written)?, .operationPath(let written)?:
            guard let operation = checked.operations[ArazzoOperationCheck.key(arazzo.id.value, id.value)] else {
                if checked.sourcePaths.isEmpty || !document.sources.contains(where: { checked.sourcePaths[$0.name.value] != nil }) {
                    error(.unreadableFile,
                          "step '\(id.value)' calls an operation of a source flowrun could not read; give a local "
                              + "copy with --source NAME=PATH",
                          at: written.location)
                }
                return nil
            }
            let own = Self.resolve(arazzoStep.parameters, in: document)
            let inherited = workflowParameters.filter { parameter in
                !own.contains { $0.name.value == parameter.name.value && $0.placement?.value == parameter.placement?.value }
            }
            let parameters = own + inherited
            var call = OperationCall(
                reference: Located("\(operation.source)#\(operation.pointer)", at: written.location),
                parameters: parameters.map { Binding(name: $0.name, value: template($0.value)) },
                parametersLocation: id.location)
            call.arazzoPlacements = parameters.map { $0.placement?.value ?? "query" }
            if let body = arazzoStep.requestBody {
                call.body = requestBody(body, operationContentType: operation.contentType, at: id.location)
            }
            step.operation = call
            // What `$method` and `$request.…` read in the step's outputs and criteria: what it sends.
            request = ["method": .literal(.string(operation.method))]
            for (binding, placement) in zip(call.parameters, call.arazzoPlacements ?? []) {
                let name = placement == "header" ? binding.name.value.lowercased() : binding.name.value
                request["\(placement).\(name)"] = binding.value
            }
            switch call.body {
            case .json(let value, _)?, .text(let value, _, _)?: request["body"] = value
            case .form(let fields, _)?:
                request["body"] = .object(Dictionary(fields.map { ($0.name.value, $0.value) }) { first, _ in first })
            case .multipart?, nil: break
            }
        case nil:
            return nil
        }
        step.successCriteria = lowered(arazzoStep.successCriteria)
        step.outputs = arazzoStep.outputs.map { Binding(name: $0.name, value: template($0.value)) }
        return step
    }
}
