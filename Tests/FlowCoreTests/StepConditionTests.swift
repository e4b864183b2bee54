import Testing
@testable import FlowCore

/// `if:` and `else:` on steps: a step runs only when its condition holds, a skipped step's outputs are its
/// `else` values, and lint refuses a reader that could see an output of a skipped step.
struct StepConditionTests {
    static func workflow(notify: String = #"if: "$inputs.notify == true""#, orElse: String = "else: { ticket: none }",
                         reader: String = "body: { ticket: $steps.notify.outputs.ticket }", readerIf: String = "") -> String
    {
        """
        flowrun: 1
        inputs: { type: object, properties: { notify: { type: boolean, default: false } } }
        steps:
          - id: user
            request: { method: GET, path: "https://api.test/user" }
            outputs: { id: $response.body#/id }
          - id: notify
            \(notify)
            request: { method: POST, path: "https://api.test/notify/{$steps.user.outputs.id}" }
            response: { 200: { type: object, required: [ticket], properties: { ticket: { type: string } } } }
            outputs: { ticket: $response.body#/ticket }
            \(orElse)
          - id: record
            \(readerIf)
            request: { method: PUT, path: "https://api.test/record", \(reader) }
        """
    }

    static var server: ScriptedDispatcher {
        ScriptedDispatcher { request, _ in
            request.url.hasSuffix("/user") ? json(200, #"{"id": "u1"}"#) : json(200, #"{"ticket": "T-9"}"#)
        }
    }

    /// The errors of checking `yaml` (warnings such as an unused input left out).
    func errors(_ yaml: String) -> [Diagnostic] {
        diagnostics(yaml).filter { $0.severity == .error }
    }

    @Test func aStepWhoseConditionDoesNotHoldIsSkippedAndItsElseValuesFlowOn() async throws {
        let dispatcher = Self.server
        let report = try await run(Self.workflow(), on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.url) == ["https://api.test/user", "https://api.test/record"])
        #expect(String(decoding: dispatcher.requests.last?.body ?? [], as: UTF8.self) == #"{"ticket":"none"}"#)
        let notify = try #require(report.steps.first { $0.id == "notify" })
        #expect(notify.status == .skipped)
        #expect(notify.skipReason == "its 'if' did not hold: $inputs.notify == true")
        #expect(notify.outputs == ["ticket": "none"])
        #expect(notify.attempts.isEmpty)
    }

    @Test func anElseValueThatIsASecretIsRedactedInTheReport() async throws {
        let yaml = """
            flowrun: 1
            inputs: { type: object, properties: { token: { type: string, format: password } } }
            steps:
              - id: maybe
                if: "$inputs.token == 'never'"
                request: { method: GET, path: "https://api.test/x" }
                outputs: { token: $response.body#/t }
                else: { token: $inputs.token }
            outputs: { token: $steps.maybe.outputs.token }
            """
        let report = try await run(yaml, on: Self.server, inputs: ["token": "s3cret-value"])
        #expect(report.succeeded)
        #expect(report.steps.first?.outputs == ["token": "***"])
        #expect(report.outputs == ["token": "***"])
    }

    @Test func aStepWhoseConditionHoldsRuns() async throws {
        let dispatcher = Self.server
        let report = try await run(Self.workflow(), on: dispatcher, inputs: ["notify": true])
        #expect(report.succeeded)
        #expect(dispatcher.requests.count == 3)
        #expect(String(decoding: dispatcher.requests.last?.body ?? [], as: UTF8.self) == #"{"ticket":"T-9"}"#)
    }

    @Test func aConditionOnAnEarlierOutputWaitsForIt() async throws {
        let dispatcher = Self.server
        let report = try await run(
            Self.workflow(notify: #"if: "$steps.user.outputs.id == 'u1'""#), on: dispatcher)
        #expect(report.succeeded)
        #expect(dispatcher.requests.count == 3)
    }

    @Test func aReaderWithoutAnElseValueOrGuardIsRefusedWhereItReads() {
        let found = errors(Self.workflow(orElse: ""))
        #expect(found.map(\.code) == [.maybeSkipped])
        #expect(found.first?.location?.line == 15)
        #expect(found.first?.message == "'$steps.notify.outputs.ticket' may not exist: step 'notify' is skipped when "
            + "its 'if' (line 8) does not hold; give the output a value for that case, 'else: { ticket: … }' on step "
            + "'notify', or give step 'record' the same 'if'")
    }

    @Test func theSameConditionOnInputsGuardsTheReader() {
        #expect(diagnostics(Self.workflow(orElse: "", readerIf: #"if: "$inputs.notify == true""#)).isEmpty)
        // A condition on an output may differ by the time the reader is ready: it is no guard.
        let onOutput = #"if: "$steps.user.outputs.id == 'u1'""#
        #expect(errors(Self.workflow(notify: onOutput, orElse: "", readerIf: onOutput)).map(\.code)
            == [.maybeSkipped])
    }

    @Test func theSameIfIsOfferedOnlyWhenItWouldGuardTheReader() {
        let skipped = "'$steps.notify.outputs.ticket' may not exist: step 'notify' is skipped when its 'if' (line 8) "
            + "does not hold; give the output a value for that case, 'else: { ticket: … }' on step 'notify'"
        // A condition on inputs guards the reader: offered, also to a reader with another `if`.
        #expect(errors(Self.workflow(orElse: "", readerIf: #"if: "$inputs.notify == false""#)).map(\.message)
            == [skipped + ", or give step 'record' the same 'if'"])
        // A condition on an output is no guard: only the `else` value is offered.
        let onOutput = #"if: "$steps.user.outputs.id == 'u1'""#
        #expect(errors(Self.workflow(notify: onOutput, orElse: "")).map(\.message) == [skipped])
        // A reader that has it already is told why it does not count.
        #expect(errors(Self.workflow(notify: onOutput, orElse: "", readerIf: onOutput)).map(\.message)
            == [skipped + "; the same 'if' on step 'record' is no guard, as the condition reads more than $inputs "
                + "or $env and may change before the reader runs"])
    }

    @Test func elseMustNameDeclaredOutputsWithValuesOfTheirType() {
        #expect(diagnostics(Self.workflow(orElse: "else: { tikcet: none }", reader: "body: {}")).map(\.message)
            == ["'else' gives output 'tikcet', which step 'notify' does not declare; did you mean 'ticket'?"])
        #expect(diagnostics(Self.workflow(orElse: "else: { ticket: 7 }")).map(\.message)
            == ["'else' value of output 'ticket' does not fit the type the output has when the step runs: at (root): "
                + "expected a string, found the number 7"])
        #expect(errors(Self.workflow(notify: "", reader: "body: {}")).map(\.message)
            == ["'else' gives step 'notify' outputs for when its 'if' does not hold, but the step has no 'if'"])
    }

    @Test func aConditionIsCheckedLikeABinding() {
        #expect(errors(Self.workflow(notify: #"if: "$inputs.notfy == true""#)).map(\.code) == [.unknownReference])
        #expect(errors(Self.workflow(notify: #"if: "$response.body#/x == 1""#)).map(\.code) == [.invalidExpression])
    }

    @Test func theMachineSkipsTheStepAndStartsWhatFollows() throws {
        let plan = try plan(Self.workflow())
        let scope = RunScope(
            inputs: ["notify": false], environment: [:], variables: RunVariables([:]), response: nil)
        var machine = RunStateMachine(plan: plan, scope: scope, limit: 4, seed: nil)
        _ = machine.start()
        let report = StepReport(id: "user", status: .succeeded, attempts: [], startedAfter: .zero, duration: .zero,
                                outputs: ["id": "u1"])
        let actions = machine.stepFinished(StepResult(outputs: ["id": "u1"], report: report), runCancelled: false)
        let words = actions.map { action -> String in
            switch action {
            case .record(let report): "record \(report.id) \(report.status.rawValue)"
            case .startStep(let planned, let outputs): "start \(planned.id) after \(outputs.named.keys.sorted())"
            default: "other"
            }
        }
        #expect(words == ["record user succeeded", "record notify skipped", #"start record after ["notify", "user"]"#])
        #expect(machine.completedOutputs["notify"] == ["ticket": "none"])
    }
}
