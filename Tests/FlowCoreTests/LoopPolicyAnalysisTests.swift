import Testing
@testable import FlowCore

/// `lint --explain` on loops, fan-out and sub-workflows: a `repeat` or `paginate` step's worst case is its
/// limit times one iteration's plus the waits, a `forEach` step's is per item (the count is unknown until run
/// time), and a `workflow:` step's is the called workflow's total.
struct LoopPolicyAnalysisTests {
    /// A workflow with one GET step `a`: `policy` under `policies: { p: … }`, and `extra` keys on the step.
    private static func oneStep(policy: String, extra: String) -> String {
        """
        flowrun: 1
        servers: { api: "https://api.example.com" }
        defaults: { server: api }
        policies:
          p: \(policy)
        steps:
          - id: list
            request: { method: GET, path: /list }
            outputs: { ids: $response.body }
          - id: a
            policy: p
            request: { method: GET, path: "/a/{$steps.list.outputs.ids#/0}" }
        \(extra)
        """
    }

    private static func analysis(_ yaml: String) throws -> PolicyAnalysis {
        PolicyAnalysis(plan: try plan(yaml))
    }

    @Test func repeatMultipliesOneIterationByMaxIterationsAndAddsEveryWait() throws {
        // Waits after iterations 0, 1, 2: 1s, 2s, then 4s capped to 3s.
        let yaml = Self.oneStep(policy: "{ timeout: { attempt: 1s } }", extra: """
                repeat:
                  until: $response.body#/done == true
                  maxIterations: 4
                  delay: 1s
                  backoff: exponential
                  maxDelay: 3s
            """)
        let step = try #require(try Self.analysis(yaml).step("a"))
        #expect(step.attempts == 4)
        #expect(step.requests == 4)
        #expect(step.duration == .atMost(.seconds(10)))
        #expect(step.loop == PolicyAnalysis.Loop(
            kind: .repeat, maxIterations: 4, maxConcurrency: nil, attempts: 1, requests: 1,
            duration: .atMost(.seconds(1)), waits: .seconds(6)))
    }

    @Test func paginateMultipliesEveryPagesRetriesByMaxPages() throws {
        let yaml = Self.oneStep(
            policy: "{ timeout: { attempt: 2s, total: 5s }, retry: [{ attempts: 3, delay: 100ms }] }",
            extra: "    paginate: { next: link, maxPages: 50 }")
        let step = try #require(try Self.analysis(yaml).step("a"))
        #expect(step.loop?.attempts == 3)
        #expect(step.attempts == 150)
        #expect(step.requests == 150)
        // Each page ends at its total timeout; no wait between pages by default.
        #expect(step.loop?.duration == .totalTimeout(.seconds(5)))
        #expect(step.duration == .atMost(.seconds(250)))
    }

    @Test func forEachIsPerItemAndTheTotalListsItInsteadOfAddingIt() throws {
        let yaml = Self.oneStep(policy: "{ timeout: { attempt: 1s }, retry: [{ when: { errors: [transport] }, attempts: 3, delay: 1s }] }", extra: """
                forEach: $steps.list.outputs.ids
                maxConcurrency: 4
            """)
        let analysis = try Self.analysis(yaml)
        let step = try #require(analysis.step("a"))
        #expect(step.loop?.isPerItem == true)
        #expect(step.loop?.maxIterations == nil)
        #expect(step.loop?.maxConcurrency == 4)
        #expect(step.attempts == 3)
        #expect(step.duration == .atMost(.seconds(5)))
        // `list` (no policy) is unbounded, so the known part has no longest time.
        #expect(analysis.total == PolicyAnalysis.Total(
            requests: 1, duration: nil,
            perItem: [.init(id: "a", requests: 3, duration: .atMost(.seconds(5)), maxConcurrency: 4)]))
        #expect(analysis.total.isLowerBound)
    }

    @Test func theTotalAddsTheRegularStepsAndTheDeadlineCapsIt() throws {
        let yaml = """
            flowrun: 1
            deadline: 10s
            servers: { api: "https://api.example.com" }
            policies:
              p: { timeout: { attempt: 4s } }
            defaults: { server: api, policy: p }
            steps:
              - { id: a, request: { method: GET, path: /a } }
              - { id: b, request: { method: GET, path: /b }, repeat: { until: $response.body#/done == true, maxIterations: 3, delay: 1s } }
              - { id: c, on-demand: true, request: { method: GET, path: /c } }
            """
        let total = try Self.analysis(yaml).total
        // a: 1 request, 4s; b: 3 requests, 3 × 4s + 2 × 1s = 14s; the on-demand c is not counted.
        #expect(total.requests == 4)
        #expect(total.duration == .seconds(10))
        #expect(total.isDeadline)
        #expect(!total.isLowerBound)
    }

    @Test func aWorkflowStepCostsTheCalledWorkflowsTotal() throws {
        let login = """
            flowrun: 1
            servers: { auth: "https://auth.test" }
            policies:
              p: { timeout: { attempt: 2s }, retry: [{ when: { errors: [transport] }, attempts: 3, delay: 1s }] }
            defaults: { server: auth, policy: p }
            steps:
              - id: token
                request: { method: GET, path: /token }
                outputs: { ids: $response.body }
              - id: each
                forEach: $steps.token.outputs.ids
                request: { method: GET, path: "/x/{$item}" }
            outputs: { token: $steps.token.outputs.ids }
            """
        let caller = """
            flowrun: 1
            steps:
              - { id: login, workflow: ./login.yaml }
            """
        let plan = try SubWorkflowTests.compiler(["flows/login.yaml": login]).compile(yaml: caller, path: "flows/main.yaml")
        let analysis = PolicyAnalysis(plan: plan)
        let step = try #require(analysis.step("login"))
        // token: 3 attempts, 3 × 2s + 2 × 1s = 8s; each: per item, left to the total's per-item list.
        #expect(step.requests == 3)
        #expect(step.duration == .atMost(.seconds(8)))
        #expect(step.subWorkflow?.path == "./login.yaml")
        #expect(analysis.total.requests == 3)
        #expect(analysis.total.perItem.map(\.id) == ["login/each"])
    }
}
