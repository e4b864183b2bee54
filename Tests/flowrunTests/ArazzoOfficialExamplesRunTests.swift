import Foundation
import Testing

/// Where the Arazzo specification's examples are: `arazzo/examples` of `$FLOWRUN_CONFORMANCE_DIR`, or of
/// `../shared/conformance` beside the repository; `nil` when absent.
enum OfficialArazzoExamples {
    static let folder: URL? = {
        let configured = ProcessInfo.processInfo.environment["FLOWRUN_CONFORMANCE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let suites = configured.map { URL(fileURLWithPath: $0) }
            ?? FlowRunProcess.packageRoot.appendingPathComponent("../shared/conformance").standardizedFileURL
        let examples = suites.appendingPathComponent("arazzo/examples")
        return FileManager.default.fileExists(atPath: examples.appendingPathComponent("oauth.arazzo.yaml").path)
            ? examples : nil
    }()
}

/// The examples of the Arazzo specification repository, run with `flowrun run` on the stubs in
/// `Fixtures/arazzo-official` (see its README). The examples are read from the conformance folder, never copied;
/// without it the tests are skipped with a notice.
@Suite(.enabled(if: OfficialArazzoExamples.folder != nil, """
    the Arazzo examples are absent: set FLOWRUN_CONFORMANCE_DIR or place the suites at ../shared/conformance
    """))
struct ArazzoOfficialExamplesRunTests {
    static var examples: URL? { OfficialArazzoExamples.folder }

    static let stubs = FlowRunProcess.packageRoot.appendingPathComponent("Tests/flowrunTests/Fixtures/arazzo-official")

    /// Runs `example` from the stubs folder with `arguments`, and gives its outputs.
    private func run(_ example: String, _ arguments: [String]) async throws -> [String: Any] {
        let path = try #require(Self.examples).appendingPathComponent(example).path
        let run = try await FlowRunProcess.run(["run", path, "--format", "json"] + arguments, in: Self.stubs)
        #expect(run.status == 0, "\(example) \(arguments): \(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return report?["outputs"] as? [String: Any] ?? [:]
    }

    /// Every example lints without errors through the command, whose lint also lowers each workflow and checks its
    /// bindings' types.
    @Test func everyExampleLintsWithoutErrors() async throws {
        let examples = try #require(Self.examples)
        let files = try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".yaml") && !$0.contains("openapi") }.sorted()
        #expect(files.count == 6)
        for file in files {
            let lint = try await FlowRunProcess.run(["lint", examples.appendingPathComponent(file).path])
            #expect(lint.status == 0, "\(file): \(lint.stdout)")
        }
    }

    @Test func petCouponsBuysAPetThroughItsPlaceOrderWorkflow() async throws {
        let bought = try await run("pet-coupons.arazzo.yaml", [
            "--workflow", "buy-available-pet", "--mock", "pet-coupons.mock.yaml",
            "--server", "pet-coupons=http://petstore.local",
        ])
        #expect(bought["buy_pet_order_id"] as? Int == 77)
        let placed = try await run("pet-coupons.arazzo.yaml", [
            "--workflow", "place-order", "--mock", "pet-coupons.mock.yaml", "--server", "pet-coupons=http://petstore.local",
            "--input", "pet_id=10",
        ])
        #expect(placed["workflow_order_id"] as? Int == 77)
    }

    @Test func oauthRunsEachOfItsFlows() async throws {
        let refreshed = try await run("oauth.arazzo.yaml", [
            "--workflow", "refresh-token-flow", "--mock", "oauth.mock.yaml", "--input", "my_client_id=app-1",
        ])
        #expect(refreshed["access_token"] as? String == "at-2")
        #expect(refreshed["refresh_token"] as? String == "rt-2")
        let client = try await run("oauth.arazzo.yaml", [
            "--workflow", "client-credentials-flow", "--mock", "oauth.mock.yaml", "--input", "client_id=app-1",
        ])
        #expect(client["access_token"] as? String == "at-cc")
        let code = try await run("oauth.arazzo.yaml", [
            "--workflow", "authorization-code-flow", "--mock", "oauth.mock.yaml", "--input", "client_id=app-1",
        ])
        #expect(code["access_token"] as? String == "at-1")
    }

    @Test func loginAndRetrievePetsRunsOnALocalCopyOfItsSource() async throws {
        let pets = try await run("LoginAndRetrievePets.arazzo.yaml", [
            "--source", "petStoreDescription=petstore.openapi.yaml", "--mock", "login.mock.yaml",
            "--input", "username=ada", "--input", "password=pw-1",
        ])
        #expect((pets["available"] as? [[String: Any]])?.first?["name"] as? String == "doggie")
    }

    /// PAR, authorization and token: its client assertion, an object, goes into the query as JSON text (the
    /// parameter's `content` is `application/json`), as the stub matches it; the token request's payload is JSON
    /// text with embedded expressions.
    @Test func fapiParRunsItsThreeCalls() async throws {
        let outputs = try await run("FAPI-PAR.arazzo.yaml", ["--mock", "fapi-par.mock.yaml", "--inputs", "fapi-par.inputs.json"])
        #expect((outputs["access_token"] as? [String: Any])?["access_token"] as? String == "at-fapi")
    }

    @Test func extendedParametersSendsItsCookieAndHeaderParameters() async throws {
        let outputs = try await run("ExtendedParametersExample.arazzo.yaml", [
            "--source", "animals=animals.openapi.yaml", "--mock", "animals.mock.yaml",
        ])
        #expect(outputs.isEmpty)
    }

    /// bnpl, on a stand-in of its remote source that names the eligible products as the workflow reads them: its
    /// JSON-text payload sends the input products, and its first step's success actions end the run (under
    /// RFC 9535 its `count(@.products) > 0` filter tests the body's children, and `== 0` holds).
    @Test func bnplRunsUntilItsFirstStepsActionsEndIt() async throws {
        let path = try #require(Self.examples).appendingPathComponent("bnpl-arazzo.yaml").path
        let run = try await FlowRunProcess.run(
            ["run", path, "--source", "BnplApi=bnpl.openapi.yaml", "--mock", "bnpl.mock.yaml", "--inputs", "bnpl.inputs.json",
             "--format", "json"], in: Self.stubs)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let steps = (report?["steps"] as? [[String: Any]])?.map { "\($0["id"]!) \($0["status"]!)" }
        #expect(steps?.first == "checkLoanCanBeProvided succeeded")
        #expect(steps?.dropFirst().allSatisfy { $0.hasSuffix(" skipped") } == true, "\(steps ?? [])")
        #expect(steps?.count == 7)
    }

    /// The two workflows whose mistakes flowrun's checks find: refused before anything is sent, at the mistake.
    @Test(arguments: [
        (["bnpl-arazzo.yaml", "--source", "BnplApi=EXAMPLES/bnpl-openapi.yaml"],
         "bnpl-arazzo.yaml:133:40: error: '$response.body#/products' reads nothing from the response of step "
            + "'checkLoanCanBeProvided' (operation 'findEligibleProducts'): an object has no property 'products'; "
            + "did you mean 'productCodes'?"),
        (["pet-coupons.arazzo.yaml", "--workflow", "apply-coupon", "--server", "pet-coupons=http://petstore.local"],
         "pet-coupons.arazzo.yaml:40:19: error: parameter 'pet_id' (in: path) is not a parameter of operation "
            + "'getPetCoupons', so flowrun cannot place it in the request"),
    ])
    func examplesWithMistakesAreRefusedAtTheMistake(_ arguments: [String], _ expected: String) async throws {
        let examples = try #require(Self.examples)
        let given = arguments.map { $0.replacingOccurrences(of: "EXAMPLES", with: examples.path) }
        let run = try await FlowRunProcess.run(
            ["run", examples.appendingPathComponent(given[0]).path] + given.dropFirst() + ["--mock", "oauth.mock.yaml"],
            in: Self.stubs)
        #expect(run.status == 2)
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(!run.stderr.contains("✗"), "nothing was sent")
    }
}
