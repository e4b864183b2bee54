import Testing

@testable import FlowCore

/// A step left out of the workflow because of its errors is still declared: what refers to it gets no
/// "unknown step" finding on top of the real one.
struct LeftOutStepReferenceTests {
    @Test(arguments: [
        #"request: { method: GET, path: "https://api.test/{$steps.s.outputs.a}" }"#,
        #"after: s\n    request: { method: GET, path: "https://api.test/t" }"#,
        #"request: { method: GET, path: "https://api.test/t" }\n    on-error: [{ goto: s }]"#,
    ])
    func aReferenceToAStepWithErrorsIsNotAnUnknownStep(reader: String) {
        let found = diagnostics("""
            flowrun: 1
            steps:
              - id: s
                request: { method: GET }
                outputs: { a: $response.body#/a }
              - id: t
                \(reader.replacing("\\n", with: "\n"))
            """)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .missingKey)
    }

    @Test func aStepThatIsNotDeclaredIsStillAnUnknownStep() {
        let found = diagnostics("""
            flowrun: 1
            steps:
              - id: s
                request: { method: GET }
              - id: t
                request: { method: GET, path: "https://api.test/{$steps.u.outputs.a}" }
            """)
        #expect(found.contains { $0.code == .unknownStep && $0.message.hasPrefix("unknown step 'u'") }, "\(found)")
    }
}
