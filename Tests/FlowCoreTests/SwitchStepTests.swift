import Foundation
import Testing
@testable import FlowCore

/// `switch:` steps: the value chooses the on-demand case step that runs in the step's place, a value that
/// matches no case skips the step (unless there is a `default`), and lint checks the cases against the steps
/// and the value's type.
struct SwitchStepTests {
    /// A payout routed by an account's country: `sepa` for DE and AT, `wire` for US.
    static func workflow(
        cases: String = "{ DE: sepa, AT: sepa, US: wire }", extra: String = "",
        wireOutputs: String = "{ ref: $response.body#/ref }",
        reader: String = "body: { ref: $steps.payout.outputs.ref }", countryType: String = "{ type: string }"
    ) -> String {
        """
        flowrun: 1
        types:
          Account: { type: object, required: [country], properties: { country: \(countryType) } }
        steps:
          - id: account
            request: { method: GET, path: "https://api.test/account" }
            response: { 200: Account }
            outputs: { country: $response.body#/country }
          - id: payout
            switch: $steps.account.outputs.country
            cases: \(cases)
            \(extra)
          - id: sepa
            on-demand: true
            request: { method: POST, path: "https://api.test/sepa" }
            response: { 200: { type: object, properties: { ref: { type: string } } } }
            outputs: { ref: $response.body#/ref }
          - id: wire
            on-demand: true
            request: { method: POST, path: "https://api.test/wire" }
            response: { 200: { type: object, properties: { ref: { type: string } } } }
            outputs: \(wireOutputs)
          - id: notify
            request: { method: POST, path: "https://api.test/notify", \(reader) }
            idempotent: true
        """
    }

    /// Answers the account with `country`, and every payout with its path as `ref`; fails the paths in `failing`.
    static func server(country: String, failing: Set<String> = []) -> ScriptedDispatcher {
        ScriptedDispatcher { request, _ in
            if request.url.hasSuffix("/account") { return json(200, #"{"country": "\#(country)"}"#) }
            let path = String(request.url.split(separator: "/").last ?? "")
            if failing.contains(path) { return json(503, #"{"error": "down"}"#) }
            return json(200, #"{"ref": "\#(path)"}"#)
        }
    }

    /// The errors of checking `yaml`, as `line:column: message`.
    func errors(_ yaml: String) -> [String] {
        diagnostics(yaml).filter { $0.severity == .error }.map {
            "\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.message)"
        }
    }

    // MARK: Running

    @Test func theValueChoosesTheCaseStepWhoseOutputsAreTheSwitchSteps() async throws {
        let dispatcher = Self.server(country: "AT")
        let report = try await run(Self.workflow(extra: "default: wire"), on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.calls == ["GET /account", "POST /sepa", "POST /notify"])
        #expect(String(decoding: dispatcher.requests.last?.body ?? [], as: UTF8.self) == #"{"ref":"sepa"}"#)
        let payout = try #require(report.steps.first { $0.id == "payout" })
        #expect(payout.status == .succeeded)
        #expect(payout.chose == "sepa")
        #expect(payout.matchedCase == "AT")
        #expect(payout.outputs == ["ref": "sepa"])
        #expect(payout.attempts.map(\.url) == ["https://api.test/sepa"])
        #expect(!report.steps.contains { $0.id == "sepa" })
    }

    @Test func aValueThatMatchesNoCaseRunsTheDefault() async throws {
        let dispatcher = Self.server(country: "FR")
        let report = try await run(Self.workflow(extra: "default: wire"), on: dispatcher)
        #expect(report.succeeded)
        #expect(dispatcher.calls == ["GET /account", "POST /wire", "POST /notify"])
        let payout = try #require(report.steps.first { $0.id == "payout" })
        #expect(payout.chose == "wire")
        #expect(payout.matchedCase == "default")
    }

    @Test func withoutADefaultAValueThatMatchesNoCaseSkipsTheStepWithItsReason() async throws {
        let dispatcher = Self.server(country: "FR")
        let report = try await run(Self.workflow(extra: "else: { ref: none }"), on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.calls == ["GET /account", "POST /notify"])
        #expect(String(decoding: dispatcher.requests.last?.body ?? [], as: UTF8.self) == #"{"ref":"none"}"#)
        let payout = try #require(report.steps.first { $0.id == "payout" })
        #expect(payout.status == .skipped)
        #expect(payout.skipReason == #"its 'switch' value "FR" matched none of its cases (DE, AT, US)"#)
        #expect(payout.chose == nil)
    }

    @Test func aFailingCaseStepFailsTheSwitchStepWithItsError() async throws {
        let dispatcher = Self.server(country: "US", failing: ["wire"])
        let report = try await run(Self.workflow(extra: "default: wire"), on: dispatcher)
        let error = try #require(report.error)
        #expect(error.stepID == "payout")
        #expect(error.code == .httpStatus)
        #expect(error.status == 503)
        #expect(error.message.hasPrefix("case 'US' (step 'wire'): status 503"), "\(error.message)")
        let payout = try #require(report.steps.first { $0.id == "payout" })
        #expect(payout.status == .failed)
        #expect(payout.chose == "wire")
        #expect(!dispatcher.calls.contains("POST /notify"))
    }

    @Test func anIfOnASwitchStepIsEvaluatedFirst() async throws {
        let dispatcher = Self.server(country: "DE")
        let report = try await run(
            Self.workflow(extra: "if: \"$steps.account.outputs.country == 'US'\"\n    else: { ref: none }"),
            on: dispatcher)
        #expect(report.succeeded)
        #expect(dispatcher.calls == ["GET /account", "POST /notify"])
        #expect(report.steps.first { $0.id == "payout" }?.skipReason
            == #"its 'if' did not hold: $steps.account.outputs.country == "US""#)
    }

    @Test func numbersAndBooleansMatchKeysWrittenAsThoseScalars() {
        let number = Switch.Case(text: "1", value: .int(1), location: SourceLocation(path: "t", line: 1, column: 1),
                                 step: Located("a", at: SourceLocation(path: "t", line: 1, column: 1)))
        #expect(number.matches(.int(1)) && number.matches(.double(1)) && number.matches("1"))
        #expect(!number.matches(.bool(true)))
        let yes = Switch.Case(text: "true", value: .bool(true), location: number.location, step: number.step)
        #expect(yes.matches(.bool(true)) && yes.matches("true") && !yes.matches(.int(1)))
    }

    // MARK: Lint

    @Test func aValidSwitchLintsClean() {
        #expect(diagnostics(Self.workflow(extra: "default: wire")).isEmpty)
    }

    @Test func anUnknownCaseStepIsRefusedWithASuggestion() {
        #expect(errors(Self.workflow(cases: "{ DE: sepa, US: wyre }", extra: "default: wire"))
            == ["11:28: switch step 'payout' runs unknown step 'wyre'; did you mean 'wire'?"])
    }

    @Test func aCaseStepMustBeOnDemand() {
        #expect(errors(Self.workflow(cases: "{ DE: sepa, US: account }", extra: "default: wire")).first
            == "11:28: switch step 'payout' runs step 'account', which is not on-demand; add 'on-demand: true' to "
            + "it so it does not also run in the main flow")
    }

    @Test func theCaseStepsMustDeclareTheSameOutputs() {
        #expect(errors(Self.workflow(extra: "default: wire", wireOutputs: "{ reference: $response.body#/ref }"))
            == ["11:34: the case steps of switch step 'payout' must declare the same outputs (they are its outputs): "
                + "'wire' (case 'US') lacks 'ref' and has 'reference', unlike 'sepa' (case 'DE')"])
    }

    @Test func aKeyThatCannotMatchTheValuesTypeIsRefusedAtTheKey() {
        #expect(errors(Self.workflow(extra: "default: wire", countryType: "{ enum: [DE, AT, US] }")).isEmpty)
        #expect(errors(Self.workflow(cases: "{ DE: sepa, ATT: sepa }", extra: "default: wire",
                                     countryType: "{ enum: [DE, AT, US] }"))
            == ["11:24: case 'ATT' can never match: '$steps.account.outputs.country' is one of DE, AT, US; did you "
                + "mean 'AT'?"])
        #expect(errors(Self.workflow(cases: "{ true: sepa, maybe: wire }", extra: "default: wire",
                                     countryType: "{ type: boolean }"))
            == ["11:26: case 'maybe' can never match: '$steps.account.outputs.country' is a boolean; write the case "
                + "as true or false"])
        #expect(errors(Self.workflow(cases: "{ DE: sepa }", extra: "default: wire", countryType: "{ type: object }"))
            .first?.hasPrefix("10:13: 'switch' reads '$steps.account.outputs.country', which is an object") == true)
    }

    @Test func aReaderOfASwitchWithoutADefaultMustHandleASkip() {
        let found = diagnostics(Self.workflow()).filter { $0.severity == .error }
        #expect(found.map(\.code) == [.maybeSkipped])
        #expect(found.first?.message == "'$steps.payout.outputs.ref' may not exist: step 'payout' is skipped when "
            + "its 'switch' value (line 10) matches no case; give the output a value for that case, "
            + "'else: { ref: … }' on step 'payout', or give the switch a 'default' case")
        #expect(diagnostics(Self.workflow(extra: "else: { ref: none }")).isEmpty)
        #expect(diagnostics(Self.workflow(extra: "default: wire")).isEmpty)
    }

    @Test func theOutputsOfASwitchStepAreTypedByItsCaseSteps() {
        #expect(errors(Self.workflow(extra: "default: wire", reader: "body: { ref: $steps.payout.outputs.reff }"))
            == ["24:98: step 'payout' has no output 'reff'; did you mean 'ref'?"])
        #expect(errors(Self.workflow(extra: "default: wire", reader: "headers: { X-Ref: $steps.payout.outputs.ref }"))
            .isEmpty)
    }

    @Test func keysForRequestsDoNotApplyToASwitchStep() {
        #expect(errors(Self.workflow(extra: "default: wire\n    policy: standard")).first
            == "13:5: 'policy' does not apply to switch step 'payout': it sends no request itself, and the case step "
            + "it runs has its own request, outputs and policy")
        #expect(errors(Self.workflow(cases: "{}", extra: "default: wire")).first
            == "11:12: switch step 'payout' needs at least one case under 'cases'")
    }

    @Test func theGraphDrawsAnEdgePerCaseStep() throws {
        let graph = PlanGraph(try plan(Self.workflow(extra: "default: wire")))
        let labels = graph.edges.filter { $0.kind == .switchCase }.map { "\($0.from) → \($0.to): \($0.label)" }
        #expect(labels == ["payout → sepa: DE, AT", "payout → wire: US, default"])
        #expect(graph.node(forStep: "payout")?.details == ["switch: $steps.account.outputs.country"])
    }

    @Test func theWorstCaseOfASwitchIsItsCostliestCase() throws {
        let yaml = Self.workflow(extra: "default: wire").replacingOccurrences(
            of: "flowrun: 1\n",
            with: """
                flowrun: 1
                policies:
                  patient: { timeout: { attempt: 2s }, retry: [{ when: { errors: [transport] }, attempts: 3, delay: 1s }] }

                """)
            .replacingOccurrences(of: "request: { method: POST, path: \"https://api.test/wire\" }",
                                  with: "request: { method: POST, path: \"https://api.test/wire\" }\n    policy: patient\n    idempotent: true")
        let analysis = PolicyAnalysis(plan: try plan(yaml))
        let payout = try #require(analysis.step("payout"))
        // The requests of the case that sends the most, the duration of the longest: `sepa` has no timeout.
        #expect(payout.requests == analysis.step("wire")?.requests)
        #expect(payout.requests == 3)
        #expect(payout.duration == .unbounded(.noTimeout))
        #expect(payout.switchCases == ["sepa", "wire"])
    }
}
