import Foundation
import Testing
@testable import FlowCore

/// The Arazzo front end's checks: the official examples pass them, and each kind of mistake is a located error.
struct ArazzoDocumentCheckTests {
    private func check(_ yaml: String) throws -> (document: ArazzoDocument, diagnostics: [Diagnostic]) {
        ArazzoCheck.check(try YAMLLoader().load(yaml, path: "doc.arazzo.yaml"), path: "doc.arazzo.yaml")
    }

    private func errors(_ yaml: String) throws -> [String] {
        try check(yaml).diagnostics.filter { $0.severity == .error }.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
    }

    static let valid = """
        arazzo: 1.0.1
        info: { title: Pets, version: 1.0.0 }
        sourceDescriptions:
          - { name: petstore, url: ./petstore.openapi.yaml, type: openapi }
        workflows:
          - workflowId: adopt
            inputs:
              type: object
              properties: { petId: { type: integer }, token: { type: string } }
            steps:
              - stepId: find
                operationId: getPet
                parameters:
                  - { name: petId, in: path, value: $inputs.petId }
                  - reference: $components.parameters.auth
                successCriteria:
                  - condition: $statusCode == 200 && $response.body#/status == 'available'
                  - context: $response.body
                    condition: $.tags[?@ == 'friendly']
                    type: jsonpath
                onSuccess:
                  - { name: sold, type: goto, stepId: adopt, criteria: [{ condition: $response.body#/price > 100 }] }
                onFailure:
                  - { name: again, type: retry, retryAfter: 1.5, retryLimit: 3 }
                  - reference: $components.failureActions.giveUp
                outputs: { price: $response.body#/price, status: $response.body#/status }
              - stepId: adopt
                operationPath: '{$sourceDescriptions.petstore.url}#/paths/~1pets~1{petId}~1adopt/post'
                requestBody:
                  contentType: application/json
                  payload: { petId: 0, note: 'for {$inputs.token}' }
                  replacements: [{ target: /petId, value: $inputs.petId }]
                outputs: { receipt: $response.body#/id }
            outputs: { receipt: $steps.adopt.outputs.receipt, price: $steps.find.outputs.price }
        components:
          parameters:
            auth: { name: Authorization, in: header, value: 'Bearer {$inputs.token}' }
          failureActions:
            giveUp: { name: giveUp, type: end }
        """

    @Test func aDocumentThatFollowsTheSpecificationHasNoFindings() throws {
        let (document, diagnostics) = try check(Self.valid)
        #expect(diagnostics.map(\.message) == [])
        #expect(document.version.value == "1.0.1")
        #expect(document.workflows.map(\.id.value) == ["adopt"])
        let steps = try #require(document.workflow("adopt")?.steps)
        #expect(steps.map(\.id.value) == ["find", "adopt"])
        #expect(steps[0].successCriteria.count == 2)
        #expect(steps[0].onFailure.count == 2)
        #expect(steps[1].requestBody?.replacements.map(\.target.value.description) == ["/petId"])
    }

    @Test func everyMistakeIsALocatedErrorWithASuggestion() throws {
        let cases: [(String, String, [String])] = [
            ("arazzo: 1.0.1", "arazzo: 2.0.0", ["1:9 unsupported Arazzo version '2.0.0'; flowrun reads Arazzo 1.0.x, as in 'arazzo: 1.0.1'"]),
            ("- stepId: adopt\n", "- stepId: find\n", [
                "22:47 unknown step 'adopt' in workflow 'adopt'; expected one of: find",
                "27:17 duplicate stepId in workflow 'adopt' 'find'; the first is at doc.arazzo.yaml:11:17",
                "34:25 unknown step 'adopt' in workflow 'adopt'; expected one of: find",
            ]),
            ("stepId: adopt, criteria", "stepId: adpot, criteria", ["22:47 unknown step 'adpot' in workflow 'adopt'; did you mean 'adopt'?"]),
            ("type: retry,", "type: retyr,", ["24:34 unknown type 'retyr' of a failure action; did you mean 'retry'?"]),
            ("$components.failureActions.giveUp", "$components.failureActions.giveup", ["25:24 unknown component 'giveup' in components.failureActions; did you mean 'giveUp'?"]),
            ("value: $inputs.petId }", "value: $inputs.petid }", [
                "14:45 unknown input 'petid' of workflow 'adopt'; did you mean 'petId'?",
                "32:51 unknown input 'petid' of workflow 'adopt'; did you mean 'petId'?",
            ]),
            ("$statusCode == 200 &&", "$statusCode = 200 &&", ["17:36 unexpected '='; conditions combine comparisons with && and ||"]),
            ("$.tags[?@ == 'friendly']", "$.tags[?@ = 'friendly']", ["19:34 '=' is not a comparison; write '=='"]),
            ("{$sourceDescriptions.petstore.url}", "{$sourceDescriptions.petstor.url}", ["28:26 unknown source description 'petstor'; did you mean 'petstore'?"]),
            ("{ name: petId, in: path,", "{ name: petId, in: body,", ["14:32 unknown parameter location 'body'; expected path, query, header or cookie"]),
            ("{ name: petId, in: path,", "{ name: petId,", ["14:13 parameter 'petId' needs 'in' (path, query, header or cookie): only the parameters of a step that calls a workflow may leave it out"]),
            ("retryLimit: 3", "retryLimit: -1", ["24:70 'retryLimit' is a whole number of retries, zero or more"]),
            ("$response.body#/price > 100", "$response.bdy#/price > 100", ["22:88 unknown message part 'bdy'; did you mean 'body'?"]),
            ("operationId: getPet", "operationId: getPet\n        workflowId: adopt", ["13:9 step 'find' has operationId and workflowId; a step calls one operation or workflow"]),
            ("type: goto, stepId: adopt,", "type: goto,", ["22:13 a goto action needs a stepId or a workflowId to go to"]),
        ]
        for (original, replacement, expected) in cases {
            let yaml = Self.valid.replacingOccurrences(of: original, with: replacement)
            #expect(yaml != Self.valid, "\(original) is not in the document")
            let found = try errors(yaml)
            #expect(found == expected, "\(replacement)")
        }
    }

    @Test func readingAnOutputThatIsNotDeclaredIsAWarning() throws {
        let yaml = Self.valid.replacingOccurrences(of: "$steps.adopt.outputs.receipt", with: "$steps.adopt.outputs.reciept")
        let findings = try check(yaml).diagnostics
        #expect(findings.map(\.severity) == [.warning])
        #expect(findings.first?.message == "step 'adopt' has no output 'reciept', so the value is absent when it is read; did you mean 'receipt'?")
    }

    /// `$workflows.<id>.outputs` reads the run of `<id>` that `dependsOn` starts first: a workflow that does not
    /// depend on `<id>` has nothing to read, which is a located error rather than a failure when it runs.
    @Test func readingTheOutputsOfAWorkflowThatDoesNotRunFirstIsAnError() throws {
        let report = """
              - workflowId: report
                dependsOn: [adopt]
                steps:
                  - stepId: show
                    operationId: getPet
                    parameters: [{ name: petId, in: path, value: $workflows.adopt.outputs.receipt }]
                outputs: { own: $workflows.report.outputs.shown, price: $workflows.adopt.outputs.price }
            components:

            """
        let yaml = Self.valid.replacingOccurrences(of: "components:\n", with: report)
        #expect(try errors(yaml) == [
            "41:21 workflow 'report' reads the outputs of workflow 'report', which it does not run first: list "
                + "'report' in its dependsOn (a retry action that names it then runs it again, and this reads the new "
                + "outputs)",
        ])
        let independent = yaml.replacingOccurrences(of: "    dependsOn: [adopt]\n", with: "")
        #expect(try errors(independent) == [
            "39:54 workflow 'report' reads the outputs of workflow 'adopt', which it does not run first: list 'adopt' "
                + "in its dependsOn (a retry action that names it then runs it again, and this reads the new outputs)",
            "40:21 workflow 'report' reads the outputs of workflow 'report', which it does not run first: list "
                + "'report' in its dependsOn (a retry action that names it then runs it again, and this reads the new "
                + "outputs)",
            "40:61 workflow 'report' reads the outputs of workflow 'adopt', which it does not run first: list 'adopt' "
                + "in its dependsOn (a retry action that names it then runs it again, and this reads the new outputs)",
        ])
    }

    @Test func stepsAndActionsThatAreIncompleteSaySo() throws {
        let yaml = """
            arazzo: 1.0.0
            info: { title: T, version: 1 }
            sourceDescriptions: [{ name: a, url: a.yaml }, { name: b, url: b.yaml }]
            workflows:
              - workflowId: w
                dependsOn: [w2]
                steps:
                  - stepId: s
                    operationId: op
                    parameters: [{ name: p, value: 1 }]
                    onSuccess: [{ name: n, type: goto }]
              - workflowId: w2
                dependsOn: [w]
                steps: [{ stepId: t }]
            """
        #expect(try errors(yaml) == [
            "6:17 workflow 'w' depends on itself: w → w2 → w",
            "9:22 operationId 'op' must name its source, as in $sourceDescriptions.<name>.op: the document has 2 OpenAPI sources",
            "10:22 parameter 'p' needs 'in' (path, query, header or cookie): only the parameters of a step that calls a workflow may leave it out",
            "11:21 a goto action needs a stepId or a workflowId to go to",
            "13:17 workflow 'w2' depends on itself: w2 → w → w2",
            "14:13 step 't' calls nothing: it needs operationId, operationPath or workflowId",
        ])
    }

    /// A retry loop is bounded: a retryLimit over 99 is an error, and one whose waits add up to more than 15
    /// minutes a warning.
    @Test func retriesHaveABoundOnTheirTotalTime() throws {
        func retry(_ fields: String) -> String {
            Self.valid.replacingOccurrences(
                of: "{ name: again, type: retry, retryAfter: 1.5, retryLimit: 3 }",
                with: "{ name: again, type: retry, \(fields) }")
        }
        #expect(try errors(retry("retryLimit: 5, retryAfter: 2")) == [])
        let unbounded = try errors(retry("retryLimit: 1000"))
        #expect(unbounded.count == 1)
        #expect(unbounded.first?.contains(
            "'retryLimit' is at most 99 in flowrun: a step is tried at most 100 times, so that a retry loop's total "
                + "time has a bound") == true)
        let long = try check(retry("retryAfter: 30.5, retryLimit: 60")).diagnostics.map(\.message)
        #expect(long.contains { $0.hasPrefix("this retry may wait 1830 s in all (60 × 30.5 s), over 900 s") }, "\(long)")
        // A wait no whole number of seconds holds is still a warning (the fuzzer once trapped converting it).
        let huge = try check(retry("retryAfter: 1e308, retryLimit: 50")).diagnostics.map(\.message)
        #expect(huge.contains { $0.hasPrefix("this retry may wait ") && $0.contains("(50 × 1e+308 s)") }, "\(huge)")
    }

    @Test func specificationExtensionsAreAllowedAndOtherKeysAreNot() throws {
        let extended = Self.valid.replacingOccurrences(of: "info: {", with: "x-owner: team\ninfo: { x-note: 1,")
        #expect(try errors(extended) == [])
        let unknown = Self.valid.replacingOccurrences(of: "info: {", with: "info: { titel: x,")
        #expect(try errors(unknown).first?.contains("unknown key 'titel' in 'info'; did you mean 'title'?") == true)
    }

    /// The repository's own example (a fuzzing seed too) has no finding: two workflows, one depending on the other,
    /// retries, a goto loop, regex and JSONPath criteria, components and replacements.
    @Test func theRepositorysExampleDocumentHasNoFindings() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../flowrunTests/Fixtures/arazzo/adoption.arazzo.yaml").standardized
        let root = try YAMLLoader().load(Array(try Data(contentsOf: url)), path: "adoption.arazzo.yaml")
        let (document, diagnostics) = ArazzoCheck.check(root, path: "adoption.arazzo.yaml")
        #expect(diagnostics.map(\.description) == [])
        #expect(document.workflows.map(\.id.value) == ["sign-in", "adopt-a-pet"])
        #expect(document.workflows[1].steps.map(\.id.value) == ["search", "hold", "adopt"])
    }

    /// The official examples of the specification pass every check; bnpl's `$steps.<id>.<name>` is one warning.
    @Test(.enabled(if: ConformanceSuites.folder != nil, ConformanceSuites.absenceNotice))
    func theOfficialExamplesPass() throws {
        let folder = ConformanceSuites.suite("arazzo/examples")!
        var checked = 0
        for file in try ConformanceSuites.contents(of: folder) where file.contains("arazzo") && file.hasSuffix(".yaml") {
            let root = try YAMLLoader().load(Array(try Data(contentsOf: folder.appendingPathComponent(file))), path: file)
            let (document, diagnostics) = ArazzoCheck.check(root, path: file)
            #expect(diagnostics.filter { $0.severity == .error }.map(\.description) == [], "\(file)")
            #expect(!document.workflows.isEmpty, "\(file)")
            checked += 1
        }
        #expect(checked == 6)
    }
}
