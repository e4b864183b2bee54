/// flowrun's specification extensions in an Arazzo document: what a document opts into beyond Arazzo's own
/// semantics, in flowrun's own syntax.
///
/// | Where | Extension | What |
/// |---|---|---|
/// | the document | `x-flowrun-env` | environment variables `$env.NAME` may read, as a workflow's `env:` |
/// | the document | `x-flowrun-interceptors` | named interceptors, as a workflow's `interceptors:` |
/// | the document | `x-flowrun-policies` | named error policies, as a workflow's `policies:` |
/// | a workflow, a step | `x-flowrun-interceptors` | the interceptors around each call (a step's replace its workflow's) |
/// | a workflow, a step | `x-flowrun-policy` | the policy of each call (a step's replaces its workflow's) |
///
/// Any other `x-flowrun…` key is an error with a suggestion; other `x-…` keys are the document's own business.
struct ArazzoExtensions {
    /// What a workflow or a step asks for.
    struct Choice {
        var interceptors: [Located<String>]?
        var policy: Located<String>?
    }

    var environment: [EnvironmentVariable] = []
    var interceptors: [InterceptorDeclaration] = []
    var policies: [Policy] = []
    /// By workflow id.
    var workflows: [String: Choice] = [:]
    /// By workflow id, then step id.
    var steps: [String: [String: Choice]] = [:]
    private(set) var diagnostics: [Diagnostic] = []

    static let documentKeys = ["x-flowrun-env", "x-flowrun-interceptors", "x-flowrun-policies"]
    static let choiceKeys = ["x-flowrun-interceptors", "x-flowrun-policy"]

    /// Reads the extensions of the Arazzo document whose root node is `root`.
    init(_ root: YAMLNode) {
        var decoder = WorkflowDecoder()
        let top = root.mapping ?? []
        check(top, allowed: Self.documentKeys, where: "the document")
        if let node = Self.member("x-flowrun-env", of: top) { environment = decoder.environment(node) }
        if let node = Self.member("x-flowrun-interceptors", of: top) { interceptors = decoder.interceptors(node) }
        if let node = Self.member("x-flowrun-policies", of: top) { policies = decoder.policies(node) }
        for workflow in Self.member("workflows", of: top)?.sequence ?? [] {
            let fields = workflow.mapping ?? []
            guard let id = Self.text(Self.member("workflowId", of: fields)) else { continue }
            check(fields, allowed: Self.choiceKeys, where: "a workflow")
            workflows[id] = Self.choice(fields, decoder: &decoder)
            for step in Self.member("steps", of: fields)?.sequence ?? [] {
                let stepFields = step.mapping ?? []
                guard let stepID = Self.text(Self.member("stepId", of: stepFields)) else { continue }
                check(stepFields, allowed: Self.choiceKeys, where: "a step")
                steps[id, default: [:]][stepID] = Self.choice(stepFields, decoder: &decoder)
            }
        }
        diagnostics += decoder.diagnostics
    }

    private static func choice(_ fields: [YAMLPair], decoder: inout WorkflowDecoder) -> Choice {
        Choice(
            interceptors: member("x-flowrun-interceptors", of: fields).map {
                decoder.nameList($0, "'x-flowrun-interceptors'")
            },
            policy: member("x-flowrun-policy", of: fields).flatMap { decoder.string($0, "'x-flowrun-policy'") })
    }

    /// Reports each `x-flowrun…` key of `fields` that is not one of `allowed`.
    private mutating func check(_ fields: [YAMLPair], allowed: [String], where place: String) {
        for pair in fields {
            guard case .string(let key)? = pair.key.scalar?.value, key.hasPrefix("x-flowrun"), !allowed.contains(key)
            else { continue }
            let others = Self.documentKeys + Self.choiceKeys
            let placed = others.contains(key) ? "; on \(place) flowrun reads \(allowed.joined(separator: ", "))"
                : Suggestion.didYouMean(key, in: allowed)
            diagnostics.append(Diagnostic(
                .error, .unknownKey, "unknown flowrun extension '\(key)' on \(place)\(placed)", at: pair.key.location))
        }
    }

    private static func member(_ key: String, of fields: [YAMLPair]) -> YAMLNode? {
        fields.first { $0.key.scalar?.value == .string(key) }?.value
    }

    private static func text(_ node: YAMLNode?) -> String? {
        if case .string(let text)? = node?.scalar?.value { text } else { nil }
    }
}
