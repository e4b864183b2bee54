import FlowOpenAPI
import Foundation
import Testing
@testable import FlowCore

/// The plan's lowering resolves every `$steps.<id>.outputs.<name>` to the slot the run keeps the value in, and a
/// run reads it there.
struct OutputSlotTests {
    /// Every step-output expression reachable from `value`, found by reflection (independently of the
    /// resolver's own walk), with its slot.
    private func stepOutputExpressions(in value: Any) -> [RuntimeExpression] {
        var found: [RuntimeExpression] = []
        var seen: Set<ObjectIdentifier> = []
        func walk(_ value: Any, depth: Int) {
            guard depth < 60 else { return }
            if let expression = value as? RuntimeExpression {
                if case .stepOutput = expression.source { found.append(expression) }
                return
            }
            if value is Plan || value is JSONSchema { return }  // A called workflow has its own slots; types have none.
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .class {
                let object = value as AnyObject
                guard seen.insert(ObjectIdentifier(object)).inserted else { return }
            }
            for child in mirror.children { walk(child.value, depth: depth + 1) }
        }
        walk(value, depth: 0)
        return found
    }

    /// Checks that every step-output expression of `plan` names the slot of the step and output it reads.
    private func expectEveryStepOutputResolved(_ plan: Plan, _ label: String) {
        let places: [Any] = [plan.workflow, plan.steps.map(\.step), plan.steps.map(\.policy),
                             plan.compensations.values.map(\.step), plan.compensations.values.map(\.policy)]
        let expressions = places.flatMap(stepOutputExpressions)
        for expression in expressions {
            guard case .stepOutput(let step, let output) = expression.source else { continue }
            let slot = plan.outputLayout.slot(step: step, output: output)
            #expect(slot != nil, "\(label): \(expression) names no slot of the plan")
            #expect(expression.slot == slot, "\(label): \(expression) was not resolved")
        }
    }

    @Test func everyStepOutputReadInEveryPlaceOfAStepIsResolved() throws {
        let compiled = try plan(apiServerByDefault + """
            inputs: { type: object, properties: { id: { type: string } } }
            policies:
              polling: { retry: [{ when: { if: "$steps.first.outputs.state == 'busy'" }, attempts: 3, delay: 1s }] }
            steps:
              - id: first
                request: { method: GET, path: /first }
                outputs: { id: $response.body#/id, state: $response.body#/state, list: $response.body#/list }
              - id: every
                request:
                  method: POST
                  path: "/items/{$steps.first.outputs.id}"
                  query: { q: $steps.first.outputs.id }
                  headers: { X-Id: "{$steps.first.outputs.id}" }
                  body: { id: $steps.first.outputs.id, nested: [{ at: "{$steps.first.outputs.state}" }] }
                if: "$steps.first.outputs.state != 'gone'"
                else: { echoed: $steps.first.outputs.id }
                outputs: { echoed: $steps.first.outputs.id }
                policy: polling
                on-error:
                  - when: { if: "$steps.first.outputs.state == 'odd'" }
                    fallback: { echoed: $steps.first.outputs.state }
                compensate:
                  request: { method: DELETE, path: "/items/{$steps.first.outputs.id}" }
              - id: form
                request:
                  method: POST
                  path: /form
                  form: { id: $steps.first.outputs.id }
              - id: each
                forEach: $steps.first.outputs.list
                request: { method: GET, path: "/each/{$item}", query: { from: $steps.first.outputs.id } }
              - id: poll
                request: { method: GET, path: "/jobs/{$steps.first.outputs.id}" }
                repeat: { until: "$steps.first.outputs.state == 'done'", maxIterations: 3, delay: 1s }
            catch:
              - when: { if: "$steps.every.outputs.echoed == 'x'" }
                end: { result: $steps.first.outputs.id }
            outputs:
              result: $steps.every.outputs.echoed
            """)
        expectEveryStepOutputResolved(compiled, "every place")
        // Reflection found them: the check above is not vacuous.
        #expect(stepOutputExpressions(in: compiled.steps.map(\.step)).count >= 14)
    }

    @Test func everyExampleWorkflowHasEveryStepOutputResolved() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../workflows").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter {
                $0.hasSuffix(".yaml") && !$0.hasSuffix(".mock.yaml") && !$0.hasSuffix(".test.yaml")
                    && !$0.hasSuffix(".openapi.yaml")
            }
        #expect(files.count >= 10)
        var compiler = WorkflowCompiler().withOpenAPI()
        compiler.compilesArazzo = true
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let compiled = try compiler.compile(yaml: String(contentsOfFile: path, encoding: .utf8), path: path)
            expectEveryStepOutputResolved(compiled, file)
        }
    }

    @Test func aRunReadsAResolvedOutputFromItsSlot() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            request.url.hasSuffix("/first") ? json(200, #"{"id":"a b","n":2}"#) : json(200, "{}")
        }
        let report = try await run(apiServerByDefault + """
            steps:
              - id: first
                request: { method: GET, path: /first }
                outputs: { id: $response.body#/id, n: $response.body#/n }
              - id: second
                request: { method: GET, path: "/items/{$steps.first.outputs.id}", query: { n: $steps.first.outputs.n } }
            outputs: { n: $steps.first.outputs.n }
            """, on: dispatcher)
        #expect(report.error == nil, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.url).last == "https://api.test/items/a%20b?n=2")
        #expect(report.outputs["n"] == 2)
    }

    @Test func theTableKeepsAStepsDeclaredOutputsAndGivesThemBackByName() {
        let layout = OutputLayout([("a", ["x", "y"]), ("b", [])])
        var table = OutputTable(layout: layout)
        #expect(table["a"] == nil)
        table["a"] = ["y": 2, "undeclared": 3]
        table["b"] = [:]
        table["unknown"] = ["x": 1]
        #expect(table["a"] == ["y": 2])
        #expect(table[OutputSlot(step: 0, output: 1)] == .some(.some(2)))
        #expect(table[OutputSlot(step: 0, output: 0)] == .some(nil))
        #expect(table.value(step: "a", output: "nope") == .some(nil))
        #expect(table.value(step: "c", output: "x") == nil)
        #expect(table.named == ["a": ["y": 2], "b": [:]])
        #expect(OutputTable(layout: layout, named: table.named).named == table.named)
        table["a"] = nil
        #expect(table.named == ["b": [:]])
    }
}
