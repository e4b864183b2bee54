import Testing

@testable import FlowCore

/// A pointer token into an array is an index only when a run can read it: a non-negative integer without
/// leading zeros (RFC 6901). Lint must refuse exactly the tokens a run would find nothing at.
struct ArrayIndexPointerTests {
    /// A workflow that binds `$inputs.list#/<token>` into a header.
    private func reading(_ token: String) -> String {
        apiServerByDefault + """
            inputs: { type: object, properties: { list: { type: array, items: { type: string } } } }
            steps:
              - { id: get, request: { method: GET, path: /x, headers: { X-Item: "$inputs.list#/\(token)" } } }
            """
    }

    @Test(arguments: ["-1", "+1", "01", "-", " 1", "1.0", "1e2", "99999999999999999999999"])
    func aTokenThatIsNotAnIndexReadsNothingFromAnArray(token: String) {
        let found = diagnostics(reading(token)).filter { $0.severity == .error }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .bindingTypeMismatch)
        #expect(found.first?.message.contains(
            "'\(token)' is not an element index of an array: an index is a non-negative integer without leading zeros")
            == true, "\(found)")
    }

    @Test(arguments: ["0", "7", "10"])
    func anIndexReadsAnElement(token: String) {
        #expect(diagnostics(reading(token)).filter { $0.severity == .error }.isEmpty)
    }

    /// What lint refused, a run could not have read either: the index rule is the run's.
    @Test func aRunReadsNothingAtTheTokensLintRefuses() {
        let list = JSONValue.array(["a", "b"])
        for token in ["-1", "+1", "01", "-"] {
            #expect(JSONPointer.arrayIndex(token) == nil)
            #expect((try? JSONPointer(parsing: "/\(token)"))?.resolve(in: list) == nil)
        }
        #expect((try? JSONPointer(parsing: "/1"))?.resolve(in: list) == "b")
    }
}
