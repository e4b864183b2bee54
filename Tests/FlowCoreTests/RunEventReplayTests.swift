import Foundation
import Synchronization
import Testing
@testable import FlowCore

/// A run's events, recorded in order and decoded again, bring a new state machine to the run's state: the same
/// reports, outputs and vars, the seeds of its `Idempotency-Key`s, and a snapshot that resumes where it was taken.
struct RunEventReplayTests {
    static let workflow = """
        flowrun: 1
        servers: { api: https://api.test }
        defaults: { server: api }
        vars: { tier: basic }
        steps:
          - id: login
            request: { method: POST, path: /login }
            idempotencyKey: true
            outputs: { token: $response.body#/token }
            set: { tier: $response.body#/tier }
          - id: upgrade
            if: "$vars.tier == 'gold'"
            request: { method: GET, path: /gold, headers: { Authorization: "Bearer {$steps.login.outputs.token}" } }
            outputs: { perks: $response.body#/perks }
            else: { perks: [] }
          - id: flaky
            request: { method: GET, path: /flaky }
            after: login
          - id: notify
            on-demand: true
            request: { method: POST, path: /notify }
            idempotent: true
        catch:
          - { when: { step: flaky, status: 503 }, run: notify, then: continue }
        outputs: { perks: $steps.upgrade.outputs.perks }
        """

    static func server() -> ScriptedDispatcher { ScriptedDispatcher { request, _ in
        switch request.path {
        case "/login": json(200, #"{"token": "t-1", "tier": "gold"}"#)
        case "/gold": json(200, #"{"perks": ["lounge"]}"#)
        case "/flaky": json(503, #"{"message": "busy"}"#)
        default: json(200, "{}")
        }
    } }

    /// Runs the workflow with a journal: the report, the requests and the events decoded from their JSON.
    static func recordedRun() async throws -> (RunReport, ScriptedDispatcher, [RunEvent], Plan) {
        let compiled = try plan(workflow)
        let dispatcher = server()
        var runner = engine(dispatcher)
        let journal = RunEventLog()
        runner.journal = journal
        let report = await runner.run(compiled, inputs: [:], environment: [:])
        let data = try JSONEncoder().encode(journal.recorded)
        return (report, dispatcher, try JSONDecoder().decode([RunEvent].self, from: data), compiled)
    }

    /// A machine for `plan` that has taken `events`, and the reports its `record` actions gave, in order.
    static func replay(_ events: [RunEvent], of plan: Plan, from snapshot: RunStateMachine.Snapshot? = nil)
        -> (RunStateMachine, [StepReport])
    {
        let scope = RunScope(inputs: [:], environment: [:], variables: RunVariables([:]), response: nil)
        var machine = snapshot.map { RunStateMachine(plan: plan, scope: scope, limit: 8, seed: nil, resuming: $0) }
            ?? RunStateMachine(plan: plan, scope: scope, limit: 8, seed: nil)
        var reports: [StepReport] = []
        var actions: [RunStateMachine.Action] = []
        for event in events {
            machine.apply(event, into: &actions)
            for case .record(let report) in actions { reports.append(report) }
            actions.removeAll()
        }
        return (machine, reports)
    }

    /// For every event but the first: a machine that took the events before it, stored as JSON and restored,
    /// then given the rest, ends in the state of a machine that took them all.
    static func expectResumesAfterEveryEvent(_ events: [RunEvent], of plan: Plan) throws {
        let (whole, _) = replay(events, of: plan)
        for cut in 1..<events.count {
            let (first, _) = replay(Array(events[..<cut]), of: plan)
            let stored = try JSONDecoder().decode(
                RunStateMachine.Snapshot.self, from: Data(try snapshotJSON(first.snapshot).utf8))
            let (resumed, _) = replay(Array(events[cut...]), of: plan, from: stored)
            #expect(try snapshotJSON(resumed.snapshot) == snapshotJSON(whole.snapshot), "resumed after event \(cut)")
        }
    }

    static func snapshotJSON(_ snapshot: RunStateMachine.Snapshot) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(snapshot), as: UTF8.self)
    }

    @Test func recordedEventsReplayToTheSameReportsOutputsAndVars() async throws {
        let (report, _, events, compiled) = try await Self.recordedRun()
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["perks"] == ["lounge"])
        let (machine, reports) = Self.replay(events, of: compiled)
        #expect(reports.map(\.id) == report.steps.map(\.id))
        #expect(reports.map(\.status) == report.steps.map(\.status))
        // The `if` of upgrade read the var login set: it reached the machine in login's event.
        #expect(machine.completedOutputs["upgrade"] == ["perks": ["lounge"]])
        #expect(machine.snapshot.vars["tier"] == "gold")
        #expect(machine.isEnding)
        // Only login sends an Idempotency-Key, so only its start draws a seed.
        #expect(events.compactMap { if case .stepStarted(let id, _) = $0 { id } else { nil } } == ["login"])
    }

    @Test func theIdempotencyKeyComesFromTheSeedTheStartEventCarries() async throws {
        let (_, dispatcher, events, compiled) = try await Self.recordedRun()
        let sent = try #require(dispatcher.requests.first { $0.path == "/login" }?.headers["Idempotency-Key"])
        let (machine, _) = Self.replay(events, of: compiled)
        let seed = try #require(machine.seeds["login"])
        // A resumed run that sends login again sends the key it sent before.
        #expect(StepRunner.idempotencyKey(seed: seed, LoopPosition()) == sent)
        #expect(StepRunner.idempotencyKey(seed: seed &+ 1, LoopPosition()) != sent)
    }

    @Test func aSnapshotResumesWhereItWasTaken() async throws {
        let (_, _, events, compiled) = try await Self.recordedRun()
        try Self.expectResumesAfterEveryEvent(events, of: compiled)
    }

    /// A run with a switch, a repeat loop, a forEach and a skipped step replays to the same reports and outputs,
    /// and resumes from a snapshot taken after any of its events.
    @Test func aRunWithControlFlowReplaysAndResumes() async throws {
        let yaml = """
            flowrun: 1
            servers: { api: https://api.test }
            defaults: { server: api }
            steps:
              - id: account
                request: { method: GET, path: /account }
                outputs: { country: $response.body#/country, ids: $response.body#/ids }
              - id: payout
                switch: $steps.account.outputs.country
                cases: { DE: sepa }
                default: wire
              - id: sepa
                on-demand: true
                request: { method: POST, path: /sepa }
                idempotencyKey: true
                outputs: { ref: $response.body#/ref }
              - id: wire
                on-demand: true
                request: { method: POST, path: /wire }
                idempotencyKey: true
                outputs: { ref: $response.body#/ref }
              - id: wait
                request: { method: GET, path: "/payouts/{$steps.payout.outputs.ref}" }
                repeat: { until: "$response.body#/state == 'sent'", delay: 1ms }
                outputs: { state: $response.body#/state }
              - id: details
                forEach: $steps.account.outputs.ids
                maxConcurrency: 2
                request: { method: GET, path: "/items/{$item}" }
                outputs: { name: $response.body#/name }
              - id: notify
                if: "$steps.account.outputs.country == 'FR'"
                request: { method: POST, path: /notify }
                idempotent: true
            outputs: { state: $steps.wait.outputs.state, names: $steps.details.outputs.name }
            """
        let polls = Mutex(0)
        let dispatcher = ScriptedDispatcher { request, _ in
            switch request.path {
            case "/account": return json(200, #"{"country": "DE", "ids": ["a", "b", "c"]}"#)
            case "/sepa": return json(200, #"{"ref": "p-1"}"#)
            case "/payouts/p-1":
                let count = polls.withLock { count in
                    count += 1
                    return count
                }
                return json(200, count < 3 ? #"{"state": "queued"}"# : #"{"state": "sent"}"#)
            default: return json(200, #"{"name": "n"}"#)
            }
        }
        let compiled = try plan(yaml)
        var runner = engine(dispatcher)
        let journal = RunEventLog()
        runner.journal = journal
        let report = await runner.run(compiled, inputs: [:], environment: [:])
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["state"] == "sent")
        let events = try JSONDecoder().decode([RunEvent].self, from: JSONEncoder().encode(journal.recorded))
        let (whole, reports) = Self.replay(events, of: compiled)
        #expect(reports.map(\.id) == report.steps.map(\.id))
        #expect(reports.map(\.status) == report.steps.map(\.status))
        #expect(reports.first { $0.id == "payout" }?.chose == "sepa")
        #expect(reports.first { $0.id == "notify" }?.skipReason != nil)
        #expect(whole.completedOutputs["details"] == ["name": ["n", "n", "n"]])
        // The switch step's start drew the seed of its case step's key.
        let sent = try #require(dispatcher.requests.first { $0.path == "/sepa" }?.headers["Idempotency-Key"])
        let seed = try #require(whole.seeds["payout"])
        #expect(StepRunner.idempotencyKey(seed: seed, LoopPosition()) == sent)
        try Self.expectResumesAfterEveryEvent(events, of: compiled)
    }

    /// A failed run's compensations are events too: the replay records their reports where the run did, and
    /// resumes from a snapshot taken before, between or after them.
    @Test func aFailedRunsCompensationsReplayAndResume() async throws {
        let dispatcher = FailureHandlingTests.sagaServer()
        let compiled = try plan(FailureHandlingTests.saga)
        var runner = engine(dispatcher)
        let journal = RunEventLog()
        runner.journal = journal
        let report = await runner.run(compiled, inputs: [:], environment: [:])
        let error = try #require(report.error)
        #expect(error.message.contains("compensation 'refund' of step 'charge' failed too"))
        let events = try JSONDecoder().decode([RunEvent].self, from: JSONEncoder().encode(journal.recorded))
        #expect(events.filter { if case .compensationFinished = $0 { true } else { false } }.count == 2)
        let (whole, reports) = Self.replay(events, of: compiled)
        #expect(reports.map(\.id) == report.steps.map(\.id))
        #expect(reports.map(\.id) == ["reserve", "charge", "ship", "refund", "reserve/compensate"])
        #expect(reports.map(\.status) == report.steps.map(\.status))
        #expect(whole.isEnding)
        try Self.expectResumesAfterEveryEvent(events, of: compiled)
    }

    @Test func eventsEncodeAsJSONThatNamesWhatHappened() throws {
        var result = StepResult(
            outputs: ["token": "t-1"],
            report: StepReport(id: "login", status: .succeeded, attempts: [], startedAfter: .zero,
                               duration: .milliseconds(12), outputs: ["token": "t-1"]))
        result.response = DecodedResponse(status: 200, headers: [:], body: "not recorded")
        let data = try JSONEncoder().encode(RunEvent.stepFinished(result, runCancelled: false, vars: ["n": 1]))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""stepFinished""#))
        #expect(!text.contains("not recorded"))  // Only what the machine reads of a result is recorded.
        guard case .stepFinished(let decoded, false, let vars) = try JSONDecoder().decode(RunEvent.self, from: data)
        else {
            Issue.record("decoded as another event")
            return
        }
        #expect(decoded.outputs.named == ["token": "t-1"])
        #expect(decoded.report.duration == .milliseconds(12))
        #expect(vars == ["n": 1])
    }
}
