import FlowCore

/// Compares a run with a ``WorkflowTestExpectation`` and words every difference as expected-versus-actual lines.
///
/// Values in the diff come from the test file and the stubs, so showing them
/// reveals nothing that the test file does not already hold.
struct ExpectationChecker {
    let expectation: WorkflowTestExpectation

    func failures(report: RunReport, calls: [RecordedCall]) -> [WorkflowTestFailure] {
        var failures: [WorkflowTestFailure] = []
        failures += outcome(report).map { [$0] } ?? []
        failures += outputs(report).map { [$0] } ?? []
        failures += self.calls(calls, switches: Self.switches(report)).map { [$0] } ?? []
        failures += attempts(report).map { [$0] } ?? []
        failures += counts(.iterations, "iteration", expectation.iterations, in: report) { $0.iterationCount }
            .map { [$0] } ?? []
        failures += counts(.items, "item", expectation.items, in: report) { $0.itemCount }.map { [$0] } ?? []
        failures += steps(report).map { [$0] } ?? []
        failures += elapsed(report).map { [$0] } ?? []
        return failures
    }

    // MARK: Outcome

    private func outcome(_ report: RunReport) -> WorkflowTestFailure? {
        switch (expectation.outcome, report.error) {
        case (.success, nil):
            return nil
        case (.success, let error?):
            return WorkflowTestFailure(
                .outcome, "expected success, but the run failed with \(error.description)",
                details: Self.errorDetails(error), location: outcomeLocation)
        case (.failure(let expected), nil):
            let outputs = report.outputs.isEmpty ? "no outputs" : "outputs " + Self.render(.object(report.outputs))
            return WorkflowTestFailure(
                .outcome, "expected the run to fail\(Self.describe(expected)), but it succeeded with \(outputs)",
                location: outcomeLocation)
        case (.failure(let expected), let error?):
            var differences: [String] = []
            if let kind = expected.kind?.value, !(kind == error.code.name || error.code.name.hasPrefix(kind + ".")) {
                differences.append("kind: expected \(kind), actual \(error.code.name)")
            }
            if let step = expected.step?.value, step != error.stepID {
                let actual = error.stepID ?? "none (the run failed before any step)"
                differences.append("step: expected \(step), actual \(actual)")
            }
            if let status = expected.status, status != error.status {
                let actual = error.status.map(String.init) ?? "none (no response)"
                differences.append("status: expected \(status), actual \(actual)")
            }
            if let message = expected.message, !error.message.contains(message) {
                differences.append("message: expected it to contain '\(message)'")
            }
            guard !differences.isEmpty else { return nil }
            return WorkflowTestFailure(
                .outcome, "the run failed differently: \(error.description)",
                details: differences + Self.errorDetails(error), location: outcomeLocation)
        }
    }

    /// Where the outcome is written, or the `expect:` it defaults in.
    private var outcomeLocation: SourceLocation? {
        expectation.locations.outcome ?? expectation.locations.expect
    }

    /// What a failure description asks for, as ` with kind http, step account, status 404`.
    private static func describe(_ failure: WorkflowTestExpectation.Failure) -> String {
        var parts: [String] = []
        if let kind = failure.kind { parts.append("kind \(kind.value)") }
        if let step = failure.step { parts.append("step \(step.value)") }
        if let status = failure.status { parts.append("status \(status)") }
        if let message = failure.message { parts.append("a message containing '\(message)'") }
        return parts.isEmpty ? "" : " with " + parts.joined(separator: ", ")
    }

    private static func errorDetails(_ error: FlowError) -> [String] {
        var lines = ["kind: \(error.code.name)" + (error.status.map { ", status \($0)" } ?? "")]
        if let request = error.request { lines.append("request: \(request)") }
        if let excerpt = error.responseExcerpt { lines.append("response: \(excerpt)") }
        return lines
    }

    // MARK: Outputs

    private func outputs(_ report: RunReport) -> WorkflowTestFailure? {
        guard let expected = expectation.outputs else { return nil }
        if let error = report.error {
            // The outcome failure already says why; a diff against no outputs would only repeat it.
            if case .failure = expectation.outcome { return nil }
            return WorkflowTestFailure(
                .outputs, "expected outputs, but the run failed (\(error.code.name)) and has none",
                details: expected.values.keys.sorted().map { "/\($0): expected \(Self.render(expected.values[$0]!))" },
                location: expectation.locations.outputs)
        }
        var differences: [String] = []
        Self.diff(
            .object(expected.values), .object(report.outputs), exact: expected.exact, at: [],
            matchers: expected.matchers, into: &differences)
        guard !differences.isEmpty else { return nil }
        // The first output, in file order, whose value differs: where to look.
        let differing = expected.values.keys.filter { name in
            var lines: [String] = []
            Self.diff(expected.values[name]!, report.outputs[name] ?? .null, exact: expected.exact, at: [name],
                      matchers: expected.matchers, into: &lines)
            return !lines.isEmpty || (report.outputs[name] == nil)
        }
        let location = differing.compactMap { expected.locations[$0] }.min() ?? expectation.locations.outputs
        return WorkflowTestFailure(
            .outputs, "outputs differ" + (expected.exact ? " (exact)" : ""),
            details: differences + ["actual outputs: \(Self.render(.object(report.outputs)))"], location: location)
    }

    /// Appends a line for every place where `actual` does not contain (or, `exact`, equal) `expected`.
    ///
    /// A place that `matchers` names (by JSON pointer) is checked by its ``ValueMatcher`` instead.
    static func diff(
        _ expected: JSONValue, _ actual: JSONValue, exact: Bool, at path: [String],
        matchers: [String: ValueMatcher] = [:], into lines: inout [String]
    ) {
        let pointer = JSONPointer(tokens: path).description
        if let matcher = matchers[pointer] {
            if !matcher.accepts(actual) {
                lines.append("\(pointer): expected \(matcher), actual \(render(actual))")
            }
            return
        }
        switch (expected, actual) {
        case (.object(let expected), .object(let actual)):
            for key in expected.keys.sorted() {
                let place = JSONPointer(tokens: path + [key]).description
                guard let member = actual[key] else {
                    if let matcher = matchers[place] {
                        if !matcher.accepts(nil) { lines.append("\(place): missing; expected \(matcher)") }
                    } else {
                        lines.append("\(place): missing; expected \(render(expected[key]!))")
                    }
                    continue
                }
                diff(expected[key]!, member, exact: exact, at: path + [key], matchers: matchers, into: &lines)
            }
            if exact {
                for key in actual.keys.sorted() where expected[key] == nil {
                    lines.append("\(JSONPointer(tokens: path + [key])): not expected; actual \(render(actual[key]!))")
                }
            }
        case (.array(let expectedElements), .array(let actualElements)):
            guard expectedElements.count == actualElements.count else {
                lines.append(
                    "\(pointer.isEmpty ? "/" : pointer): expected \(plural(expectedElements.count, "element")), "
                        + "actual \(actualElements.count): expected \(render(expected)), actual \(render(actual))")
                return
            }
            for (index, pair) in zip(expectedElements, actualElements).enumerated() {
                diff(pair.0, pair.1, exact: exact, at: path + [String(index)], matchers: matchers, into: &lines)
            }
        case (.int, .double), (.double, .int), (.double, .double):
            if expected.doubleValue != actual.doubleValue {
                lines.append("\(pointer): expected \(render(expected)), actual \(render(actual))")
            }
        default:
            if expected != actual {
                let place = pointer.isEmpty ? "/" : pointer
                lines.append("\(place): expected \(render(expected)), actual \(render(actual))")
            }
        }
    }

    /// A value as compact JSON, shortened past 200 characters.
    static func render(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    // MARK: Calls

    /// The switch steps that ran each case step in `report`, by the case step's id: a case step's requests go out
    /// under its own id, but the switch step sent them, as its report holds their attempts.
    static func switches(_ report: RunReport) -> [String: [String]] {
        var switches: [String: [String]] = [:]
        for step in report.steps {
            if let chosen = step.chose, switches[chosen]?.contains(step.id) != true {
                switches[chosen, default: []].append(step.id)
            }
        }
        return switches
    }

    /// - Parameter switches: What ``switches(_:)`` gives for the run.
    private func calls(_ actual: [RecordedCall], switches: [String: [String]]) -> WorkflowTestFailure? {
        guard let expected = expectation.calls else { return nil }
        var first: (index: Int, reasons: [String])?
        for index in 0..<max(expected.count, actual.count) {
            guard index < expected.count, index < actual.count else {
                first = (index, [])
                break
            }
            let previous = actual[..<index].last { $0.stepID == actual[index].stepID }
            let reasons = Self.mismatches(expected[index], actual[index], previous: previous, switches: switches)
            if !reasons.isEmpty {
                first = (index, reasons)
                break
            }
        }
        guard let (index, reasons) = first else { return nil }
        var details: [String] = []
        let message: String
        if index >= actual.count {
            message = "expected \(expected.count) calls, the run made \(actual.count)"
            details.append("missing call \(index + 1): \(Self.describe(expected[index]))")
        } else if index >= expected.count {
            message = "expected \(expected.count) calls, the run made \(actual.count)"
            details.append("unexpected call \(index + 1): \(Self.describe(actual[index], switches: switches))")
        } else {
            message = "calls differ at call \(index + 1)"
            details.append("expected: \(Self.describe(expected[index]))")
            details.append("actual:   \(Self.describe(actual[index], switches: switches)): "
                + reasons.joined(separator: "; "))
        }
        details.append("calls made:")
        for (number, call) in actual.prefix(50).enumerated() {
            details.append("  \(number + 1). \(Self.describe(call, switches: switches))")
        }
        if actual.count > 50 { details.append("  … \(actual.count - 50) more") }
        if actual.isEmpty { details.append("  none") }
        let location = index < expected.count ? expected[index].location : nil
        return WorkflowTestFailure(.calls, message, details: details, location: location ?? expectation.locations.calls)
    }

    /// What differs between an expected call and a recorded one; empty when it matches.
    /// - Parameters:
    ///   - previous: The call before this one of the same step, for `!same` header matchers.
    ///   - switches: The switch steps that ran each case step (``switches(_:)``): a call of a case step was sent
    ///     by its switch step.
    static func mismatches(
        _ expected: WorkflowTestExpectation.Call, _ call: RecordedCall, previous: RecordedCall? = nil,
        switches: [String: [String]] = [:]
    ) -> [String] {
        let match = expected.match
        let request = RequestFacts(call.request, readBody: match.body != nil)
        var reasons: [String] = []
        for (name, matcher) in expected.headerMatchers.sorted(by: { $0.key < $1.key }) {
            let value = call.request.headers[name].map(JSONValue.string)
            let before = previous?.request.headers[name].map(JSONValue.string)
            guard !matcher.accepts(value, previous: before) else { continue }
            let quoted = { (value: JSONValue) in
                "'\(SecretRedactor.redact(headerValue: value.stringValue ?? "", named: name))'"
            }
            let actual = value.map(quoted) ?? "missing"
            if matcher == .sameAsPrevious {
                let earlier = previous == nil
                    ? "there is no previous attempt of step \(call.stepID)"
                    : "the previous attempt sent " + (before.map(quoted) ?? "none")
                reasons.append("header \(name) is \(actual), expected the same as before: \(earlier)")
            } else {
                reasons.append("header \(name) is \(actual), expected \(matcher)")
            }
        }
        if let method = match.method, method != request.method {
            reasons.append("method is \(request.method), expected \(method)")
        }
        if let path = match.path, !PathPattern(path).matches(request.segments) {
            reasons.append("path is \(request.path), expected \(path)")
        }
        for (name, values) in match.query.sorted(by: { $0.key < $1.key }) {
            let actual = request.query.filter { $0.name == name }.map(\.value)
            if actual != values {
                let found = actual.joined(separator: ","), wanted = values.joined(separator: ",")
                reasons.append(actual.isEmpty
                    ? "query parameter \(name) is missing" : "query parameter \(name) is \(found), expected \(wanted)")
            }
        }
        for (name, value) in match.headers.sorted(by: { $0.key < $1.key }) {
            let actual = request.headers.values(name)
            if !actual.contains(value) {
                let shown = actual.map { SecretRedactor.redact(headerValue: $0, named: name) }
                let expected = SecretRedactor.redact(headerValue: value, named: name)
                reasons.append(actual.isEmpty
                    ? "header \(name) is missing"
                    : "header \(name) is '\(shown.joined(separator: "', '"))', expected '\(expected)'")
            }
        }
        if let body = match.body {
            if let actual = request.body {
                var lines: [String] = []
                diff(body, actual, exact: false, at: [], into: &lines)
                if !lines.isEmpty { reasons.append("body differs at " + lines.joined(separator: "; ")) }
            } else {
                reasons.append("the request has no body")
            }
        }
        if let step = expected.step?.value, step != call.stepID, switches[call.stepID]?.contains(step) != true {
            reasons.append("sent by \(sender(call, switches: switches)), expected step \(step)")
        }
        return reasons
    }

    private static func describe(_ expected: WorkflowTestExpectation.Call) -> String {
        let match = expected.match
        var text = "\(match.method ?? "any method") \(match.path ?? "any path")"
        if !match.query.isEmpty {
            text += "?" + match.query.sorted { $0.key < $1.key }
                .flatMap { name, values in values.map { "\(name)=\($0)" } }.joined(separator: "&")
        }
        var conditions: [String] = []
        for (name, value) in match.headers.sorted(by: { $0.key < $1.key }) {
            conditions.append("header \(name): \(SecretRedactor.redact(headerValue: value, named: name))")
        }
        for (name, matcher) in expected.headerMatchers.sorted(by: { $0.key < $1.key }) {
            conditions.append("header \(name): \(matcher)")
        }
        if let body = match.body { conditions.append("body containing \(render(body))") }
        if !conditions.isEmpty { text += " with " + conditions.joined(separator: ", ") }
        return text + (expected.step.map { " from step \($0.value)" } ?? "")
    }

    private static func describe(_ call: RecordedCall, switches: [String: [String]]) -> String {
        let target = call.request.path + (call.request.query.map { "?" + $0 } ?? "")
        let answer = call.cancelled
            ? " → cancelled before the answer" : call.status.map { " → \($0)" } ?? " → no stub matched"
        let step = sender(call, switches: switches)
        return "\(call.request.method) \(target)\(answer) (\(step), attempt \(call.attempt))"
    }

    /// The step that sent `call`, as `step payout (case sepa-payout)` when a switch step ran the case step
    /// that built it.
    private static func sender(_ call: RecordedCall, switches: [String: [String]]) -> String {
        guard let owners = switches[call.stepID] else { return "step \(call.stepID)" }
        return "step \(owners.joined(separator: " or ")) (case \(call.stepID))"
    }

    // MARK: Attempts, steps, time

    /// Compares a count per step (`iterations`, `items`), added up over every time the step ran.
    private func counts(
        _ kind: WorkflowTestFailure.Kind, _ noun: String, _ expected: [Located<String>: Int], in report: RunReport,
        of count: (StepReport) -> Int?
    ) -> WorkflowTestFailure? {
        var details: [String] = []
        var location: SourceLocation?
        for (step, expected) in expected.sorted(by: { $0.key.location < $1.key.location }) {
            let actual = report.steps.filter { $0.id == step.value }.reduce(0) { $0 + (count($1) ?? 0) }
            guard actual != expected else { continue }
            location = location ?? step.location
            details.append("step \(step.value): expected \(Self.plural(expected, noun)), actual \(actual)")
        }
        return details.isEmpty ? nil : WorkflowTestFailure(kind, "\(noun)s differ", details: details, location: location)
    }

    private func attempts(_ report: RunReport) -> WorkflowTestFailure? {
        var details: [String] = []
        var location: SourceLocation?
        for (step, count) in expectation.attempts.sorted(by: { $0.key.location < $1.key.location }) {
            let statuses = Self.attempts(of: step.value, in: report.steps)
            guard statuses.count != count else { continue }
            location = location ?? step.location
            details.append(
                "step \(step.value): expected \(Self.plural(count, "attempt")), actual \(statuses.count)"
                    + (statuses.isEmpty ? "" : " (\(statuses.joined(separator: ", ")))"))
        }
        return details.isEmpty ? nil : WorkflowTestFailure(.attempts, "attempts differ", details: details, location: location)
    }

    /// The attempts of step `name`, each as its status: a request's status or error kind, or for a `workflow:` step,
    /// whose attempt is a run of the called workflow, how that run ended. A name no step of `reports` has is looked
    /// for among the steps of the workflows that `workflow:` steps called.
    private static func attempts(of name: String, in reports: [StepReport]) -> [String] {
        let own = reports.filter { $0.id == name }
        guard !own.isEmpty else { return reports.flatMap { attempts(of: name, in: $0.subSteps) } }
        return own.flatMap { step -> [String] in
            guard step.workflow != nil else {
                return step.attempts.map { $0.status.map(String.init) ?? $0.error?.code.name ?? "?" }
            }
            // A step skipped by its `if` or by the run's end never called its workflow.
            return step.status == .skipped || step.skipReason != nil ? [] : ["run \(step.status.rawValue)"]
        }
    }

    private func steps(_ report: RunReport) -> WorkflowTestFailure? {
        var details: [String] = []
        var location: SourceLocation?
        for (step, status) in expectation.steps.sorted(by: { $0.key.location < $1.key.location }) {
            let actual = report.steps.last { $0.id == step.value }
            guard actual?.status != status else { continue }
            location = location ?? step.location
            details.append(
                "step \(step.value): expected \(status.rawValue), actual \(actual?.status.rawValue ?? "never ran")"
                    + (actual?.error.map { " (\($0.message))" } ?? ""))
        }
        return details.isEmpty ? nil : WorkflowTestFailure(.steps, "step statuses differ", details: details, location: location)
    }

    private func elapsed(_ report: RunReport) -> WorkflowTestFailure? {
        let actual = report.duration
        switch expectation.elapsed {
        case nil:
            return nil
        case .exactly(let expected):
            guard actual != expected else { return nil }
            return elapsedFailure("\(Self.text(expected))", actual, report)
        case .within(let minimum, let maximum):
            if let minimum, actual < minimum {
                return elapsedFailure("at least \(Self.text(minimum))", actual, report)
            }
            if let maximum, actual > maximum {
                return elapsedFailure("at most \(Self.text(maximum))", actual, report)
            }
            return nil
        }
    }

    private func elapsedFailure(
        _ expected: String, _ actual: Duration, _ report: RunReport
    ) -> WorkflowTestFailure {
        WorkflowTestFailure(
            .elapsed, "expected the run to take \(expected) of virtual time, it took \(Self.text(actual))",
            details: Self.delays(report), location: expectation.locations.elapsed)
    }

    /// Where the time went: each retry delay, by step, item or iteration, and attempt, and each wait between two
    /// iterations (pages) of a `repeat` or `paginate` step, which the report keeps as the gap between them.
    private static func delays(_ report: RunReport) -> [String] {
        report.steps.flatMap { step in
            var lines: [String] = []
            var previous: AttemptReport?
            for attempt in step.attempts {
                if let previous, let iteration = previous.iteration, attempt.iteration != iteration {
                    let wait = attempt.startedAfter - (previous.startedAfter + previous.duration)
                    if wait > .zero {
                        lines.append(
                            "step \(step.id), after \(step.loop?.unit ?? "iteration") \(iteration): waited \(text(wait))")
                    }
                }
                if let delay = attempt.retryDelay {
                    let place = attempt.item.map { ", item \($0)" }
                        ?? attempt.iteration.map { ", \(step.loop?.unit ?? "iteration") \($0)" } ?? ""
                    lines.append("step \(step.id)\(place), after attempt \(attempt.number): waited \(text(delay))")
                }
                previous = attempt
            }
            return lines
        }
    }

    /// A duration as a workflow writes it, `0s` for zero.
    static func text(_ duration: Duration) -> String {
        duration == .zero ? "0s" : duration.workflowText
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
