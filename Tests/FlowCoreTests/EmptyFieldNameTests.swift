import Testing

@testable import FlowCore

/// Query and form field names may be any text but empty: the finding for an empty one says so, rather than
/// asking for the letters-and-digits form of step ids and vars, which these names need not have.
struct EmptyFieldNameTests {
    @Test(arguments: [("query", "query: { \"\": x }"), ("form", "form: { \"\": x }")])
    func anEmptyFieldNameIsRefusedWithTheRuleThatApplies(key: String, field: String) {
        let found = diagnostics(apiServerByDefault + """
            steps:
              - { id: a, request: { method: POST, path: /a, \(field) } }
            """)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .invalidValue)
        #expect(found.first?.message == "'' in '\(key)' is not a name (any text, but not empty)")
    }

    @Test func aFieldNameWithSpacesAndPunctuationIsAccepted() {
        let found = diagnostics(apiServerByDefault + """
            steps:
              - { id: a, request: { method: POST, path: /a, query: { "a b": x, "filter[name]": y } } }
            """)
        #expect(found.isEmpty, "\(found)")
    }
}
