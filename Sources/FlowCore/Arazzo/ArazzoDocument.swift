/// An Arazzo 1.0.x document, decoded with the location of everything in it (``ArazzoDecoder``).
///
/// Values that a run computes (parameter values, payloads, outputs) stay YAML nodes: the front end reads their
/// runtime expressions with Arazzo's grammar (``ArazzoExpression``) and lowers them into flowrun's plan.
package struct ArazzoDocument: Sendable {
    /// The path of the file.
    package var path: String
    /// `arazzo`: the specification version, `1.0.0` or `1.0.1`.
    package var version: Located<String>
    package var info: Info
    /// `sourceDescriptions`, in document order.
    package var sources: [Source] = []
    /// `workflows`, in document order.
    package var workflows: [ArazzoWorkflow] = []
    package var components = Components()

    /// `info`.
    package struct Info: Sendable {
        package var title: Located<String>
        package var version: Located<String>
        package var summary: String?
        package var description: String?
    }

    /// A source description: an OpenAPI or Arazzo document the workflows call.
    package struct Source: Sendable {
        package var name: Located<String>
        /// The document's URL as written: a path relative to this file, or a remote URL.
        package var url: Located<String>
        /// `type`: `openapi` or `arazzo`; `nil` when omitted.
        package var type: Located<String>?
    }

    /// `components`: the reusable parts, by name, in document order.
    package struct Components: Sendable {
        /// JSON Schemas for workflow inputs, which `$ref: '#/components/inputs/<name>'` names.
        package var inputs: [(name: Located<String>, schema: YAMLNode)] = []
        package var parameters: [(name: Located<String>, parameter: ArazzoParameter)] = []
        package var successActions: [(name: Located<String>, action: ArazzoAction)] = []
        package var failureActions: [(name: Located<String>, action: ArazzoAction)] = []
    }

    /// The workflow with id `id`.
    package func workflow(_ id: String) -> ArazzoWorkflow? {
        workflows.first { $0.id.value == id }
    }
}

/// A workflow of an Arazzo document.
package struct ArazzoWorkflow: Sendable {
    package var id: Located<String>
    package var summary: String?
    package var description: String?
    /// `inputs`: a JSON Schema node.
    package var inputs: YAMLNode?
    /// `dependsOn`: workflow ids, or `$sourceDescriptions.<name>.<workflowId>` expressions.
    package var dependsOn: [Located<String>] = []
    package var steps: [ArazzoStep] = []
    package var successActions: [ArazzoReusable<ArazzoAction>] = []
    package var failureActions: [ArazzoReusable<ArazzoAction>] = []
    /// `outputs`: names and runtime expressions, in document order.
    package var outputs: [(name: Located<String>, value: YAMLNode)] = []
    package var parameters: [ArazzoReusable<ArazzoParameter>] = []
    /// Where the workflow's mapping starts.
    package var location: SourceLocation

    /// The step with id `id`.
    package func step(_ id: String) -> ArazzoStep? {
        steps.first { $0.id.value == id }
    }
}

/// A step of an Arazzo workflow: a call of an operation, or of another workflow.
package struct ArazzoStep: Sendable {
    /// What a step calls.
    package enum Target: Sendable {
        /// `operationId`: an operation id, or `$sourceDescriptions.<name>.<operationId>`.
        case operationID(Located<String>)
        /// `operationPath`: `{$sourceDescriptions.<name>.url}#<JSON pointer to an operation>`.
        case operationPath(Located<String>)
        /// `workflowId`: a workflow of this document, or `$sourceDescriptions.<name>.<workflowId>`.
        case workflowID(Located<String>)
    }

    package var id: Located<String>
    package var description: String?
    /// What it calls; `nil` only in a document with errors.
    package var target: Target?
    package var parameters: [ArazzoReusable<ArazzoParameter>] = []
    package var requestBody: ArazzoRequestBody?
    package var successCriteria: [Located<ArazzoCriterion>] = []
    package var onSuccess: [ArazzoReusable<ArazzoAction>] = []
    package var onFailure: [ArazzoReusable<ArazzoAction>] = []
    /// `outputs`: names and runtime expressions, in document order.
    package var outputs: [(name: Located<String>, value: YAMLNode)] = []
    /// Where the step's mapping starts.
    package var location: SourceLocation
}

/// A parameter of a step or workflow.
package struct ArazzoParameter: Sendable {
    package var name: Located<String>
    /// `in`: `path`, `query`, `header` or `cookie`; omitted for a step that calls a workflow.
    package var placement: Located<String>?
    /// The value: a constant, a runtime expression, or a string with `{$…}` expressions embedded.
    package var value: YAMLNode
}

/// An item of a list that may hold an object or a reference to one in `components`.
package enum ArazzoReusable<Object: Sendable>: Sendable {
    case object(Object)
    /// `reference: $components.<section>.<name>`, and for a parameter an optional `value` that replaces its own.
    case reference(Located<String>, value: YAMLNode?)
}

/// A success or failure action.
package struct ArazzoAction: Sendable {
    /// What the action does.
    package enum Kind: String, Sendable {
        case end, goto, retry
    }

    package var name: Located<String>
    package var kind: Located<Kind>
    /// `workflowId`: where a `goto` goes, or the workflow a `retry` runs first.
    package var workflowID: Located<String>?
    /// `stepId`: where a `goto` goes, or the step a `retry` runs first.
    package var stepID: Located<String>?
    /// `retryAfter`: seconds to wait before a retry.
    package var retryAfter: Located<Double>?
    /// `retryLimit`: how many retries at most; one when omitted.
    package var retryLimit: Located<Int>?
    /// `criteria`: all must hold for the action to be taken.
    package var criteria: [Located<ArazzoCriterion>] = []
    /// Where the action's mapping starts.
    package var location: SourceLocation
}

/// `requestBody` of a step.
package struct ArazzoRequestBody: Sendable {
    package var contentType: Located<String>?
    package var payload: YAMLNode?
    /// `replacements`: a JSON pointer into the payload and the value to put there, in order.
    package var replacements: [(target: Located<JSONPointer>, value: YAMLNode)] = []
}
