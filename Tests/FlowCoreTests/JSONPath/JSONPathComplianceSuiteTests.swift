import Foundation
import Testing
@testable import FlowCore

/// The JSONPath Compliance Test Suite (jsonpath-standard/jsonpath-compliance-test-suite, `cts.json`), when
/// `FLOWRUN_JSONPATH_CTS` names its file. It is not among the conformance suites this repository is given, so
/// it is skipped with a notice otherwise; nothing of it is copied here.
@Suite(.enabled(
    if: JSONPathComplianceSuite.file != nil,
    "set FLOWRUN_JSONPATH_CTS to the path of the JSONPath Compliance Test Suite's cts.json to run it"))
struct JSONPathComplianceSuiteTests {

    @Test func everyTestOfTheSuitePasses() throws {
        let suite = try JSONValue(parsing: Array(try Data(contentsOf: JSONPathComplianceSuite.file!)))
        guard case .array(let tests)? = suite.objectValue?["tests"] else {
            Issue.record("cts.json has no 'tests' array")
            return
        }
        var failures: [String] = []
        for test in tests {
            guard case .object(let fields) = test, case .string(let name)? = fields["name"],
                case .string(let selector)? = fields["selector"]
            else { continue }
            let query: JSONPathQuery
            do {
                query = try JSONPathQuery(parsing: selector)
            } catch {
                if fields["invalid_selector"] != .bool(true) { failures.append("\(name): \(selector) refused: \(error)") }
                continue
            }
            if fields["invalid_selector"] == .bool(true) {
                failures.append("\(name): \(selector) accepted, but it is invalid")
                continue
            }
            let nodes = query.select(in: fields["document"] ?? .null)
            let values = nodes.map(\.value)
            let paths = nodes.map { JSONValue.string($0.path.description) }
            var expected: [[JSONValue]] = []
            var expectedPaths: [[JSONValue]] = []
            if case .array(let result)? = fields["result"] { expected = [result] }
            if case .array(let results)? = fields["results"] {
                expected = results.compactMap { if case .array(let one) = $0 { one } else { nil } }
            }
            if case .array(let result)? = fields["result_paths"] { expectedPaths = [result] }
            if case .array(let results)? = fields["results_paths"] {
                expectedPaths = results.compactMap { if case .array(let one) = $0 { one } else { nil } }
            }
            let matchIndex = expected.firstIndex { Self.same($0, values) }
            if matchIndex == nil {
                failures.append("\(name): \(selector) gave \(values), expected \(expected.map(\.description).joined(separator: " or "))")
            } else if !expectedPaths.isEmpty, !expectedPaths.contains(paths) {
                failures.append("\(name): \(selector) gave paths \(paths)")
            }
        }
        print("JSONPath Compliance Test Suite: \(tests.count - failures.count)/\(tests.count) tests pass")
        #expect(failures == [])
    }

    /// Equal values, with numbers compared by value (the suite writes `1.0` where a query gives `1`).
    static func same(_ left: [JSONValue], _ right: [JSONValue]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { JSONPathEvaluator.equal($0, $1) }
    }
}

/// Where the suite's `cts.json` is, if anywhere.
enum JSONPathComplianceSuite {
    static let file: URL? = ProcessInfo.processInfo.environment["FLOWRUN_JSONPATH_CTS"]
        .flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
}
