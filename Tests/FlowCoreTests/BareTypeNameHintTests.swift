import Testing

@testable import FlowCore

/// `items: string` names a declared type called `string`, not the JSON type: the finding says how to write
/// the JSON type, whether or not the workflow declares types.
struct BareTypeNameHintTests {
    private func workflow(types: String, items: String) -> String {
        apiServerByDefault + """
            \(types)
            steps:
              - id: list
                request: { method: GET, path: /items }
                response: { 200: { type: array, items: \(items) } }
            """
    }

    @Test(arguments: ["", "types: { Item: { type: object } }"])
    func aJSONTypeNameWrittenAsABareStringSaysHowToWriteTheType(types: String) {
        let found = diagnostics(workflow(types: types, items: "string")).filter { $0.severity == .error }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .unknownReference)
        #expect(found.first?.message == "unknown type 'string'; a bare string names a type declared under "
            + "'types': for the JSON type, write '{ type: string }'")
    }

    @Test func anotherUnknownNameStillGetsADidYouMean() {
        let found = diagnostics(workflow(types: "types: { Item: { type: object } }", items: "Iten"))
            .filter { $0.severity == .error }
        #expect(found.first?.message == "unknown type 'Iten'; did you mean 'Item'?", "\(found)")
    }

    @Test func aDeclaredTypeNamedLikeAJSONTypeIsFound() {
        let found = diagnostics(workflow(types: "types: { string: { type: string } }", items: "string"))
        #expect(found.filter { $0.severity == .error }.isEmpty, "\(found)")
    }
}
