public import FlowCore

/// A workflow test file (`*.test.yaml`) with one case that replays a recorded run offline and expects what
/// the run did: `flowrun run wf.yaml --record-test wf.test.yaml`.
///
/// The case runs with the run's inputs and the values of the workflow's declared environment variables, every
/// secret among them written as `***` (the recorded stubs match credentials by presence, so the replay does
/// not need them). It expects the run's outcome (success, or a failure of the same kind at the same step), on
/// success its outputs, and the exact sequence of calls the run made, as `METHOD /path?query` with the query
/// the stubs match.
public struct RecordedTestFile: Sendable {
    /// Where the case's stubs are.
    public enum Stubs: Sendable {
        /// A stub file, by its path relative to the test file (`flowrun run --record` wrote it too).
        case file(String)
        /// Written in the test file itself, under `stubs:`.
        case inline(MockStubs)
    }

    /// The workflow's path, relative to the test file.
    public var workflow: String
    /// The stubs the case replays.
    public var stubs: Stubs
    /// The values of the workflow's declared environment variables that the run read.
    public var environment: [String: String]
    /// The run's inputs.
    public var inputs: [String: JSONValue]
    /// The run's report.
    public var report: RunReport
    /// The calls the run made, as ``StubRecorder/calls()`` gives them.
    public var calls: [StubRecorder.Call]

    /// Creates the file's content.
    /// - Parameters:
    ///   - workflow: The workflow's path, relative to the test file.
    ///   - stubs: Where the stubs are.
    ///   - environment: The declared environment variables' values.
    ///   - inputs: The run's inputs.
    ///   - report: The run's report.
    ///   - calls: The recorded calls.
    public init(
        workflow: String, stubs: Stubs, environment: [String: String], inputs: [String: JSONValue],
        report: RunReport, calls: [StubRecorder.Call]
    ) {
        self.workflow = workflow
        self.stubs = stubs
        self.environment = environment
        self.inputs = inputs
        self.report = report
        self.calls = calls
    }

    /// The values in `environment` of the variables that `plan` and the workflows it calls declare under
    /// `env:`: what a run of it read.
    /// - Parameters:
    ///   - plan: The plan that ran.
    ///   - environment: The run's environment.
    /// - Returns: The declared variables that are set.
    public static func declaredEnvironment(of plan: Plan, in environment: [String: String]) -> [String: String] {
        var values: [String: String] = [:]
        func collect(_ plan: Plan) {
            for variable in plan.workflow.environment {
                values[variable.name.value] = environment[variable.name.value]
            }
            for step in plan.steps { step.subWorkflow.map(collect) }
        }
        collect(plan)
        return values
    }

    /// The test file's text, its secrets redacted with the run's redactor.
    /// - Parameter comments: Lines written first, as `#` comments.
    /// - Returns: The file's text.
    public func yaml(comments: [String] = []) -> String {
        let redactor = report.redactor
        var top: [(String, YAMLWriter.Node)] = [
            ("flowrun-test", .value(.int(1))), ("workflow", .value(.string(workflow))),
        ]
        if case .file(let path) = stubs { top.append(("mock", .value(.string(path)))) }
        if !environment.isEmpty {
            top.append(("env", .mapping(environment.sorted { $0.key < $1.key }.map {
                ($0.key, .value(.string(redactor.redact($0.value))))
            })))
        }
        if !inputs.isEmpty { top.append(("inputs", .value(redactor.redact(.object(inputs))))) }
        if case .inline(let stubs) = stubs { top.append(("stubs", stubs.yamlNode)) }
        var expect: [(String, YAMLWriter.Node)] = []
        if let error = report.error {
            var failure: [(String, YAMLWriter.Node)] = [("kind", .value(.string(error.code.name)))]
            if let step = error.stepID { failure.append(("step", .value(.string(step)))) }
            expect.append(("outcome", .mapping([("failure", .mapping(failure))])))
        } else if !report.outputs.isEmpty {
            expect.append(("outputs", .value(redactor.redact(.object(report.outputs)))))
        }
        expect.append(("calls", .sequence(calls.map { call in
            let query = call.matchableQuery.map {
                URLEncoding.percentEncodeQueryComponent($0.name) + "=" + URLEncoding.percentEncodeQueryComponent($0.value)
            }
            let path = RecordedPathPattern.literal(call.request.path)
            return .value(.string("\(call.request.method) \(path)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))))
        })))
        let testCase: YAMLWriter.Node = .mapping([("name", .value(.string("replays the recorded run"))), ("expect", .mapping(expect))])
        top.append(("cases", .sequence([testCase])))
        return YAMLWriter.render(.mapping(top), comments: comments)
    }
}
