import FlowCore
import Logging
import Testing

@testable import FlowTesting

/// `iterations:` and `items:` in a test's `expect`: counts per loop step, their differences worded, and lint
/// refusing them on a step without the loop.
struct LoopExpectationTests {
    static let workflow = """
        flowrun: 1
        servers: { api: https://api.test }
        defaults: { server: api }
        steps:
          - id: job
            request: { method: GET, path: /job }
            repeat: { until: "$response.body#/status == 'done'", delay: 10ms }
            outputs: { ids: $response.body#/ids }
          - id: details
            forEach: $steps.job.outputs.ids
            request: { method: GET, path: "/details/{$item}" }
            outputs: { name: $response.body#/name }
        outputs: { names: $steps.details.outputs.name }
        """

    static let stubs = """
        stubs:
          - match: { method: GET, path: /job }
            respond:
              - { body: { status: running } }
              - { body: { status: done, ids: [a, b, c] } }
          - match: { method: GET, path: "/details/{id}" }
            respond: { body: { name: x } }
        """

    static func results(_ cases: String) async throws -> [WorkflowTestResult] {
        let plan = try WorkflowCompiler().compile(yaml: Self.workflow, path: "wf.yaml")
        let file = try WorkflowTestFile.load(
            yaml: "flowrun-test: 1\nworkflow: wf.yaml\n" + Self.stubs + "\n" + cases, path: "t.test.yaml")
        #expect(file.lint(against: plan).isEmpty)
        let runner = WorkflowTestRunner(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        return await runner.run(WorkflowTestSuite(file: file, plan: plan))
    }

    @Test func matchingCountsPass() async throws {
        let results = try await Self.results("""
            cases:
              - name: counts
                expect: { iterations: { job: 2 }, items: { details: 3 }, attempts: { job: 2, details: 3 }, elapsed: 10ms }
            """)
        #expect(results.first?.failures.isEmpty == true, "\(results.first?.failures ?? [])")
    }

    @Test func differentCountsAreWordedPerStep() async throws {
        let results = try await Self.results("""
            cases:
              - name: counts
                expect: { iterations: { job: 5 }, items: { details: 1 } }
            """)
        let failures = try #require(results.first?.failures)
        #expect(failures.map(\.kind) == [.iterations, .items])
        #expect(failures.first?.message == "iterations differ")
        #expect(failures.first?.details == ["step job: expected 5 iterations, actual 2"])
        #expect(failures.last?.details == ["step details: expected 1 item, actual 3"])
    }

    /// The elapsed diff explains the time: the wait between two iterations of a `repeat` step is part of it.
    @Test func elapsedDiffListsTheWaitsBetweenIterations() async throws {
        let results = try await Self.results("""
            cases:
              - name: time
                expect: { elapsed: 1s }
            """)
        let failure = try #require(results.first?.failures.first)
        #expect(failure.kind == .elapsed)
        #expect(failure.message == "expected the run to take 1s of virtual time, it took 10ms")
        #expect(failure.details == ["step job, after iteration 0: waited 10ms"])
    }

    @Test func lintRefusesCountsOfStepsWithoutTheLoop() throws {
        let plan = try WorkflowCompiler().compile(yaml: Self.workflow, path: "wf.yaml")
        let file = try WorkflowTestFile.load(
            yaml: "flowrun-test: 1\nworkflow: wf.yaml\n" + Self.stubs + """

                cases:
                  - name: wrong steps
                    expect: { iterations: { details: 1 }, items: { job: 1, jobs: 2 } }
                """,
            path: "t.test.yaml")
        let messages = file.lint(against: plan).map(\.message)
        #expect(messages.contains("step 'details' has no 'repeat' or 'paginate', so it has no iterations to count"))
        #expect(messages.contains("step 'job' has no 'forEach', so it has no items to count"))
        #expect(messages.contains { $0.hasPrefix("the workflow has no step 'jobs'") })
    }

    /// A switch step reports the case step it ran, iterations included: `iterations` counts them under the switch
    /// step, and naming the case step, which has no report of its own, is refused with the switch step suggested.
    @Test func aSwitchStepCountsTheIterationsOfItsCase() async throws {
        let workflow = """
            flowrun: 1
            servers: { api: https://api.test }
            defaults: { server: api }
            inputs: { type: object, properties: { country: { type: string } } }
            steps:
              - id: route
                switch: $inputs.country
                cases: { de: poll }
              - id: poll
                on-demand: true
                request: { method: GET, path: /job }
                repeat: { until: "$response.body#/status == 'done'", delay: 10ms }
            """
        let plan = try WorkflowCompiler().compile(yaml: workflow, path: "wf.yaml")
        func file(_ expect: String) throws -> WorkflowTestFile {
            try WorkflowTestFile.load(yaml: """
                flowrun-test: 1
                workflow: wf.yaml
                inputs: { country: de }
                stubs:
                  - match: { method: GET, path: /job }
                    respond: [{ body: { status: running } }, { body: { status: done } }]
                cases:
                  - name: counts
                    expect: \(expect)
                """, path: "t.test.yaml")
        }
        let counted = try file("{ iterations: { route: 2 } }")
        #expect(counted.lint(against: plan).isEmpty, "\(counted.lint(against: plan))")
        let runner = WorkflowTestRunner(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let results = await runner.run(WorkflowTestSuite(file: counted, plan: plan))
        #expect(results.first?.failures.isEmpty == true, "\(results.first?.failures ?? [])")

        let diagnostics = try file("{ iterations: { poll: 2 } }").lint(against: plan)
        #expect(diagnostics.map(\.message) == [
            "step 'poll' has no report of its own: it runs as a case of switch step 'route', which sends its "
                + "requests and counts its attempts; did you mean 'route'?",
        ])
        #expect(diagnostics.first?.location?.line == 9)
    }
}
