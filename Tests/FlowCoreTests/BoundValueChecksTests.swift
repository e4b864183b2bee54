@testable import FlowCore
import Testing

/// Issue 9 items 8c, 10, 11 and 14: what lint says about values that would not be sent as written.
struct BoundValueChecksTests {
    // MARK: OpenAPI-style placeholders (8c)

    @Test func anOpenAPIPlaceholderIsAWarningWithTheExpressionThatFits() {
        let found = diagnostics(apiServerByDefault + """
            inputs: { type: object, properties: { userId: { type: string } } }
            steps:
              - { id: account, request: { method: GET, path: "/account/{userId}/cards/{cardId}" } }
            """)
        let warnings = found.filter { $0.code == .pathPlaceholder }
        #expect(warnings.count == 2, "\(found)")
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.location?.line == 6 })
        #expect(warnings.first?.message.contains("did you mean '{$inputs.userId}'?") == true, "\(warnings)")
        #expect(warnings.last?.message.contains("'{cardId}' in the path is sent as the literal text '%7BcardId%7D'") == true)
    }

    @Test func aStepOutputOfThatNameIsSuggested() {
        let found = diagnostics(apiServerByDefault + """
            steps:
              - { id: user, request: { method: GET, path: /user }, outputs: { userId: $response.body#/id } }
              - { id: account, request: { method: GET, path: "/account/{userId}" } }
            """)
        #expect(found.contains { $0.message.contains("did you mean '{$steps.user.outputs.userId}'?") }, "\(found)")
    }

    @Test func anEmbeddedExpressionIsNoPlaceholder() {
        let found = diagnostics(apiServerByDefault + """
            inputs: { type: object, properties: { userId: { type: string } } }
            steps:
              - { id: account, request: { method: GET, path: "/account/{$inputs.userId}" } }
            """)
        #expect(found.isEmpty, "\(found)")
    }

    // MARK: Query bindings (10)

    @Test func aListOfObjectsOrListsCannotBeBoundIntoTheQuery() {
        let found = diagnostics(apiServerByDefault + """
            types:
              Item: { type: object, properties: { sku: { type: string }, n: { type: integer } } }
            inputs: { type: object, properties: { items: { type: array, items: Item } } }
            steps:
              - id: search
                request:
                  method: GET
                  path: /search
                  query: { item: $inputs.items, nested: [[1], [2, 3]] }
            """)
        let errors = found.filter { $0.code == .bindingTypeMismatch }
        #expect(errors.count == 2, "\(found)")
        #expect(errors.contains { $0.message.contains("has no query form") && $0.message.contains("'$inputs.items#/0/sku'") },
                "\(errors)")
        #expect(errors.contains { $0.message.contains("this list holds a list or a mapping") }, "\(errors)")
        #expect(errors.allSatisfy { $0.location?.line == 12 })
    }

    @Test func aNestedListFromAResponseIsRefusedAtRunTime() async throws {
        let dispatcher = ScriptedDispatcher { request, index in
            index == 0 ? json(200, #"{"ids": [[1], [2, 3]]}"#) : json(200, "{}")
        }
        let report = try await run(apiServerByDefault + """
            steps:
              - { id: list, request: { method: GET, path: /list }, outputs: { ids: $response.body#/ids } }
              - { id: search, request: { method: GET, path: /search, query: { id: $steps.list.outputs.ids } } }
            """, on: dispatcher)
        #expect(report.error?.code == .binding)
        #expect(report.error?.message.contains("query parameter 'id' is bound to a list that holds a list") == true)
        #expect(dispatcher.calls == ["GET /list"])
    }

    // MARK: Suggested members (14)

    @Test(arguments: [
        ("{ type: object, properties: { name: { type: string } } }", "'$inputs.v#/name'"),
        ("{ type: object, properties: { id: { type: integer }, a: { type: string } } }", "'$inputs.v#/id'"),
        ("{ type: array, items: { type: string } }", "'$inputs.v#/0'"),
        ("{ type: object, properties: { inner: { type: object, properties: { code: { type: string } } } } }",
         "'$inputs.v#/inner/code'"),
        ("{ type: object }", "with a JSON pointer ('$inputs.v#/<member>')"),
    ])
    func theSuggestedMemberExistsInTheDeclaredType(type: String, suggestion: String) {
        let found = diagnostics(apiServerByDefault + """
            inputs: { type: object, properties: { v: \(type) } }
            steps:
              - { id: a, request: { method: GET, path: /a, headers: { X-V: $inputs.v } } }
            """)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.message.contains(suggestion) == true, "\(found)")
    }

    // MARK: Plain scalars (11)

    @Test func plainScalarsThatAreNotSentAsWrittenAreWarned() {
        let found = diagnostics(apiServerByDefault + """
            steps:
              - id: a
                request:
                  method: GET
                  path: /a
                  headers: { X-Count: 1e3, X-Empty: ~, X-Flag: True, X-Plain: 10, X-Quoted: "1e3" }
                  query: { ratio: 1.50, hex: 0x1F, ok: true, list: [1, 2.0] }
            """)
        let messages = found.filter { $0.code == .unquotedScalar }.map(\.message)
        #expect(messages.count == 6, "\(found)")
        #expect(messages.contains { $0.contains("header 'X-Count' is written 1e3") && $0.contains("sent as '1000'") })
        #expect(messages.contains { $0.contains("header 'X-Empty' is written ~, which YAML reads as null, so it is left out") })
        #expect(messages.contains { $0.contains("header 'X-Flag' is written True") && $0.contains("'true'") })
        #expect(messages.contains { $0.contains("query parameter 'ratio' is written 1.50") && $0.contains("'1.5'") })
        #expect(messages.contains { $0.contains("query parameter 'hex' is written 0x1F") && $0.contains("'31'") })
        #expect(messages.contains { $0.contains("query parameter 'list' is written 2.0") && $0.contains("'2'") })
        #expect(found.allSatisfy { $0.severity == .warning })
    }

    @Test func infinityIsRefusedInsteadOfBecomingNull() {
        let found = diagnostics(apiServerByDefault + """
            steps:
              - { id: a, request: { method: GET, path: /a, query: { max: .inf }, headers: { X-Min: -.inf } } }
            """)
        let errors = found.filter { $0.severity == .error }
        #expect(errors.count == 2, "\(found)")
        #expect(errors.allSatisfy { $0.code == .invalidValue && $0.message.contains("YAML's infinity") })
    }

    @Test func numbersAreSentInTheirShortestFormAndNullHeadersAreLeftOut() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{}") }
        let report = try await run(apiServerByDefault + """
            steps:
              - id: a
                request:
                  method: GET
                  path: "/a/{$vars.n}"
                  headers: { X-Count: 1e3, X-Empty: ~, X-Half: 0.5 }
                  query: { big: 1e3, none: ~ }
            vars: { n: 2.0 }
            """, on: dispatcher)
        #expect(report.error == nil, "\(String(describing: report.error))")
        let request = try #require(dispatcher.requests.first)
        #expect(request.url == "https://api.test/a/2?big=1000")
        #expect(request.headers["X-Count"] == "1000")
        #expect(request.headers["X-Half"] == "0.5")
        #expect(request.headers["X-Empty"] == nil)
    }
}
