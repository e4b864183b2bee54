/// A compiled plan drawn as a graph: its steps as nodes, and what connects them as edges.
///
/// A `PlanGraph` is the renderer-independent picture of a ``Plan`` that `flowrun graph`
/// prints. ``mermaid()`` and ``dot()`` write it as Mermaid or Graphviz source; both read only
/// ``nodes`` and ``edges``, so another format needs nothing from the plan itself.
///
/// Every step is a node that shows its request, its interceptors in the order they run, its
/// policy and, when it is not `http`, its dispatcher. On-demand steps are nodes of their own
/// kind, since they run only when an interceptor, a catch or on-error rule or a compensation
/// runs them. An inline compensation request (`compensate: { request: … }`) is a
/// ``Node/Kind-swift.enum/compensation`` node of its own, titled with the id its report
/// carries (`<step>/compensate`). Two more nodes appear when the workflow needs them:
/// ``Node/Kind-swift.enum/outputs`` for the workflow's outputs (also where a rule's `end`
/// leads) and ``Node/Kind-swift.enum/anyStep`` for catch rules that name no step.
///
/// Edges say why one step comes after another, or may run another:
///
/// | ``Edge/Kind-swift.enum`` | from → to | label |
/// |---|---|---|
/// | ``Edge/Kind-swift.enum/data`` | the step whose outputs are read → the reader | the outputs read: `userId` |
/// | ``Edge/Kind-swift.enum/variable`` | a step that `set`s a var → a reader of the var | `$vars.quota` |
/// | ``Edge/Kind-swift.enum/after`` | a step named in `after` → the step | `after` |
/// | ``Edge/Kind-swift.enum/refresh`` | a step with a refresh interceptor → the on-demand step it runs | `401 → refresh` |
/// | ``Edge/Kind-swift.enum/catchRule`` | the failing step → where the rule goes | `catch 404 → fallback`, `on-error 5XX → goto` |
/// | ``Edge/Kind-swift.enum/compensation`` | a step that declares `compensate:` → what undoes it | `compensate` |
/// | ``Edge/Kind-swift.enum/switchCase`` | a `switch` step → each on-demand step it may run | the case keys: `DE, AT`, `default` |
/// | ``Edge/Kind-swift.enum/loop`` | a `repeat` or `paginate` step → itself | `until $response.body#/done == true, ≤ 30×`, `next: link, ≤ 100 pages` |
///
/// A `fallback` rule keeps the failing step's place in the run, so its edge loops back to the
/// step. A step's `on-error` rules are drawn like catch rules, labelled `on-error`; a `goto`
/// whose `maxVisits` is not the default says so (`goto (max 2 visits)`). A `switch` step shows
/// `switch: <value>` where other steps show their request. A `forEach` step shows
/// `for each <array>, N at a time` under its request, and a `workflow:` step is a
/// ``Node/Kind-swift.enum/workflowCall`` node that shows `workflow: <file>`. Nodes and edges come
/// in plan order, so the same plan always renders the same text.
///
/// ```swift
/// let plan = try WorkflowCompiler().compile(yaml: text, path: "banking.yaml")
/// print(PlanGraph(plan).mermaid())
/// ```
public struct PlanGraph: Sendable {
    /// One box of the graph: a step, the workflow's outputs, or the "any step" source of catch rules.
    public struct Node: Sendable, Hashable {
        /// What a ``Node`` stands for.
        public enum Kind: Sendable, Hashable {
            /// A step that runs as part of every run.
            case step
            /// A step that runs only when an interceptor, a catch or on-error rule, or a compensation runs it.
            case onDemandStep
            /// A `workflow:` step, which runs another workflow file: renderers draw it as a subroutine.
            case workflowCall
            /// A step's inline compensation request, sent only when the run fails after the step succeeded.
            case compensation
            /// Any step at all: the source of catch rules that name no step.
            case anyStep
            /// The workflow's outputs, where a successful run ends.
            case outputs
        }

        /// An identifier unique in the graph, made of ASCII letters, digits and `_`, and no keyword
        /// of Mermaid or DOT, so renderers can use it as it is.
        public var id: String
        /// What the node stands for.
        public var kind: Kind
        /// The step's id, or a name for the other kinds (`outputs`, `any step`); for an inline
        /// compensation, the id its report carries: `<step>/compensate`.
        public var title: String
        /// The lines shown under the title, such as `GET /user` and `policy: standard`.
        public var details: [String]
        /// The id of the step the node stands for (for an inline compensation, `<step>/compensate`,
        /// the id of its report); `nil` for the other kinds.
        public var stepID: String?

        /// Creates a node.
        /// - Parameters:
        ///   - id: An identifier unique in the graph, safe in every renderer.
        ///   - kind: What the node stands for.
        ///   - title: The first line of its label.
        ///   - details: The lines under the title.
        ///   - stepID: The step it stands for, if any.
        public init(id: String, kind: Kind, title: String, details: [String] = [], stepID: String? = nil) {
            self.id = id
            self.kind = kind
            self.title = title
            self.details = details
            self.stepID = stepID
        }
    }

    /// One arrow of the graph.
    public struct Edge: Sendable, Hashable {
        /// Why an ``Edge`` connects its nodes.
        public enum Kind: Sendable, Hashable {
            /// The target reads outputs of the source.
            case data
            /// The target reads a var that the source `set`s, so it waits for the source.
            case variable
            /// The target lists the source under `after`.
            case after
            /// A refresh interceptor of the source runs the on-demand target on the statuses it names.
            case refresh
            /// A catch rule, or an `on-error` rule of the source, handles a failure of the source by
            /// going to the target.
            case catchRule
            /// The target undoes the source (an on-demand step or an inline request) when the run
            /// fails after the source succeeded.
            case compensation
            /// The `switch` source runs the on-demand target in its place when its value matches one of the
            /// cases in the label (or none, for `default`).
            case switchCase
            /// An Arazzo success action of the source (`onSuccess`) continues at the target, or ends the run at the
            /// outputs, when the criteria in the label hold.
            case successAction
            /// A `repeat` or `paginate` step sends its request again (or fetches the next page): an edge from
            /// the step to itself, labelled with what ends the loop and its limit.
            case loop
        }

        /// The ``Node/id`` of the node the edge starts at.
        public var from: String
        /// The ``Node/id`` of the node the edge points to.
        public var to: String
        /// Why the edge exists.
        public var kind: Kind
        /// The text on the edge, such as `userId` or `401 → refresh`.
        public var label: String
        /// Whether the edge is followed only in some runs: refresh, catch, on-error, compensation,
        /// switch-case and loop edges, and edges that touch an on-demand step, a compensation or the
        /// "any step" node.
        /// Renderers draw it dashed.
        public var isConditional: Bool

        /// Creates an edge.
        /// - Parameters:
        ///   - from: The id of the node it starts at.
        ///   - to: The id of the node it points to.
        ///   - kind: Why it exists.
        ///   - label: The text on it.
        ///   - isConditional: Whether only some runs follow it.
        public init(from: String, to: String, kind: Kind, label: String, isConditional: Bool) {
            self.from = from
            self.to = to
            self.kind = kind
            self.label = label
            self.isConditional = isConditional
        }
    }

    /// The workflow's name, or the file's name without its extension when the workflow has none.
    public var name: String
    /// The nodes: the steps in plan order (regular steps, then on-demand steps), the inline
    /// compensation requests in the plan order of their steps, then the "any step" node and the
    /// outputs node when the workflow needs them.
    public var nodes: [Node]
    /// The edges, in a stable order: the ordering edges into each step in plan order, the
    /// refresh edges out of each step in plan order, the case edges out of each `switch` step in
    /// plan order (a case step once, labelled with all its keys), the edges into the outputs node, one edge
    /// per `on-error` rule (steps in plan order, rules in file order), one edge per catch rule in
    /// file order, then for each step with a compensation in plan order its `compensate` edge
    /// and the data edges into an inline compensation request.
    public var edges: [Edge]

    /// Creates a graph from its parts, for renderers' tests and graphs that come from elsewhere.
    /// - Parameters:
    ///   - name: The graph's name.
    ///   - nodes: The nodes.
    ///   - edges: The edges between them, by node id.
    public init(name: String, nodes: [Node], edges: [Edge]) {
        self.name = name
        self.nodes = nodes
        self.edges = edges
    }

    /// Draws a compiled plan.
    ///
    /// - Parameter plan: The plan to draw.
    public init(_ plan: Plan) {
        var builder = Builder(plan: plan)
        builder.build()
        self.init(name: Self.name(of: plan.workflow), nodes: builder.nodes, edges: builder.edges)
    }

    /// The node that stands for a step.
    /// - Parameter stepID: A step id.
    /// - Returns: The node, or `nil` when the plan has no such step.
    public func node(forStep stepID: String) -> Node? {
        nodes.first { $0.stepID == stepID }
    }

    /// The node with the given identifier.
    /// - Parameter id: A ``Node/id``.
    /// - Returns: The node, or `nil` when the graph has none with that identifier.
    public func node(id: String) -> Node? {
        nodes.first { $0.id == id }
    }

    private static func name(of workflow: Workflow) -> String {
        if let name = workflow.name, !name.isEmpty { return name }
        let file = workflow.path.split(separator: "/").last.map(String.init) ?? workflow.path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}

// MARK: Building

extension PlanGraph {
    /// Builds nodes and edges from a plan in one pass over its steps, outputs and catch rules.
    private struct Builder {
        let plan: Plan
        var nodes: [Node] = []
        var edges: [Edge] = []
        /// Node ids by step id.
        private var stepNodes: [String: String] = [:]
        private var usedIdentifiers: Set<String> = []
        /// The kind of each node, by node id: edges look it up for every step, so a scan of ``nodes`` would
        /// make drawing quadratic in the number of steps.
        private var nodeKinds: [String: Node.Kind] = [:]

        init(plan: Plan) {
            self.plan = plan
        }

        mutating func build() {
            for planned in plan.steps {
                let id = uniqueIdentifier(for: planned.id)
                stepNodes[planned.id] = id
                let kind: Node.Kind = planned.step.onDemand ? .onDemandStep
                    : planned.step.call != nil ? .workflowCall : .step
                append(Node(
                    id: id, kind: kind, title: planned.id,
                    details: Self.details(of: planned, in: plan), stepID: planned.id))
            }
            // Inline compensation requests: planned steps of their own that only the plan's `compensations` holds.
            var compensationNodes: [String: String] = [:]
            for planned in plan.steps {
                guard case .request? = planned.step.compensation, let undo = plan.compensations[planned.id] else {
                    continue
                }
                let id = uniqueIdentifier(for: undo.id)
                compensationNodes[planned.id] = id
                append(Node(
                    id: id, kind: .compensation, title: undo.id, details: Self.details(of: undo, in: plan),
                    stepID: undo.id))
            }
            let workflow = plan.workflow
            let anyStepNode: String? = if workflow.catchRules.contains(where: { $0.step == nil }) {
                addNode(kind: .anyStep, identifier: "any_step", title: "any step", details: [])
            } else {
                nil
            }
            let ends = workflow.catchRules.contains { if case .end = $0.action { true } else { false } }
            let outputsNode: String? = if !workflow.outputs.isEmpty || ends {
                addNode(
                    kind: .outputs, identifier: "outputs", title: "outputs",
                    details: workflow.outputs.isEmpty ? [] : [workflow.outputs.map(\.name.value).joined(separator: ", ")])
            } else {
                nil
            }

            for planned in plan.steps { addOrderingEdges(into: planned) }
            for planned in plan.steps { addRefreshEdges(from: planned) }
            for planned in plan.steps { addSwitchEdges(from: planned) }
            for planned in plan.steps { addLoopEdge(of: planned) }
            if let outputsNode {
                for (source, names) in Self.stepOutputReads(in: workflow.outputs.map(\.value)) {
                    addEdge(from: stepNodes[source], to: outputsNode, .data, names.joined(separator: ", "))
                }
            }
            // A step's own rules come first: the engine tries them before the workflow's `catch`.
            for planned in plan.steps {
                for rule in planned.step.onError {
                    addRuleEdge(rule, from: stepNodes[planned.id], prefix: "on-error", outputsNode: outputsNode)
                }
            }
            for planned in plan.steps {
                for rule in planned.step.onSuccess {
                    let on = "on success" + Self.describe(rule.criteria)
                    switch rule.action {
                    case .goto(let target):
                        addEdge(from: stepNodes[planned.id], to: stepNodes[target.value], .successAction, "\(on) → goto")
                    case .end:
                        addEdge(from: stepNodes[planned.id], to: outputsNode, .successAction, "\(on) → end")
                    case .run(let handler):
                        addEdge(from: stepNodes[planned.id], to: stepNodes[handler.value], .successAction, "\(on) → goto")
                    }
                }
            }
            for rule in workflow.catchRules {
                let source = rule.step.map { stepNodes[$0.value] } ?? anyStepNode
                addRuleEdge(rule, from: source, prefix: "catch", outputsNode: outputsNode)
            }
            for planned in plan.steps {
                switch planned.step.compensation {
                case .step(let target)?:
                    addEdge(from: stepNodes[planned.id], to: stepNodes[target.value], .compensation, "compensate")
                case .request(let request, _)?:
                    guard let node = compensationNodes[planned.id] else { continue }
                    addEdge(from: stepNodes[planned.id], to: node, .compensation, "compensate")
                    // What the request reads of the compensated step is implied by the `compensate` edge.
                    for (source, names) in Self.stepOutputReads(in: request.templates)
                    where source != planned.id {
                        addEdge(from: stepNodes[source], to: node, .data, names.joined(separator: ", "))
                    }
                case nil:
                    break
                }
            }
        }

        /// Adds the edge of one catch or `on-error` rule whose failing step (or "any step") is `source`.
        private mutating func addRuleEdge(_ rule: CatchRule, from source: String?, prefix: String, outputsNode: String?) {
            let on = Self.describe(rule.when, prefix: prefix)
            switch rule.action {
            case .fallback:
                addEdge(from: source, to: source, .catchRule, "\(on) → fallback")
            case .goto(let target):
                let limit = rule.maxVisits == CatchRule.defaultMaxVisits ? "" : " (max \(rule.maxVisits) visits)"
                addEdge(from: source, to: stepNodes[target.value], .catchRule, "\(on) → goto\(limit)")
            case .run(let target, let then):
                addEdge(from: source, to: stepNodes[target.value], .catchRule, "\(on) → run, then \(then.rawValue)")
            case .end:
                addEdge(from: source, to: outputsNode, .catchRule, "\(on) → end")
            case .fail:
                addEdge(from: source, to: outputsNode, .catchRule, "\(on) → end, failed")
            }
        }

        /// Adds the edges for everything a step waits for: the outputs it reads, the vars it
        /// reads that other steps `set`, and its `after` list, in the order of its dependencies.
        private mutating func addOrderingEdges(into planned: PlannedStep) {
            let step = planned.step
            let templates = Self.templates(of: step)
            let dataReads = Self.stepOutputReads(in: templates)
            let readVars = Set(templates.flatMap(\.expressions).compactMap { expression, _ -> String? in
                if case .variable(let name) = expression.source { name } else { nil }
            })
            let after = Set(step.after.map(\.value))
            let target = stepNodes[planned.id]

            var sources: [String] = []
            for id in planned.dependencies + dataReads.map(\.step) + step.after.map(\.value)
            where !sources.contains(id) {
                sources.append(id)
            }
            for source in sources {
                let from = stepNodes[source]
                var drawn = false
                if let names = dataReads.first(where: { $0.step == source })?.names {
                    drawn = addEdge(from: from, to: target, .data, names.joined(separator: ", "))
                }
                // The compiler orders readers of a var after every regular step that sets it.
                let setVars = plan.step(source).map { setter in
                    setter.step.onDemand ? [] : setter.step.set.map(\.name.value).filter(readVars.contains)
                } ?? []
                if source != planned.id, !setVars.isEmpty {
                    let label = Self.uniqued(setVars).map { "$vars.\($0)" }.joined(separator: ", ")
                    drawn = addEdge(from: from, to: target, .variable, label) || drawn
                }
                if after.contains(source) || !drawn {
                    addEdge(from: from, to: target, .after, "after")
                }
            }
        }

        /// Adds an edge to the on-demand step of each refresh interceptor around a step.
        private mutating func addRefreshEdges(from planned: PlannedStep) {
            for interceptor in planned.interceptors {
                guard case .refresh(let statuses, let refreshStep) = interceptor.kind else { continue }
                let on = statuses.map(String.init).joined(separator: ", ")
                addEdge(
                    from: stepNodes[planned.id], to: stepNodes[refreshStep.value], .refresh,
                    on.isEmpty ? "refresh" : "\(on) → refresh")
            }
        }

        /// Adds an edge from a `switch` step to each step it may run, labelled with the case keys that run it.
        private mutating func addSwitchEdges(from planned: PlannedStep) {
            guard let setting = planned.step.switch else { return }
            for target in setting.stepIDs {
                addEdge(
                    from: stepNodes[planned.id], to: stepNodes[target], .switchCase,
                    setting.keys(runningStep: target).joined(separator: ", "))
            }
        }

        /// Adds the edge from a `repeat` or `paginate` step to itself: what ends the loop and its limit.
        private mutating func addLoopEdge(of planned: PlannedStep) {
            let node = stepNodes[planned.id]
            if let repetition = planned.step.repetition {
                let stop = repetition.stop
                addEdge(from: node, to: node, .loop, "\(stop.key) \(stop.condition.text), ≤ \(repetition.maxIterations)×")
            } else if let pagination = planned.step.pagination {
                let next = switch pagination.next {
                case .link: "link"
                case .value(let expression, let param?): "\(expression) as ?\(param.value)="
                case .value(let expression, nil): "\(expression)"
                case .page(let param): "page number in ?\(param.value)="
                }
                addEdge(from: node, to: node, .loop, "next: \(next), ≤ \(pagination.maxPages) pages")
            }
        }

        /// Adds an edge between two nodes when both exist, and says whether it did.
        @discardableResult
        private mutating func addEdge(from: String?, to: String?, _ kind: Edge.Kind, _ label: String) -> Bool {
            guard let from, let to else { return false }
            let conditional = kind == .refresh || kind == .catchRule || kind == .compensation || kind == .switchCase
                || kind == .loop || kind == .successAction
                || [from, to].contains { id in
                    nodeKinds[id].map { [.onDemandStep, .anyStep, .compensation].contains($0) } ?? false
                }
            edges.append(Edge(from: from, to: to, kind: kind, label: label, isConditional: conditional))
            return true
        }

        private mutating func append(_ node: Node) {
            nodes.append(node)
            nodeKinds[node.id] = node.kind
        }

        private mutating func addNode(kind: Node.Kind, identifier: String, title: String, details: [String]) -> String {
            let id = uniqueIdentifier(for: identifier)
            append(Node(id: id, kind: kind, title: title, details: details))
            return id
        }

        /// Makes a name into an identifier no other node has, that no renderer reads as a keyword.
        ///
        /// Step ids are letters, digits, `_` and `-`; Mermaid reads `-` as part of an arrow, so it
        /// becomes `_`, and `a-b` and `a_b` are told apart by a numeric suffix.
        private mutating func uniqueIdentifier(for name: String) -> String {
            var base = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
            if base.isEmpty || base.first!.isNumber || Self.keywords.contains(base.lowercased()) {
                base = "step_" + base
            }
            var candidate = base
            var suffix = 2
            while usedIdentifiers.contains(candidate) {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            usedIdentifiers.insert(candidate)
            return candidate
        }

        /// Words Mermaid's flowchart grammar or DOT reserve, which a node id must not be.
        private static let keywords: Set<String> = [
            "end", "graph", "flowchart", "subgraph", "style", "class", "classdef", "click", "linkstyle", "call",
            "href", "direction", "default", "node", "edge", "digraph", "strict",
        ]

        // MARK: Reading the plan

        /// The lines a step's node shows under its id.
        private static func details(of planned: PlannedStep, in plan: Plan) -> [String] {
            let request = planned.step.request
            // A `workflow:` or `switch` step sends nothing itself: its node names the file it runs or the value
            // it switches on.
            var lines = [planned.step.call.map { "workflow: \($0.path.value)" }
                ?? planned.step.switch.map { "switch: \($0.value)" }
                ?? "\(request.method.value) \(text(of: request.path))"]
            if let forEach = planned.step.forEach {
                lines.append("for each \(forEach.items), \(forEach.maxConcurrency) at a time")
            }
            if let condition = planned.step.condition { lines.append("if: \(condition.text)") }
            if !planned.interceptors.isEmpty {
                lines.append("interceptors: " + planned.interceptors.map(\.name.value).joined(separator: " → "))
            }
            if let policy = planned.policy {
                // What applies to this step, as `flowrun lint --explain` works it out: a POST that is never
                // retried makes one attempt whatever its policy's rules say.
                var traits: [String] = []
                let worst = PolicyAnalysis.worstCase(of: planned, in: plan, asRefresh: planned.step.onDemand)
                switch worst.attemptLimit {
                case .noRetries: break
                case .notIdempotent: traits.append("1 attempt: not idempotent")
                case .retryRules, .totalTimeout: traits.append("up to \(worst.loop?.attempts ?? worst.attempts) attempts")
                }
                if policy.circuitBreaker != nil { traits.append("circuit breaker") }
                lines.append("policy: \(policy.name.value)" + (traits.isEmpty ? "" : " (\(traits.joined(separator: ", ")))"))
            }
            if planned.dispatcher != "http" && planned.subWorkflow == nil {
                lines.append("dispatcher: \(planned.dispatcher)")
            }
            return lines
        }

        /// A request path as the workflow wrote it, expressions in braces.
        private static func text(of path: ValueTemplate) -> String {
            switch path {
            case .literal(.string(let text)): text
            case .literal(let value): "\(value)"
            case .expression(let expression, _): "{\(expression)}"
            case .string(let template, _): template.description
            case .array, .object: ""
            }
        }

        /// Every template of a step that may read another step's outputs or a var, which are
        /// exactly the ones the compiler records dependencies for.
        private static func templates(of step: Step) -> [ValueTemplate] {
            let inputs: [ValueTemplate] = step.call?.inputs.map(\.value) ?? []
            return step.request.templates + step.outputs.map(\.value) + step.set.map(\.value) + inputs
                + (step.switch.map { [.expression($0.value, $0.location)] } ?? [])
                + (step.forEach.map { [.expression($0.items, $0.location)] } ?? [])
                + (step.condition.map { [.expression($0.expression, $0.location)] } ?? [])
        }

        /// The step outputs that templates read, grouped by step in first-mention order.
        private static func stepOutputReads(in templates: [ValueTemplate]) -> [(step: String, names: [String])] {
            var reads: [(step: String, names: [String])] = []
            for template in templates {
                for (expression, _) in template.expressions {
                    guard case .stepOutput(let step, let output) = expression.source else { continue }
                    if let index = reads.firstIndex(where: { $0.step == step }) {
                        if !reads[index].names.contains(output) { reads[index].names.append(output) }
                    } else {
                        reads.append((step, [output]))
                    }
                }
            }
            return reads
        }

        /// `catch` (or `on-error`), then the statuses and error kinds a rule matches: `catch 404`,
        /// `on-error 5XX, timeout`.
        private static func describe(_ matcher: ErrorMatcher, prefix: String) -> String {
            // An Arazzo failure action handles every kind of failure its criteria hold for: they say what it is.
            if !matcher.criteria.isEmpty { return prefix + describe(matcher.criteria) }
            let parts = matcher.statuses.map(\.value.description) + matcher.kinds.map(\.value)
            return parts.isEmpty ? prefix : prefix + " " + parts.joined(separator: ", ")
        }

        /// Arazzo criteria as a label's condition: ` if $statusCode == 409`, several joined by `and`.
        private static func describe(_ criteria: [Located<ArazzoCriterion>]) -> String {
            guard !criteria.isEmpty else { return "" }
            return " if " + criteria.map { criterion in
                criterion.value.context.map { "\(criterion.value.condition) (\($0))" } ?? criterion.value.condition
            }.joined(separator: " and ")
        }

        private static func uniqued(_ names: [String]) -> [String] {
            var seen: Set<String> = []
            return names.filter { seen.insert($0).inserted }
        }
    }
}
