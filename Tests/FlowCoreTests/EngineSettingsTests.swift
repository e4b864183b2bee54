@testable import FlowCore
import FlowTestServer
import Logging
import Testing

/// An engine makes what its runs read (``EngineSettings``) when it is created and again when one of those
/// properties changes: a change after creation is what the next run uses, and a copy keeps its own.
struct EngineSettingsTests {
    static let workflow = """
        flowrun: 1
        steps:
          - id: one
            request: { method: GET, path: "https://api.test/one" }
        """

    @Test func aChangedDispatcherIsTheNextRunsAndACopyKeepsItsOwn() async throws {
        let plan = try plan(Self.workflow)
        let first = ScriptedDispatcher { _, _ in json(200, "{}") }
        let second = ScriptedDispatcher { _, _ in json(200, "{}") }
        var engine = engine(first)
        let copy = engine
        engine.dispatchers = DispatcherRegistry(["http": second])

        #expect(await engine.run(plan, inputs: [:], environment: [:]).succeeded)
        #expect(second.requests.count == 1)
        #expect(first.requests.isEmpty)
        #expect(await copy.run(plan, inputs: [:], environment: [:]).succeeded)
        #expect(first.requests.count == 1)

        engine.dispatcherOverride = "elsewhere"
        let overridden = await engine.run(plan, inputs: [:], environment: [:])
        #expect(overridden.error?.message.contains("'elsewhere'") == true, "\(String(describing: overridden.error))")
        #expect(second.requests.count == 1)
    }

    @Test func aLoggerSetAfterCreationLogsTheRunWithItsID() async throws {
        let capture = CapturedLogs()
        var engine = engine(ScriptedDispatcher { _, _ in json(200, "{}") })
        engine.logger = Logger(label: "test") { _ in capture.handler() }
        let report = await engine.run(try plan(Self.workflow), inputs: [:], environment: [:])
        let started = capture.entries.filter { $0.message == "step started" }
        #expect(started.count == 1)
        #expect(started.first?.metadata["run"] == report.runID)
    }
}
