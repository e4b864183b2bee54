public import FlowCore

extension WorkflowTestFile {
    /// Checks the file against the workflow it tests, returning an error for every expectation or stub that cannot
    /// be right.
    ///
    /// - An output under `outputs` or `outputs-exact` that the workflow does not declare (an `end` rule can
    ///   only set declared outputs).
    /// - A step, under `outcome.failure.step`, `attempts`, `iterations`, `items`, `steps` or a call's `step`,
    ///   that the workflow lacks (`attempts` and a call's `step` may also name a step of a called workflow),
    ///   with a suggestion among the names the key takes; under `iterations` a step without `repeat` or
    ///   `paginate` (a `switch` step counts when one of its case steps has one), under `items` one without
    ///   `forEach`.
    /// - A case step of a `switch` under `attempts`, `iterations`, `items`, `steps` or a call's `step`: it has no
    ///   report of its own, its attempts and requests are the switch step's, so the error suggests the switch step.
    ///   (A case step is on-demand, which no `forEach` step can be, so a switch step has no items to count.)
    /// - A stub written in this file that no request of the workflow can reach: in no case that has
    ///   it do its method and path pattern match a step's method and path template. A template's
    ///   `{$…}` segment matches any segment; a server URL is read with the case's `env` and `inputs`,
    ///   and one that reads anything else may add any path prefix; a `paginate` step that follows next-page
    ///   URLs (`next: link`, or an expression without `param`) may send its method to any path. So a stub is
    ///   reported only when no request could match it. Stubs of `mock:` files are not checked: a stub file may
    ///   serve several workflows.
    ///
    /// - Parameter plan: The compiled workflow.
    /// - Returns: The problems, in file order.
    public func lint(against plan: Plan) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        // A catch rule's `end` may only set declared outputs (the compiler checks), so these are all there are.
        let outputs = plan.workflow.outputs.map(\.name.value)
        let steps = plan.steps.map(\.id) + plan.compensations.values.map(\.id)
        // A call's `step` may also name a step of a workflow that a `workflow:` step calls: it sent the request.
        let calledSteps = Self.requestSteps(of: plan, called: false).filter(\.called).map(\.step.id)
        // The switch steps that run each case step, which has no report of its own: they report its attempts.
        var switches: [String: [String]] = [:]
        for planned in plan.steps {
            guard let choice = planned.step.switch else { continue }
            for step in Set(choice.cases.map(\.step.value) + [choice.fallback?.value].compactMap { $0 }) {
                switches[step, default: []].append(planned.id)
            }
        }
        func checkStep(_ step: Located<String>, orCalled: Bool = false, orCase: Bool = true) {
            if !orCase, let owners = switches[step.value] {
                let names = owners.map { "'\($0)'" }.joined(separator: " or ")
                diagnostics.append(Diagnostic(
                    .error, .unknownStep,
                    "step '\(step.value)' has no report of its own: it runs as a case of switch step \(names), "
                        + "which sends its requests and counts its attempts; did you mean \(names)?",
                    at: step.location))
                return
            }
            guard !steps.contains(step.value), !(orCalled && calledSteps.contains(step.value)) else { return }
            let candidates = orCalled ? steps + calledSteps : steps
            diagnostics.append(Diagnostic(
                .error, .unknownStep,
                "the workflow has no step '\(step.value)'\(Suggestion.didYouMean(step.value, in: candidates))",
                at: step.location))
        }
        // Whether a step counts iterations: it repeats or paginates, or it is a switch step and one of its case
        // steps does (the switch step reports the case it ran, iterations included).
        func loops(_ planned: PlannedStep) -> Bool {
            guard let choice = planned.step.switch else {
                return planned.step.repetition != nil || planned.step.pagination != nil
            }
            return (choice.cases.map(\.step.value) + [choice.fallback?.value].compactMap { $0 }).contains {
                guard let step = plan.step($0)?.step else { return false }
                return step.repetition != nil || step.pagination != nil
            }
        }
        for testCase in cases {
            let expectation = testCase.expectation
            if let expected = expectation.outputs {
                for name in expected.values.keys.sorted() where !outputs.contains(name) {
                    let message = outputs.isEmpty
                        ? "the workflow has no outputs, so it cannot produce '\(name)'"
                        : "the workflow has no output '\(name)'\(Suggestion.didYouMean(name, in: outputs))"
                    diagnostics.append(Diagnostic(
                        .error, .unknownReference, message, at: expected.locations[name] ?? testCase.location))
                }
            }
            if case .failure(let failure) = expectation.outcome, let step = failure.step { checkStep(step) }
            expectation.attempts.keys.forEach { checkStep($0, orCalled: true, orCase: false) }
            for step in expectation.iterations.keys {
                checkStep(step, orCase: false)
                if switches[step.value] == nil, let planned = plan.step(step.value), !loops(planned) {
                    diagnostics.append(Diagnostic(
                        .error, .invalidValue,
                        "step '\(step.value)' has no 'repeat' or 'paginate', so it has no iterations to count",
                        at: step.location))
                }
            }
            for step in expectation.items.keys {
                checkStep(step, orCase: false)
                if switches[step.value] == nil, let planned = plan.step(step.value), planned.step.forEach == nil {
                    diagnostics.append(Diagnostic(
                        .error, .invalidValue, "step '\(step.value)' has no 'forEach', so it has no items to count",
                        at: step.location))
                }
            }
            expectation.steps.keys.forEach { checkStep($0, orCase: false) }
            for call in expectation.calls ?? [] { call.step.map { checkStep($0, orCalled: true, orCase: false) } }
        }
        diagnostics += unreachableStubs(plan)
        func place(_ diagnostic: Diagnostic) -> (Int, Int) {
            (diagnostic.location?.line ?? 0, diagnostic.location?.column ?? 0)
        }
        return diagnostics.sorted { place($0) < place($1) }
    }

    /// The stubs written in this file (not in a `mock:` file) that no request of the workflow can match.
    ///
    /// A stub is reachable when, in some case that has it, some step's request can match it: the
    /// case's `env` and `inputs` give the server URLs, so their path prefixes are known.
    private func unreachableStubs(_ plan: Plan) -> [Diagnostic] {
        let steps = Self.requestSteps(of: plan, called: false)
        var reachable = Set<SourceLocation>()
        var unreached: [(stub: MockStub, shapes: [RequestShape])] = []
        for testCase in cases {
            // A called workflow's server URLs read its own inputs, which the case does not give.
            let shapes = steps.map {
                RequestShape($0.step, environment: testCase.environment, inputs: $0.called ? [:] : testCase.inputs)
            }
            for stub in testCase.stubs.stubs {
                guard let location = stub.location, location.path == path, !reachable.contains(location) else {
                    continue
                }
                let pattern = stub.match.path.map(PathPattern.init)
                if shapes.contains(where: { $0.canMatch(method: stub.match.method, path: pattern) }) {
                    reachable.insert(location)
                    unreached.removeAll { $0.stub.location == location }
                } else if !unreached.contains(where: { $0.stub.location == location }) {
                    unreached.append((stub, shapes))
                }
            }
        }
        return unreached.map { stub, shapes in
            let label = stub.name.map { "stub '\($0)'" } ?? "this stub"
            let request = (stub.match.method ?? "any method") + " " + (stub.match.path ?? "any path")
            let sent = shapes.prefix(8).map(\.description).joined(separator: ", ") + (shapes.count > 8 ? ", …" : "")
            return Diagnostic(
                .error, .unreachable,
                "\(label) can never answer: no step of the workflow sends \(request); the steps send \(sent)",
                at: stub.location)
        }
    }
}

extension WorkflowTestFile {
    /// The steps of `plan` that send requests, with those of the workflows its `workflow:` steps call (`called`).
    fileprivate static func requestSteps(of plan: Plan, called: Bool) -> [(step: PlannedStep, called: Bool)] {
        let steps = plan.steps + plan.compensations.keys.sorted().compactMap { plan.compensations[$0] }
        return steps.flatMap { planned in
            planned.subWorkflow.map { requestSteps(of: $0, called: true) } ?? [(planned, called)]
        }
    }
}

/// The requests a step can send, as far as they are known before a run: the method and the shape of the path.
struct RequestShape {
    /// One segment of a path template.
    enum Segment: Equatable {
        /// Text written in the workflow, percent-decoded.
        case literal(String)
        /// A segment with a `{$…}` expression in it: any one segment.
        case variable
    }

    let method: String
    /// Whether an unknown prefix (a server URL read at run time) comes before ``segments``.
    let anyPrefix: Bool
    /// The path's segments; `nil` when the whole path is read at run time, so it can be anything.
    let segments: [Segment]?
    /// Whether the step also follows next-page URLs that a response gives (a `Link` header, or a `paginate`
    /// expression without `param`): those pages may be at any path of the server, whatever ``segments`` say.
    let followsNextPages: Bool

    /// - Parameters:
    ///   - planned: The step.
    ///   - environment: The `$env` values a server URL may read.
    ///   - inputs: The inputs a server URL may read.
    init(_ planned: PlannedStep, environment: [String: String], inputs: [String: JSONValue]) {
        method = planned.step.request.method.value
        switch planned.step.pagination?.next {
        case .link, .value(_, param: nil): followsNextPages = true
        default: followsNextPages = false
        }
        guard let path = Self.text(of: planned.step.request.path) else {
            anyPrefix = true
            segments = nil
            return
        }
        if let absolute = Self.pathOfURL(path) {
            anyPrefix = false
            segments = Self.segments(absolute)
            return
        }
        if path.first == Self.marker {
            // A leading expression gives the start of the URL (a base URL, or a path from '/'): any prefix.
            anyPrefix = true
            segments = Self.segments(String(path.dropFirst()))
            return
        }
        var prefix: [Segment] = []
        var unknown = false
        if let server = planned.server {
            if let url = Self.evaluate(server.url, environment: environment, inputs: inputs) {
                // The engine drops a server URL's trailing slashes before it appends the path.
                var base = Substring(Self.pathOfURL(url) ?? "")
                while base.hasSuffix("/") { base = base.dropLast() }
                prefix = Self.segments(String(base))
            } else {
                unknown = true  // Read from something unknown before the run: it may carry any path prefix.
            }
        }
        anyPrefix = unknown
        segments = prefix + Self.segments(path)
    }

    /// A marker for the place of an expression in a path's text; it cannot occur in a YAML string.
    private static let marker: Character = "\u{0}"

    /// The text of a server URL, when it reads only literal text, `$env` and string `$inputs` values that are given.
    private static func evaluate(
        _ template: ValueTemplate, environment: [String: String], inputs: [String: JSONValue]
    ) -> String? {
        func value(_ expression: RuntimeExpression) -> String? {
            guard expression.pointer == nil else { return nil }
            switch expression.source {
            case .environment(let name): return environment[name]
            case .input(let name): return inputs[name]?.stringValue
            default: return nil
            }
        }
        switch template {
        case .literal(let literal):
            return literal.stringValue
        case .expression(let expression, _):
            return value(expression)
        case .string(let template, _):
            var text = ""
            for segment in template.segments {
                switch segment {
                case .literal(let literal): text += literal
                case .expression(let expression, _):
                    guard let part = value(expression) else { return nil }
                    text += part
                }
            }
            return text
        default:
            return nil
        }
    }

    /// The path's text with each expression replaced by ``marker``; `nil` when the whole path is an expression.
    private static func text(of template: ValueTemplate) -> String? {
        switch template {
        case .literal(let value):
            return value.stringValue ?? ""
        case .string(let template, _):
            return template.segments.map { segment in
                if case .literal(let text) = segment { return text }
                return String(marker)
            }.joined()
        default:
            return nil
        }
    }

    /// The path of an absolute `http(s)://host/path` URL (without its query), or `nil` for a relative path.
    private static func pathOfURL(_ url: String) -> String? {
        guard let scheme = url.firstRange(of: "://"), url.hasPrefix("http") else { return nil }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "" }
        return String(rest[slash...])
    }

    private static func segments(_ path: String) -> [Segment] {
        var path = Substring(path)
        if let mark = path.firstIndex(of: "?") { path = path[..<mark] }
        guard !path.isEmpty else { return [] }
        return PathPattern.split(String(path)).map { part in
            part.contains(marker) ? .variable : .literal(URLEncoding.percentDecode(part))
        }
    }

    /// Whether a stub with this method and path pattern (each `nil` for "any") can match a request of this shape.
    func canMatch(method stubMethod: String?, path pattern: PathPattern?) -> Bool {
        if let stubMethod, stubMethod != method { return false }
        guard let pattern, let segments, !followsNextPages else { return true }
        let stub = pattern.segments
        if anyPrefix {
            // The prefix can be any segments, so it can absorb any number of the stub's first segments.
            return (0...stub.count).contains { Self.match(stub, from: $0, segments, from: 0) }
        }
        return Self.match(stub, from: 0, segments, from: 0)
    }

    private static func match(
        _ stub: [PathPattern.Segment], from i: Int, _ template: [Segment], from j: Int
    ) -> Bool {
        if i == stub.count { return j == template.count }
        if stub[i] == .rest { return true }
        if j == template.count { return false }
        switch (stub[i], template[j]) {
        case (.literal(let expected), .literal(let written)) where expected != written:
            return false
        case (.parameter, .literal(let written)) where written.isEmpty:
            return false
        default:
            return match(stub, from: i + 1, template, from: j + 1)
        }
    }

    /// The shape as `GET /account/{…}`, with `…/` for an unknown prefix and `(and its next pages)` for a step
    /// that follows next-page URLs.
    var description: String {
        guard let segments else { return "\(method) (a path read at run time)" }
        let pages = followsNextPages ? " (and its next pages)" : ""
        let path = segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .variable: "{…}"
            }
        }.joined(separator: "/")
        return "\(method) \(anyPrefix ? "…" : "")/\(path)\(pages)"
    }
}
