import FlowCore

/// Turns the YAML node tree of a workflow test file into a ``WorkflowTestFile``, collecting every problem.
///
/// It follows the workflow and stub decoders: ``MappingReader`` for unknown and
/// missing keys (with suggestions), the same codes, and a part that cannot be
/// decoded is left out while the rest is still checked. Stubs are decoded by
/// ``MockStubDecoder``, so inline stubs get exactly the errors a stub file would.
struct WorkflowTestDecoder: DiagnosingDecoder {
    let path: String
    let loadMock: WorkflowTestFile.MockLoader
    /// The problems found by this decoder; the stub decoder keeps its own until ``sortedDiagnostics``.
    var diagnostics: [Diagnostic] = []
    private var stubDecoder = MockStubDecoder()
    /// Stub files by resolved path, so a file named by several cases is read, and its problem reported, once.
    private var mocks: [String: [MockStub]?] = [:]

    static let topLevelKeys = ["flowrun-test", "workflow", "workflowId", "servers", "env", "inputs", "stubs", "mock", "cases"]
    static let caseKeys = ["name", "inputs", "env", "stubs", "mock", "runs", "expect"]
    static let expectKeys = [
        "outcome", "outputs", "outputs-exact", "calls", "attempts", "iterations", "items", "steps", "elapsed",
    ]
    static let failureKeys = ["kind", "step", "status", "message"]
    static let callKeys = MockStubDecoder.matchKeys + ["step"]
    static let outcomes = ["success", "failure"]
    static let statuses = ["succeeded", "failed", "recovered", "skipped"]
    /// The error kinds flowrun and the mock dispatcher raise; custom kinds start with `x-`.
    static let kinds = ErrorMatcher.knownKinds + [FlowError.Code.unsupported.name, FlowError.Code.mockUnmatched.name]
    /// The most runs a case may ask for; enough to open any sensible circuit breaker.
    static let maxRuns = 1000

    init(path: String, loadMock: @escaping WorkflowTestFile.MockLoader) {
        self.path = path
        self.loadMock = loadMock
    }

    /// Every problem found, the stub decoder's included, in file order (problems in stub files after).
    var sortedDiagnostics: [Diagnostic] {
        let all = diagnostics + stubDecoder.diagnostics
        func key(_ entry: (offset: Int, element: Diagnostic)) -> (Int, String, Int, Int, Int) {
            let location = entry.element.location
            return (location?.path == path ? 0 : 1, location?.path ?? "", location?.line ?? 0, location?.column ?? 0,
                    entry.offset)
        }
        return all.enumerated().sorted { key($0) < key($1) }.map(\.element)
    }

    /// Decodes a test file from its root node.
    /// - Parameter root: The document's root node.
    /// - Returns: The file, or `nil` when it has no usable `workflow` or is not a mapping; check the diagnostics.
    mutating func decode(_ root: YAMLNode) -> WorkflowTestFile? {
        if root.scalar?.value == .null {
            report(.typeMismatch, "the test file is empty; expected a mapping that starts with 'flowrun-test: 1'", root)
            return nil
        }
        let required = ["flowrun-test", "workflow", "cases"]
        guard let top = reader(root, "the test file", Self.topLevelKeys, required: required) else { return nil }
        if let node = top["flowrun-test"], !Self.isSupportedVersion(node) {
            let found = node.scalar?.text ?? node.kindDescription
            report(.unsupportedVersion,
                   "unsupported test format version \(found); this flowrun reads 'flowrun-test: 1'", node)
        }
        let workflow = top["workflow"].flatMap { node in
            string(node, "'workflow'").map { Located($0, at: node.location) }
        }
        let shared = Defaults(
            inputs: top["inputs"].map { inputs($0, "'inputs'") } ?? [:],
            environment: top["env"].map { environment($0, "'env'") } ?? [:],
            stubs: stubs(top))
        var cases: [WorkflowTestCase] = []
        if let node = top["cases"] {
            if let elements = node.sequence {
                if elements.isEmpty { report(.invalidValue, "'cases' needs at least one case", node) }
                cases = elements.enumerated().compactMap { testCase($1, number: $0 + 1, shared: shared) }
            } else {
                report(.typeMismatch, "expected 'cases' to be a sequence of cases, found \(node.kindDescription)", node)
            }
        }
        // Filters, reports and annotations name a case by its name, so a name must say which case it is.
        var seen = Set<String>()
        for testCase in cases where !seen.insert(testCase.name).inserted {
            if let location = testCase.location {
                diagnostics.append(Diagnostic(
                    .error, .duplicateName, "two cases are named '\(testCase.name)'", at: location))
            }
        }
        guard let workflow else { return nil }
        var file = WorkflowTestFile(
            path: path, workflow: workflow, workflowPath: WorkflowTestFile.resolve(workflow.value, from: path),
            cases: cases)
        file.arazzoWorkflowID = top["workflowId"].flatMap { node in
            string(node, "'workflowId'").map { Located($0, at: node.location) }
        }
        if let node = top["servers"] {
            file.serversKey = top.keyNode("servers")?.location
            for (name, value) in namedEntries(node, "'servers'", diagnostics: &diagnostics) ?? [] {
                guard let url = string(value, "the URL of server '\(name.value)'") else { continue }
                guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                    report(.invalidValue, "the URL of server '\(name.value)' must start with http:// or https://", value)
                    continue
                }
                file.arazzoServerURLs[name.value] = url
                file.arazzoServerNames.append(name)
            }
        }
        return file
    }

    private static func isSupportedVersion(_ node: YAMLNode) -> Bool {
        if case .int(let version)? = node.scalar?.value { return WorkflowTestFile.supportedVersions.contains(version) }
        return false
    }

    /// What the file gives every case.
    private struct Defaults {
        var inputs: [String: JSONValue]
        var environment: [String: String]
        var stubs: [MockStub]
    }

    // MARK: Cases

    private mutating func testCase(_ node: YAMLNode, number: Int, shared: Defaults) -> WorkflowTestCase? {
        let declaredName = node.mapping?.first { $0.key.scalar?.text == "name" }?.value.scalar?.text
        let label = declaredName.map { "case '\($0)'" } ?? "case #\(number)"
        guard let fields = reader(node, label, Self.caseKeys, required: ["name"]) else { return nil }
        let name = fields["name"].flatMap { string($0, "the name of \(label)") }
        var inputs = shared.inputs
        if let node = fields["inputs"] { inputs.merge(self.inputs(node, "'inputs' of \(label)")) { $1 } }
        var environment = shared.environment
        if let node = fields["env"] { environment.merge(self.environment(node, "'env' of \(label)")) { $1 } }
        var runs = 1
        if let node = fields["runs"] {
            if case .int(let count)? = node.scalar?.value, (1...Self.maxRuns).contains(count) {
                runs = count
            } else {
                report(.invalidValue,
                       "expected 'runs' of \(label) to be a number of runs from 1 to \(Self.maxRuns), "
                           + "found \(node.kindDescription)",
                       node)
            }
        }
        let expectation = fields["expect"].map { self.expectation($0, label) } ?? WorkflowTestExpectation()
        guard let name else { return nil }
        return WorkflowTestCase(
            name: name, location: node.location, inputs: inputs, environment: environment,
            stubs: MockStubs(stubs: stubs(fields) + shared.stubs), runs: runs, expectation: expectation)
    }

    /// The stubs of a file or case: its `stubs`, then the stubs of its `mock` file.
    private mutating func stubs(_ fields: MappingReader) -> [MockStub] {
        var stubs = fields["stubs"].map { stubDecoder.stubList($0) } ?? []
        if let node = fields["mock"], let relative = string(node, "'mock'") {
            let resolved = WorkflowTestFile.resolve(relative, from: path)
            if mocks[resolved] == nil {
                switch loadMock(resolved) {
                case .success(let loaded):
                    mocks[resolved] = .some(loaded.stubs)
                case .failure(var error):
                    if error.location == nil {
                        error.location = node.location
                    } else {
                        error.message += " (in the stub file named at \(node.location))"
                    }
                    diagnostics.append(Diagnostic(error))
                    mocks[resolved] = .some(nil)
                }
            }
            stubs += (mocks[resolved] ?? nil) ?? []
        }
        return stubs
    }

    // MARK: Expectations

    private mutating func expectation(_ node: YAMLNode, _ label: String) -> WorkflowTestExpectation {
        var expectation = WorkflowTestExpectation()
        expectation.locations.expect = node.location
        if node.scalar?.value == .null { return expectation }
        guard let fields = reader(node, "'expect' of \(label)", Self.expectKeys) else { return expectation }
        expectation.locations.outcome = fields["outcome"]?.location
        expectation.locations.outputs = (fields["outputs"] ?? fields["outputs-exact"])?.location
        expectation.locations.calls = fields["calls"]?.location
        expectation.locations.elapsed = fields["elapsed"]?.location
        if let node = fields["outcome"] { expectation.outcome = outcome(node) ?? .success }
        if let node = fields["outputs"] { expectation.outputs = outputs(node, "'outputs'", exact: false) }
        if let node = fields["outputs-exact"] {
            if let key = fields.keyNode("outputs-exact"), fields.contains("outputs") {
                report(.invalidValue, "give either 'outputs' (a subset) or 'outputs-exact', not both", key)
            } else {
                expectation.outputs = outputs(node, "'outputs-exact'", exact: true)
            }
        }
        if let node = fields["calls"] { expectation.calls = calls(node) }
        if let node = fields["attempts"] { expectation.attempts = stepCounts(node, "attempts") }
        if let node = fields["iterations"] { expectation.iterations = stepCounts(node, "iterations") }
        if let node = fields["items"] { expectation.items = stepCounts(node, "items") }
        if let node = fields["steps"] {
            for entry in namedEntries(node, "'steps'", diagnostics: &diagnostics) ?? [] {
                guard let text = string(entry.value, "the status of step '\(entry.name.value)'") else { continue }
                guard let status = StepReport.Status(rawValue: text) else {
                    report(.invalidValue,
                           "unknown step status '\(text)'\(Suggestion.didYouMean(text, in: Self.statuses)); "
                               + "expected one of: \(Self.statuses.joined(separator: ", "))",
                           entry.value)
                    continue
                }
                expectation.steps[entry.name] = status
            }
        }
        if let node = fields["elapsed"] { expectation.elapsed = elapsed(node) }
        return expectation
    }

    private mutating func outcome(_ node: YAMLNode) -> WorkflowTestExpectation.Outcome? {
        if let scalar = node.scalar {
            switch scalar.value {
            case .string("success"): return .success
            case .string("failure"): return .failure(.init())
            case .string(let text):
                report(.invalidValue,
                       "unknown outcome '\(text)'\(Suggestion.didYouMean(text, in: Self.outcomes)); "
                           + "expected success, failure or { failure: { kind, step, status, message } }",
                       node)
            default:
                report(.typeMismatch,
                       "expected 'outcome' to be success, failure or { failure: { ... } }, "
                           + "found \(node.kindDescription)",
                       node)
            }
            return nil
        }
        guard let wrapper = reader(node, "'outcome'", ["failure"], required: ["failure"]),
            let failureNode = wrapper["failure"]
        else { return nil }
        var failure = WorkflowTestExpectation.Failure()
        if failureNode.scalar?.value == .null { return .failure(failure) }
        guard let fields = reader(failureNode, "'failure'", Self.failureKeys) else { return nil }
        if let node = fields["kind"], let kind = string(node, "'kind'") {
            if Self.kinds.contains(kind) || kind.hasPrefix("x-") {
                failure.kind = Located(kind, at: node.location)
            } else {
                report(.invalidValue,
                       "unknown error kind '\(kind)'\(Suggestion.didYouMean(kind, in: Self.kinds)); expected one of: "
                           + Self.kinds.joined(separator: ", ") + ", or a custom kind starting with 'x-'",
                       node)
            }
        }
        if let node = fields["step"], let step = string(node, "'step'") {
            failure.step = Located(step, at: node.location)
        }
        if let node = fields["status"] {
            if case .int(let status)? = node.scalar?.value, (100...599).contains(status) {
                failure.status = status
            } else {
                report(.invalidValue,
                       "expected 'status' to be a status code from 100 to 599, found \(node.kindDescription)", node)
            }
        }
        if let node = fields["message"] { failure.message = scalarText(node, "'message'") }
        return .failure(failure)
    }

    private mutating func outputs(_ node: YAMLNode, _ what: String, exact: Bool) -> WorkflowTestExpectation.Outputs? {
        guard let entries = namedEntries(node, what, diagnostics: &diagnostics) else { return nil }
        var outputs = WorkflowTestExpectation.Outputs([:], exact: exact)
        for entry in entries {
            outputs.values[entry.name.value] = json(entry.value)
            outputs.locations[entry.name.value] = entry.name.location
            collectMatchers(in: entry.value, at: [entry.name.value], into: &outputs.matchers)
        }
        return outputs
    }

    private mutating func calls(_ node: YAMLNode) -> [WorkflowTestExpectation.Call]? {
        guard let elements = node.sequence else {
            report(.typeMismatch,
                   "expected 'calls' to be a sequence of calls such as 'GET /user', found \(node.kindDescription)",
                   node)
            return nil
        }
        var calls: [WorkflowTestExpectation.Call] = []
        for (index, element) in elements.enumerated() {
            if case .string(let text)? = element.scalar?.value {
                if let match = shorthandCall(text, element) {
                    calls.append(WorkflowTestExpectation.Call(match, location: element.location))
                }
                continue
            }
            let label = "call #\(index + 1) of 'calls'"
            guard let fields = reader(element, label, Self.callKeys, required: ["method", "path"]) else { continue }
            var match = stubDecoder.conditions(fields, headerMatchers: true)
            let step = fields["step"].flatMap { node in string(node, "'step'").map { Located($0, at: node.location) } }
            var call = WorkflowTestExpectation.Call(match, step: step, location: element.location)
            for pair in fields["headers"]?.mapping ?? [] {
                guard let name = pair.key.scalar?.text, let scalar = pair.value.scalar,
                    let matcher = ValueMatcher(scalar)
                else { continue }
                if case .matches(let pattern) = matcher, case .invalid(let reason) = PatternCache.compile(pattern) {
                    report(.invalidValue, "'\(pattern)' is not a valid regular expression: \(reason)", pair.value)
                }
                match.headers[name] = nil
                call.headerMatchers[name] = matcher
            }
            call.match = match
            calls.append(call)
        }
        return calls
    }

    /// A mapping of step ids to counts (`attempts`, `iterations`, `items`), each a whole number from 0.
    private mutating func stepCounts(_ node: YAMLNode, _ what: String) -> [Located<String>: Int] {
        var counts: [Located<String>: Int] = [:]
        for entry in namedEntries(node, "'\(what)'", diagnostics: &diagnostics) ?? [] {
            guard case .int(let count)? = entry.value.scalar?.value, count >= 0 else {
                report(.typeMismatch,
                       "expected the \(what) of step '\(entry.name.value)' to be a whole number from 0, "
                           + "found \(entry.value.kindDescription)",
                       entry.value)
                continue
            }
            counts[entry.name] = count
        }
        return counts
    }

    /// Records the ``ValueMatcher``s in an expected value, by JSON pointer. `!same` compares attempts, which
    /// only calls have, so it is an error in outputs.
    private mutating func collectMatchers(
        in node: YAMLNode, at path: [String], into matchers: inout [String: ValueMatcher]
    ) {
        switch node.content {
        case .scalar(let scalar):
            guard let matcher = ValueMatcher(scalar) else { return }
            if matcher == .sameAsPrevious {
                report(.invalidValue, "'!same' compares a call's header with the previous attempt; "
                    + "it has no meaning in outputs", node)
            }
            if case .matches(let pattern) = matcher, case .invalid(let reason) = PatternCache.compile(pattern) {
                report(.invalidValue, "'\(pattern)' is not a valid regular expression: \(reason)", node)
            }
            matchers[JSONPointer(tokens: path).description] = matcher
        case .sequence(let elements):
            for (index, element) in elements.enumerated() {
                collectMatchers(in: element, at: path + [String(index)], into: &matchers)
            }
        case .mapping(let pairs):
            for pair in pairs {
                collectMatchers(in: pair.value, at: path + [pair.key.scalar?.text ?? ""], into: &matchers)
            }
        }
    }

    /// A call written as `METHOD /path` or `METHOD /path?name=value`.
    private mutating func shorthandCall(_ text: String, _ node: YAMLNode) -> MockStub.Match? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            report(.invalidValue,
                   "expected a call such as 'GET /user' (a method, a space, a path), found '\(text)'", node)
            return nil
        }
        let method = String(parts[0])
        guard MockStubDecoder.methods.contains(method) else {
            let upper = method.uppercased()
            let hint = MockStubDecoder.methods.contains(upper)
                ? "; methods are upper-case: '\(upper)'" : Suggestion.didYouMean(upper, in: MockStubDecoder.methods)
            report(.invalidValue, "unknown HTTP method '\(method)'\(hint)", node)
            return nil
        }
        var path = String(parts[1])
        var query: [String: [String]] = [:]
        if let mark = path.firstIndex(of: "?") {
            for (name, value) in URLEncoding.parseQuery(String(path[path.index(after: mark)...])) {
                query[name, default: []].append(value)
            }
            path = String(path[..<mark])
        }
        if let problem = PathPattern.problem(in: path) {
            report(.invalidValue, problem, node)
            return nil
        }
        return MockStub.Match(method: method, path: path, query: query)
    }

    private mutating func elapsed(_ node: YAMLNode) -> WorkflowTestExpectation.Elapsed? {
        if node.scalar != nil { return duration(node, "'elapsed'").map { .exactly($0) } }
        guard let fields = reader(node, "'elapsed'", ["min", "max"]) else { return nil }
        if fields.keys.isEmpty {
            report(.missingKey, "'elapsed' needs 'min', 'max' or both", node)
            return nil
        }
        let minimum = fields["min"].flatMap { duration($0, "'min'") }
        let maximum = fields["max"].flatMap { duration($0, "'max'") }
        if let minimum, let maximum, minimum > maximum, let node = fields["min"] {
            report(.invalidValue,
                   "'min' (\(minimum.workflowText)) is longer than 'max' (\(maximum.workflowText))", node)
            return nil
        }
        return .within(min: minimum, max: maximum)
    }

    // MARK: Values

    /// A duration such as `1.4s`; unlike in a workflow, zero (`0s`, `0`) is allowed: a run without delays takes none.
    private mutating func duration(_ node: YAMLNode, _ what: String) -> Duration? {
        if case .int(0)? = node.scalar?.value { return .zero }
        guard case .string(let text)? = node.scalar?.value else {
            report(.typeMismatch,
                   "expected \(what) to be a duration such as 1.4s or 200ms, found \(node.kindDescription)", node)
            return nil
        }
        switch DurationParser.parse(text) {
        case .success(let duration):
            return duration
        case .failure(let error):
            let number = String(text.filter { !$0.isLetter && $0 != " " })
            if let value = Double(number), value == 0, text.contains(where: \.isLetter) { return .zero }
            report(.invalidValue, "\(error.message) (in \(what))", node)
            return nil
        }
    }

    private mutating func inputs(_ node: YAMLNode, _ what: String) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for entry in namedEntries(node, what, diagnostics: &diagnostics) ?? [] {
            values[entry.name.value] = json(entry.value)
        }
        return values
    }

    private mutating func environment(_ node: YAMLNode, _ what: String) -> [String: String] {
        var values: [String: String] = [:]
        for entry in namedEntries(node, what, diagnostics: &diagnostics) ?? [] {
            if let text = scalarText(entry.value, "the value of '\(entry.name.value)'") {
                values[entry.name.value] = text
            }
        }
        return values
    }
}
