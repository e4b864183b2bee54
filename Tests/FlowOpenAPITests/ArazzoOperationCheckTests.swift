import FlowCore
import FlowOpenAPI
import Foundation
import Testing

/// The operations an Arazzo document's steps call, resolved in its OpenAPI sources by `lint`.
struct ArazzoOperationCheckTests {
    /// An Arazzo document (`flows/a.arazzo.yaml`) over `OpenAPIFixtures.shop30` at `flows/shop.yaml`.
    static let document = """
        arazzo: 1.0.1
        info: { title: Orders, version: 1.0.0 }
        sourceDescriptions: [{ name: shop, url: ./shop.yaml, type: openapi }]
        workflows:
          - workflowId: orders
            parameters: [{ name: limit, in: query, value: 10 }]
            steps:
              - stepId: user
                operationId: getUser
                parameters: [{ name: userId, in: path, value: u-1 }]
                outputs: { id: $response.body#/id }
              - stepId: orders
                operationId: $sourceDescriptions.shop.listOrders
                parameters:
                  - { name: userId, in: path, value: $steps.user.outputs.id }
                  - { name: x-request-id, in: header, value: r-1 }
                  - { name: Accept, in: header, value: application/json }
              - stepId: health
                operationPath: '{$sourceDescriptions.shop.url}#/paths/~1health/get'
        """

    private func findings(_ text: String, files: [String: String] = ["flows/shop.yaml": OpenAPIFixtures.shop30])
        -> [String]
    {
        let result = OpenAPIFixtures.compiler(files).check(yaml: text, path: "flows/a.arazzo.yaml")
        #expect(result.kind == .arazzo)
        return result.diagnostics.map {
            "\($0.severity == .error ? "error" : "warning") \($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)"
        }
    }

    @Test func stepsWhoseOperationsAndParametersResolveHaveNoFindings() {
        // A workflow's parameter counts for every step; header names ignore case; Accept is OpenAPI's to ignore.
        #expect(findings(Self.document) == [])
    }

    @Test func anOperationThatDoesNotExistIsAnErrorWithASuggestion() {
        #expect(findings(Self.document.replacingOccurrences(of: "operationId: getUser", with: "operationId: getUsr")) == [
            "error 9:22 source 'shop' has no operation 'getUsr'; did you mean 'getUser'?",
        ])
        #expect(findings(Self.document.replacingOccurrences(of: "~1health/get", with: "~1health/post")) == [
            "error 19:24 source 'shop' has no operation at '/paths/~1health/post'; that path has get (an operationPath "
                + "points at a method of a path: #/paths/~1pets~1{id}/get)",
        ])
        #expect(findings(Self.document.replacingOccurrences(of: "operationId: getUser", with: "operationId: getuser")) == [
            "warning 9:22 source 'shop' has no operation 'getuser', only 'getUser' (operationIds are case-sensitive); read as 'getUser'",
        ])
    }

    @Test func parametersTheOperationDoesNotDeclareOrThatAreMissingAreWarnings() {
        let misnamed = Self.document.replacingOccurrences(of: "{ name: userId, in: path, value: u-1 }", with: "{ name: userid, in: path, value: u-1 }")
        #expect(findings(misnamed) == [
            "warning 8:17 step 'user' does not give the required path parameter 'userId' of operation 'getUser'",
            "warning 10:30 operation 'getUser' of source 'shop' has no path parameter 'userid'; did you mean 'userId'?",
        ])
        let misplaced = Self.document.replacingOccurrences(of: "{ name: limit, in: query, value: 10 }", with: "{ name: limit, in: header, value: 10 }")
        #expect(findings(misplaced) == [
            "warning 12:17 step 'orders' does not give the required query parameter 'limit' of operation 'listOrders'",
        ])
    }

    @Test func aResponseReadThatTheOperationsResponsesCannotHaveIsAnError() {
        let typo = Self.document.replacingOccurrences(of: "outputs: { id: $response.body#/id }", with: "outputs: { id: $response.body#/nmae, city: $response.body#/address/city }")
        #expect(findings(typo) == [
            "error 11:39 '$response.body#/nmae' reads nothing from the response of step 'user' (operation 'getUser'): "
                + "type 'shop.User' has no property 'nmae'; did you mean 'name'?",
        ])
        let criterion = Self.document.replacingOccurrences(
            of: "        outputs: { id: $response.body#/id }",
            with: "        outputs: { id: $response.body#/id }\n        successCriteria: [{ condition: $response.body#/address/zip != null }]")
        #expect(findings(criterion).count == 1)
        #expect(findings(criterion).first?.contains("'$response.body#/address/zip' reads nothing") == true)
    }

    @Test func aLiteralTheParameterCannotTakeIsAnError() {
        // A workflow's parameter is checked against the operation of each step it reaches, once the workflow is
        // lowered, and reported where the workflow gives it; a step's own is checked as the document is read.
        #expect(findings(Self.document.replacingOccurrences(of: "{ name: limit, in: query, value: 10 }", with: "{ name: limit, in: query, value: lots }")) == [
            "error 6:26 query parameter 'limit' of operation 'listOrders' does not accept this value: expected an "
                + "integer, found the string \"lots\"",
        ])
        let own = Self.document.replacingOccurrences(
            of: "- { name: x-request-id, in: header, value: r-1 }",
            with: "- { name: x-request-id, in: header, value: r-1 }\n          - { name: limit, in: query, value: lots }")
        #expect(findings(own) == [
            "error 17:46 query parameter 'limit' of operation 'listOrders' does not accept this value: expected an "
                + "integer, found the string \"lots\"",
        ])
        // Sent as text, a number fits a string parameter; an expression is left to run time.
        let fits = Self.document.replacingOccurrences(of: "{ name: userId, in: path, value: u-1 }", with: "{ name: userId, in: path, value: 7 }")
        #expect(findings(fits) == [])
    }

    @Test func aSourceThatCannotBeReadLeavesItsOperationsUncheckedWithAWarning() {
        #expect(findings(Self.document, files: [:]) == [
            "warning 3:41 cannot read source 'shop' (cannot read 'flows/shop.yaml': no such file): the operations of "
                + "its steps are not checked",
        ])
        let remote = Self.document.replacingOccurrences(of: "url: ./shop.yaml", with: "url: https://shop.example/openapi.yaml")
        #expect(findings(remote).first?.hasPrefix("warning 3:41 source 'shop' is a remote URL, which flowrun does not fetch") == true)
        let broken = findings(Self.document, files: ["flows/shop.yaml": "openapi: 3.0.3\ninfo: 7\n"])
        #expect(broken.contains("error 3:41 the OpenAPI document of source 'shop' (flows/shop.yaml) has errors; its operations cannot be used"))
    }
}

/// The specification's examples, linted with their OpenAPI documents as `flowrun lint` reads them.
struct ArazzoOfficialExampleOperationTests {
    @Test func theOfficialExamplesHaveNoErrorsWithTheirOperationsResolved() throws {
        let folder = OpenAPIDocumentLoaderTests.conformanceFolder
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.contains("arazzo") && $0.hasSuffix(".yaml") }.sorted()
        guard !names.isEmpty else {
            print("notice: \(folder) is absent; the official Arazzo examples are not checked")
            return
        }
        var warnings: [String] = []
        for name in names {
            let path = folder + "/" + name
            let result = WorkflowCompiler().withOpenAPI().check(bytes: Array(try #require(FileManager.default.contents(atPath: path))), path: path)
            #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [], "\(name)")
            warnings += result.diagnostics.map { "\(name):\($0.location?.line ?? 0): \($0.code.name)" }
        }
        // What the documents get wrong, each a warning: three sources not read here, FAPI-PAR's 'PAR' for 'Par',
        // pet-coupons' parameter names that its OpenAPI document spells otherwise, and the outputs that are read but
        // not declared. And what lowering the workflows finds: pet-coupons' two `successCriteria` on a step that runs
        // a workflow, bnpl's boolean schema (a property named `additionalProperties`) that flowrun does not check.
        #expect(warnings.count == 16, "\(warnings)")
        #expect(warnings.contains("pet-coupons.arazzo.yaml:56: unsupported"))
        #expect(warnings.contains("FAPI-PAR.arazzo.yaml:102: unknown-reference"))
        #expect(warnings.contains("pet-coupons.arazzo.yaml:26: unknown-reference"))
    }
}
