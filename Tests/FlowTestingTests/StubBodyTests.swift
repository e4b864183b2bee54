import FlowCore
import Logging
import Testing

@testable import FlowTesting

/// Stubs answer text, form and bytes bodies with the `Content-Type` each implies, and match request bodies read
/// by their `Content-Type`, multipart included.
struct StubBodyTests {
    private func mock(_ stubs: String) throws(FlowError) -> MockDispatcher {
        let indented = stubs.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        return MockDispatcher(stubs: try MockStubs.load(yaml: "flowrun-mock: 1\nstubs:\n" + indented, path: "t.mock.yaml"))
    }

    private let context = StepContext(stepID: "s", attempt: 1, logger: Logger(label: "t") { _ in SwiftLogNoOpLogHandler() })

    private func answer(_ mock: MockDispatcher, body: [UInt8]? = nil, contentType: String? = nil) async throws
        -> StepResponse
    {
        let headers: HeaderFields = contentType.map { ["Content-Type": $0] } ?? [:]
        return try await mock.dispatch(
            StepRequest(method: "POST", url: "https://api.test/x", headers: headers, body: body), context: context)
    }

    @Test func textFormAndBase64ResponsesCarryTheirContentType() async throws {
        let text = try await answer(mock("- respond: { text: Stay hungry. }"))
        #expect(text.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(text.body == Array("Stay hungry.".utf8))

        let form = try await answer(mock("- respond: { form: { access_token: t 1, scope: [a, b] } }"))
        #expect(form.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(String(decoding: form.body, as: UTF8.self) == "access_token=t+1&scope=a&scope=b")

        let bytes = try await answer(mock("- respond: { base64: \"AVBO\\nRw==\" }"))
        #expect(bytes.headers["Content-Type"] == "application/octet-stream")
        #expect(bytes.body == [0x01, 0x50, 0x4E, 0x47])

        let png = try await answer(mock("- respond: { headers: { content-type: image/png }, base64: AVBORw== }"))
        #expect(png.headers.values("Content-Type") == ["image/png"])
    }

    @Test func aResponseHasOneBodyAndBase64MustBeBase64() {
        do {
            _ = try mock("- respond: { text: a, body: b }")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("a response has one body: 'body', 'text', 'form' or 'base64'; found 'body' and 'text'"))
            #expect(error.location?.line == 3)
        }
        do {
            _ = try mock("- respond: { base64: not*base64 }")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.message.hasPrefix("'base64' is not base64"))
            #expect(error.location?.column == 24)  // at the value
        }
    }

    @Test func aTextRequestBodyMatchesAsAString() async throws {
        let mock = try mock("- { match: { body: hello }, respond: { status: 204 } }")
        #expect(try await answer(mock, body: Array("hello".utf8), contentType: "text/plain").status == 204)
        await #expect(throws: FlowError.self) {
            try await answer(mock, body: Array("hello!".utf8), contentType: "text/plain")
        }
    }

    @Test func aMultipartRequestBodyMatchesAsAnObjectOfItsParts() async throws {
        let body = MultipartFormData.encode([
            .init(name: "channels", body: Array("general".utf8)),
            .init(name: "meta", contentType: "application/json", body: Array(#"{"year":2026}"#.utf8)),
            .init(name: "file", filename: "q.txt", contentType: "text/plain", body: Array("Stay hungry.".utf8)),
            .init(name: "image", filename: "i.png", contentType: "image/png", body: [0xFF, 0xD8]),
        ], boundary: "b-1")
        let mock = try mock("""
            - match:
                body:
                  channels: general
                  meta: { year: 2026 }
                  file: { filename: q.txt, contentType: text/plain, length: 12, text: Stay hungry. }
                  image: { base64: /9g=, length: 2 }
              respond: { status: 201 }
            - { match: { body: { channels: random } }, respond: { status: 202 } }
            """)
        #expect(try await answer(mock, body: body, contentType: "multipart/form-data; boundary=b-1").status == 201)
        let other = MultipartFormData.encode([.init(name: "channels", body: Array("random".utf8))], boundary: "b-2")
        #expect(try await answer(mock, body: other, contentType: "multipart/form-data; boundary=\"b-2\"").status == 202)
    }
}
