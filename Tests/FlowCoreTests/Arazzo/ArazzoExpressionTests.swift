import Foundation
import Testing
@testable import FlowCore

/// Arazzo runtime expressions: every form of the specification, located errors, and every expression the
/// official examples write.
struct ArazzoExpressionTests {
    @Test func everyFormParsesIntoWhatItReads() throws {
        let cases: [(String, ArazzoExpression)] = [
            ("$url", .url),
            ("$method", .method),
            ("$statusCode", .statusCode),
            ("$request.header.X-Request-Id", .request(.header("X-Request-Id"))),
            ("$request.query.page", .request(.query("page"))),
            ("$request.path.id", .request(.path("id"))),
            ("$request.body", .request(.body(nil))),
            ("$response.body#/items/0/id", .response(.body(JSONPointer(tokens: ["items", "0", "id"])))),
            ("$response.header.X-Rate-Limit", .response(.header("X-Rate-Limit"))),
            ("$inputs.customer#/firstName", .inputs(name: "customer", pointer: JSONPointer(tokens: ["firstName"]))),
            ("$inputs.my.dotted.name", .inputs(name: "my.dotted.name", pointer: nil)),
            ("$outputs.total", .outputs(name: "total", pointer: nil)),
            ("$steps.find-pet.outputs.my_pet_tags", .stepOutput(stepID: "find-pet", name: "my_pet_tags", pointer: nil)),
            ("$steps.login.outputs.a.b#/c~1d", .stepOutput(stepID: "login", name: "a.b", pointer: JSONPointer(tokens: ["c/d"]))),
            ("$workflows.login.outputs.token", .workflowValue(workflowID: "login", part: .outputs, name: "token", pointer: nil)),
            ("$workflows.login.inputs.user", .workflowValue(workflowID: "login", part: .inputs, name: "user", pointer: nil)),
            ("$sourceDescriptions.auth-api.Token", .sourceDescription(name: "auth-api", member: "Token")),
            ("$sourceDescriptions.petStore.url", .sourceDescription(name: "petStore", member: "url")),
            ("$components.parameters.page", .component(.parameters, name: "page")),
            ("$components.failureActions.retry-later", .component(.failureActions, name: "retry-later")),
        ]
        for (text, expected) in cases {
            #expect(try ArazzoExpression(parsing: text) == expected, "\(text)")
        }
    }

    @Test func expressionsThatAreNotArazzoAreLocatedWithASuggestion() {
        let cases: [(String, Int, String)] = [
            ("statusCode", 0, "starts with '$'"),
            ("$statuscode", 1, "did you mean '$statusCode'?"),
            ("$statusCode.x", 11, "stands alone"),
            ("$response.bdy", 10, "did you mean 'body'?"),
            ("$response.header.", 17, "header name"),
            ("$response.body#a", 15, "'/'"),
            ("$steps.login.output.token", 13, "not '.output'"),
            ("$steps.login", 12, "'.outputs.'"),
            ("$workflows.w.results.x", 13, "not '.results'"),
            ("$components.parameter.page", 12, "did you mean 'parameters'?"),
            ("$inputs", 7, "a name"),
        ]
        expectSyntaxErrors(cases) { (text) throws(ExpressionSyntaxError) in _ = try ArazzoExpression(parsing: text) }
    }

    @Test func aStepOutputWithoutOutputsIsReadLenientlyWithAWarning() throws {
        #expect(throws: ExpressionSyntaxError.self) { try ArazzoExpression(parsing: "$steps.plan.finalPlan") }
        let (expression, warning) = try ArazzoExpression.parsingLeniently("$steps.plan.finalPlan#/id")
        #expect(expression == .stepOutput(stepID: "plan", name: "finalPlan", pointer: JSONPointer(tokens: ["id"])))
        #expect(warning?.contains("write $steps.plan.outputs.finalPlan#/id") == true)
        #expect(try ArazzoExpression.parsingLeniently("$steps.plan.outputs.x").warning == nil)
        #expect(throws: ExpressionSyntaxError.self) { try ArazzoExpression.parsingLeniently("$steps.plan.outputs") }
    }

    /// Every runtime expression that stands alone as a value in the official examples parses; one, in bnpl, only
    /// leniently (it leaves out `.outputs`).
    @Test(.enabled(if: ConformanceSuites.folder != nil, ConformanceSuites.absenceNotice))
    func everyExpressionOfTheOfficialExamplesParses() throws {
        let folder = ConformanceSuites.suite("arazzo/examples")!
        var count = 0
        for file in try ConformanceSuites.contents(of: folder) where file.contains("arazzo") && file.hasSuffix(".yaml") {
            let root = try YAMLLoader().load(Array(try Data(contentsOf: folder.appendingPathComponent(file))), path: file)
            var failures: [String] = []
            var warnings: [String] = []
            Self.visitScalars(root) { text, location in
                // Conditions are criteria, not lone expressions; `$ref` keys belong to JSON Schema.
                guard text.hasPrefix("$"), !text.hasPrefix("$["), !text.contains(" "), text != "$ref" else { return }
                count += 1
                do {
                    if let warning = try ArazzoExpression.parsingLeniently(text).warning {
                        warnings.append("\(location)")
                        #expect(warning.contains("without '.outputs'"))
                    }
                } catch { failures.append("\(location): \(text): \(error)") }
            }
            #expect(failures == [], "\(file)")
            #expect(warnings == (file == "bnpl-arazzo.yaml" ? ["bnpl-arazzo.yaml:260:27"] : []), "\(file)")
        }
        #expect(count > 50)
    }

    static func visitScalars(_ node: YAMLNode, _ visit: (String, FlowCore.SourceLocation) -> Void) {
        if let scalar = node.scalar { visit(scalar.text, node.location) }
        for element in node.sequence ?? [] { visitScalars(element, visit) }
        for pair in node.mapping ?? [] { visitScalars(pair.value, visit) }
    }
}
