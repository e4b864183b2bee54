import Foundation
import Testing

/// An unknown step (error, line 9) and an unused type (warning).
private let findings = """
    flowrun: 1
    servers: { api: "https://api.example.com" }
    defaults: { server: api }
    types: { Unused: { type: string } }
    steps:
      - id: ping
        request: { method: GET, path: /ping }
      - id: pong
        request: { method: GET, path: "/pong/{$steps.pingg.outputs.id}" }
    """

/// `flowrun lint --format sarif`, parsed back and checked against what SARIF 2.1.0 requires.
///
/// The official schema is not available offline, so the tests assert the properties the
/// specification and GitHub code scanning require instead.
struct SARIFLogTests {
    private func lint(
        _ files: [String: String], arguments: [String]
    ) async throws -> (status: Int32, log: [String: Any]) {
        let folder = try TemporaryFolder()
        for (name, contents) in files { try folder.write(name, contents) }
        let outcome = try await FlowRunProcess.run(["lint", "--format", "sarif"] + arguments, in: folder.url)
        let log = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stdout)")
        return (outcome.status, log)
    }

    @Test func aLogHasTheRequiredTopLevelPropertiesAndOneRun() async throws {
        let (status, log) = try await lint(["ok.yaml": WorkflowTexts.clean], arguments: ["ok.yaml"])
        #expect(status == 0)
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "flowrun")
        #expect((driver["version"] as? String)?.isEmpty == false)
        // informationUri is optional; flowrun has no public home page to name yet.
        #expect(driver["informationUri"] == nil)
        #expect((driver["rules"] as? [Any])?.isEmpty == true)
        #expect((runs[0]["results"] as? [Any])?.isEmpty == true)
    }

    @Test func everyFindingIsAResultWithARuleLevelMessageAndLocation() async throws {
        let (status, log) = try await lint(
            ["flows/bad flow.yaml": findings, "ok.yaml": WorkflowTexts.clean],
            arguments: ["./flows/bad flow.yaml", "ok.yaml"])
        #expect(status == 1)
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = try #require((run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"]
            as? [[String: Any]])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 2)

        // One rule per code that occurs, with a short description.
        let ruleIDs = rules.compactMap { $0["id"] as? String }
        #expect(Set(ruleIDs) == ["unknown-step", "unused"])
        #expect(ruleIDs.count == rules.count)
        for rule in rules {
            let text = (rule["shortDescription"] as? [String: Any])?["text"] as? String
            #expect(text?.isEmpty == false, "\(rule)")
        }

        for result in results {
            let ruleID = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ruleIDs[index] == ruleID)
            #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]
                as? [String: Any])
            let artifact = try #require(location["artifactLocation"] as? [String: Any])
            // The path as given, without `./`, as a URI reference relative to the source root.
            #expect(artifact["uri"] as? String == "flows/bad%20flow.yaml")
            #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
            let region = try #require(location["region"] as? [String: Any])
            #expect((region["startLine"] as? Int ?? 0) >= 1)
            #expect((region["startColumn"] as? Int ?? 0) >= 1)
        }
        let error = try #require(results.first { $0["ruleId"] as? String == "unknown-step" })
        #expect(error["level"] as? String == "error")
        #expect(((error["message"] as? [String: Any])?["text"] as? String)?.contains("pingg") == true)
        let region = (error["locations"] as? [[String: Any]])?.first
            .flatMap { $0["physicalLocation"] as? [String: Any] }?["region"] as? [String: Any]
        #expect(region?["startLine"] as? Int == 9)
        let warning = try #require(results.first { $0["ruleId"] as? String == "unused" })
        #expect(warning["level"] as? String == "warning")
    }

    @Test func anAbsolutePathIsAFileURI() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.yaml", findings)
        let outcome = try await FlowRunProcess.run(["lint", "--format", "sarif", path])
        let log = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let result = ((log?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first
        let location = (result?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        let artifact = location?["artifactLocation"] as? [String: Any]
        #expect(artifact?["uri"] as? String == "file://" + path)
        #expect(artifact?["uriBaseId"] == nil)
    }
}
