import Foundation
import FlowOpenAPI
import Testing
@testable import FlowCore

/// `flowrun lint` checks files without building plans (``WorkflowCompiler/buildsPlan``): it must find exactly what
/// a compilation that builds them finds, and build none.
@Suite struct LintWithoutPlanTests {
    private static let examples: [String] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../workflows").standardized
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") && !$0.contains(".mock.") && !$0.contains(".test.") }
            .sorted().map { folder.appendingPathComponent($0).path }
    }()

    /// Every finding, as lint prints it.
    private func findings(_ result: WorkflowCompiler.Result) -> [String] {
        result.diagnostics.map { "\($0.severity) \($0.code) \($0.location.map(String.init(describing:)) ?? "-") \($0.message)" }
    }

    private func compilers() -> (building: WorkflowCompiler, checking: WorkflowCompiler) {
        var checking = WorkflowCompiler().withOpenAPI()
        checking.buildsPlan = false
        return (WorkflowCompiler().withOpenAPI(), checking)
    }

    @Test func theExamplesGiveTheSameFindingsAndNoPlan() throws {
        try #require(Self.examples.count >= 10, "the examples folder was not found")
        let (building, checking) = compilers()
        for path in Self.examples {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let built = building.check(bytes: bytes, path: path)
            let checked = checking.check(bytes: bytes, path: path)
            #expect(findings(checked) == findings(built), "\(path)")
            #expect(checked.plan == nil, "\(path)")
            #expect(checked.arazzoWorkflows.allSatisfy { $0.plan == nil }, "\(path)")
        }
    }

    /// A workflow whose second retry rule never applies (a warning), with `steps` under it.
    private static func workflow(steps: String) -> String {
        """
        flowrun: 1
        servers: { api: "https://api.example.com" }
        defaults: { server: api }
        policies:
          p:
            retry:
              - { when: { status: 5XX }, attempts: 3 }
              - { when: { status: 503 }, attempts: 2 }
        steps:
        \(steps)
        """
    }

    /// `yaml` checked by a compiler that builds plans and by one that does not.
    private func bothWays(_ yaml: String) -> (built: WorkflowCompiler.Result, checked: WorkflowCompiler.Result) {
        let (building, checking) = compilers()
        return (building.check(yaml: yaml, path: "t.yaml"), checking.check(yaml: yaml, path: "t.yaml"))
    }

    @Test func aFileWithErrorsAndWarningsGivesTheSameFindings() {
        let (built, checked) = bothWays(Self.workflow(steps: """
              - id: a
                if: $inputs.go == true
                policy: p
                request: { method: GET, path: /a }
                outputs: { id: $response.body#/id }
              - id: b
                request: { method: GET, path: "/b/{$steps.a.outputs.id}/{$steps.c.outputs.x}" }
            """))
        #expect(built.diagnostics.contains { $0.severity == .error })
        #expect(built.diagnostics.contains { $0.severity == .warning })
        #expect(findings(checked) == findings(built))
    }

    @Test func aFileWithWarningsOnlyGivesTheSameFindingsWithoutItsPlan() {
        let (built, checked) = bothWays(Self.workflow(steps: """
              - id: a
                policy: p
                request: { method: GET, path: /a }
            """))
        #expect(built.plan != nil)
        #expect(built.diagnostics.contains { $0.severity == .warning })
        #expect(findings(checked) == findings(built))
        #expect(checked.plan == nil)
    }
}
