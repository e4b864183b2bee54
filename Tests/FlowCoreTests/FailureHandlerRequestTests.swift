import Foundation
import Testing

@testable import FlowCore

/// A `run:` handler's request reads the failed response (issue 9, item 26).
struct FailureHandlerRequestTests {
    /// `charge` fails with 402 and a `CardError`; `report-decline` posts what the failed response said.
    private static func workflow(rule: String = "when: { status: [402] }", handlerBody: String? = nil) -> String {
        let body = handlerBody ?? #"{ status: $statusCode, code: $response.body#/code, requestId: $response.header.X-Request-Id }"#
        return """
            flowrun: 1
            servers:
              shop: { url: "https://shop.test" }
            types:
              Charge: { type: object, properties: { id: { type: string } } }
              CardError:
                type: object
                required: [code]
                properties: { code: { type: string }, declineCode: { type: string } }
            defaults: { server: shop }
            steps:
              - id: charge
                request: { method: POST, path: /charges, body: { amount: 10 } }
                response: { 200: Charge, 402: CardError }
                outputs: { id: $response.body#/id }
                on-error:
                  - \(rule)
                    run: report-decline
              - id: report-decline
                on-demand: true
                request: { method: POST, path: /declines, body: \(body) }
            """
    }

    @Test func theHandlersRequestCarriesTheFailedResponse() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            switch request.path {
            case "/charges":
                return StepResponse(
                    status: 402, headers: ["Content-Type": "application/json", "X-Request-Id": "req-7"],
                    body: Array(#"{"code":"card_declined","declineCode":"insufficient_funds"}"#.utf8))
            default:
                return json(201, "{}")
            }
        }
        let report = try await run(Self.workflow(), on: dispatcher)
        // The handler ran and the run fails with the original failure (`then: fail` is the default).
        #expect(report.error?.code == .httpStatus)
        #expect(report.error?.stepID == "charge")
        let sent = try #require(dispatcher.requests.first { $0.path == "/declines" })
        let body = try JSONValue(parsing: try #require(sent.body))
        #expect(body == ["status": 402, "code": "card_declined", "requestId": "req-7"])
    }

    @Test func lintAcceptsTheHandlersReadsOfTheFailedResponse() {
        #expect(diagnostics(Self.workflow()).isEmpty)
    }

    @Test func aPointerMissingFromTheErrorTypeIsAnError() throws {
        let found = diagnostics(Self.workflow(handlerBody: "{ reason: $response.body#/reason }"))
        let error = try #require(found.first)
        #expect(found.count == 1)
        #expect(error.code == .bindingTypeMismatch)
        #expect(error.message.contains("reads nothing from the failed response of step 'charge'"))
        #expect(error.message.contains("CardError") || error.message.contains("reason"))
        #expect(error.location?.line == 21)
    }

    @Test func aRuleThatAlsoMatchesFailuresWithoutAResponseIsWarnedAbout() throws {
        let found = diagnostics(Self.workflow(rule: "when: { errors: [http, timeout] }"))
        let warning = try #require(found.first)
        #expect(found.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.code == .missingResponse)
        #expect(warning.message.contains("failures without one"))
        #expect(warning.location?.line == 17)
    }

    @Test func aStepThatAlsoRunsAsARefreshStepMayNotReadTheResponseInItsRequest() throws {
        let yaml = Self.workflow().replacingOccurrences(
            of: "defaults: { server: shop }",
            with: """
                interceptors:
                  refresh: { when: { status: 401 }, run: report-decline, then: replay }
                defaults: { server: shop, interceptors: [refresh] }
                """)
        let found = diagnostics(yaml).filter { $0.severity == .error }
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.code == .invalidExpression && $0.message.contains("there is no response there") })
    }
}
