/// Decoding of `repeat:` and `paginate:` on a step, and of the delay keys they share with retry rules.
extension WorkflowDecoder {
    /// The keys of ``pacing(_:defaultDelay:)``.
    static let pacingKeys = ["delay", "backoff", "multiplier", "maxDelay"]

    /// `delay`, `backoff`, `multiplier` and `maxDelay` of a mapping: how a wait grows from one time to the next.
    mutating func pacing(_ fields: MappingReader, defaultDelay: Duration) -> LoopPacing {
        var pacing = LoopPacing(delay: defaultDelay)
        if let value = fields["delay"].flatMap({ duration($0, "'delay'") }) { pacing.delay = value.value }
        if let node = fields["backoff"], let text = string(node, "'backoff'") {
            if let backoff = RetryRule.Backoff(rawValue: text.value) {
                pacing.backoff = backoff
            } else {
                let names = RetryRule.Backoff.allCases.map(\.rawValue)
                report(.invalidValue,
                       "'backoff' is constant, linear or exponential, found '\(text.value)'"
                           + Suggestion.didYouMean(text.value, in: names),
                       node)
            }
        }
        if let node = fields["multiplier"], let value = number(node, "'multiplier'") {
            if value >= 1 { pacing.multiplier = value } else {
                report(.invalidValue, "'multiplier' must be at least 1, found \(value)", node)
            }
        }
        pacing.maxDelay = fields["maxDelay"].flatMap { duration($0, "'maxDelay'")?.value }
        return pacing
    }

    /// The `repeat:` of a step, or `nil` without one.
    mutating func repetition(_ node: YAMLNode, stepID: String) -> Repetition? {
        guard let fields = reader(
            node, "'repeat' of step '\(stepID)'", ["until", "while", "maxIterations"] + Self.pacingKeys)
        else { return nil }
        // Read before the condition, so a bad condition does not hide what else is wrong.
        let maxIterations = fields["maxIterations"].flatMap {
            int($0, "'maxIterations'", in: 1...StepLoopLimits.maxIterations)
        } ?? Repetition.defaultMaxIterations
        let pacing = self.pacing(fields, defaultDelay: Repetition.defaultDelay)
        let stop: Repetition.Stop
        switch (fields["until"], fields["while"]) {
        case (let until?, nil):
            guard let condition = condition(until) else { return nil }
            stop = .until(condition)
        case (nil, let whileNode?):
            guard let condition = condition(whileNode) else { return nil }
            stop = .while(condition)
        case (nil, nil):
            report(.missingKey,
                   "'repeat' of step '\(stepID)' needs 'until' (stop when a condition on the response holds) or "
                       + "'while' (go on while it holds)",
                   node)
            return nil
        case (_, let whileNode?):
            report(.invalidValue, "'repeat' has 'until' or 'while', not both", whileNode,
                   key: fields.keyNode("while"))
            return nil
        }
        return Repetition(stop: stop, maxIterations: maxIterations, pacing: pacing, location: node.location)
    }

    /// The `paginate:` of a step, or `nil` without one.
    mutating func pagination(_ node: YAMLNode, stepID: String) -> Pagination? {
        guard let fields = reader(
            node, "'paginate' of step '\(stepID)'", ["next", "param", "maxPages"] + Self.pacingKeys,
            required: ["next"]),
            let nextNode = fields["next"], let text = string(nextNode, "'next'")
        else { return nil }
        // Read before `next`, so a bad `next` does not hide what else is wrong.
        let maxPages = fields["maxPages"].flatMap {
            int($0, "'maxPages'", in: 1...StepLoopLimits.maxIterations)
        } ?? Pagination.defaultMaxPages
        let pacing = self.pacing(fields, defaultDelay: .zero)
        let param = fields["param"].flatMap { string($0, "'param'") }
        if let param, param.value.isEmpty {
            report(.invalidValue, "'param' names a query parameter; it cannot be empty", fields["param"]!)
        }
        let quote = nextNode.scalar?.style == .plain ? 0 : 1
        let next: Pagination.Next
        switch text.value {
        case "link":
            if param != nil {
                report(.invalidValue,
                       "'param' does not apply to 'next: link': the Link header gives the whole URL of the next page",
                       fields["param"]!, key: fields.keyNode("param"))
            }
            next = .link
        case "page":
            next = .page(param: param ?? Located(Pagination.defaultPageParameter, at: nextNode.location))
        case let value where value.hasPrefix("$"):
            do {
                next = .value(try RuntimeExpression(parsing: value), param: param)
            } catch {
                report(.invalidExpression, "invalid expression in 'next': \(error.message)", nextNode)
                diagnostics[diagnostics.count - 1].location = nextNode.location.advanced(by: quote + error.offset)
                return nil
            }
        case let value:
            report(.invalidValue,
                   "'next' is 'link' (the Link header's rel=\"next\"), 'page' (page numbers in a query parameter) or "
                       + "a runtime expression that gives the next page's URL or cursor, such as "
                       + "'$response.body#/next', found '\(value)'" + Suggestion.didYouMean(value, in: ["link", "page"]),
                   nextNode)
            return nil
        }
        return Pagination(
            next: next, nextLocation: nextNode.location.advanced(by: quote), maxPages: maxPages, pacing: pacing,
            location: node.location)
    }
}
