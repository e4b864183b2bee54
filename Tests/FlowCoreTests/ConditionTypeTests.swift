import Testing
@testable import FlowCore

/// Lint refuses a condition whose literal the value it reads can never equal or be ordered with: in `if:`,
/// `repeat`, a retry rule's `when: { if: … }` and a catch rule's, at the condition's place.
struct ConditionTypeTests {
    static func workflow(_ condition: String, placement: String = "if") -> String {
        let step: String
        switch placement {
        case "repeat": step = "    repeat: { until: \"\(condition)\", delay: 1ms }"
        case "retry": step = "    policy: poll"
        default: step = "    if: \"\(condition)\""
        }
        return """
            flowrun: 1
            types:
              Job:
                type: object
                required: [status, count]
                properties:
                  status: { type: string, enum: [running, done] }
                  count: { type: integer }
                  ready: { type: boolean }
                  tags: { type: array, items: { type: string } }
            policies:
              poll: { retry: [{ when: { if: "\(condition)" }, attempts: 3, delay: 1ms }] }
            steps:
              - id: first
                request: { method: GET, path: "https://api.test/first" }
                response: { 200: Job }
                outputs: { count: $response.body#/count }
              - id: job
                request: { method: GET, path: "https://api.test/job/{$steps.first.outputs.count}" }
                response: { 200: Job }
            \(step)
            """
    }

    static func messages(_ yaml: String) -> [String] {
        diagnostics(yaml).filter { $0.code == .bindingTypeMismatch }.map(\.message)
    }

    @Test func aValueOutsideTheEnumCanNeverBeEqual() {
        let found = Self.messages(Self.workflow("$response.body#/status == 'don'", placement: "repeat"))
        #expect(found == [
            #"the condition '$response.body#/status == "don"' can never hold: '$response.body#/status' is one of running, done, never "don"; did you mean 'done'?"#,
        ])
        let always = Self.messages(Self.workflow("$response.body#/status != 'finished'", placement: "retry"))
        #expect(always.first?.contains("always holds") == true)
    }

    @Test func aLiteralOfAnotherTypeIsRefused() {
        #expect(Self.messages(Self.workflow("$steps.first.outputs.count == 'many'")) == [
            #"the condition '$steps.first.outputs.count == "many"' can never hold: '$steps.first.outputs.count' is an integer, and "many" is a string"#,
        ])
        #expect(Self.messages(Self.workflow("$response.body#/ready == 1", placement: "repeat")).count == 1)
        #expect(Self.messages(Self.workflow("$response.body#/tags > 2", placement: "repeat")).first?
            .contains("orders numbers or strings") == true)
        #expect(Self.messages(Self.workflow("$response.body#/count > 'a'", placement: "repeat")).count == 1)
    }

    @Test func comparableLiteralsAndNullPass() {
        for condition in [
            "$response.body#/status == 'done'", "$response.body#/count >= 2.5", "$response.body#/count == 3",
            "$response.body#/ready == true", "$response.body#/status != null", "$statusCode == 200",
        ] {
            #expect(Self.messages(Self.workflow(condition, placement: "repeat")).isEmpty, "\(condition)")
        }
        #expect(Self.messages(Self.workflow("$steps.first.outputs.count < 10")).isEmpty)
    }
}
