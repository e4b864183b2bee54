import Testing
@testable import FlowCore

/// The request bodies beside `body:` and `form:` (`text:` and `multipart:`) as the decoder and lint see them:
/// one body per request, well-formed parts and content types, and files that exist inside the workflow's folder.
struct RequestBodyDeclarationTests {
    /// A workflow whose one request has `body` written in flow style after its path.
    static func workflow(_ body: String) -> String {
        """
        flowrun: 1
        steps:
          - id: send
            request: { method: POST, path: "https://api.test/x", \(body) }
        """
    }

    func findings(_ body: String) -> [String] {
        diagnostics(Self.workflow(body)).map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }
    }

    @Test func aRequestHasOneBody() {
        #expect(findings(#"body: { a: 1 }, text: "x""#)
            == ["4:74 a request has one body: 'body' (JSON), 'form', 'text' or 'multipart'; found 'body' and 'text'"])
        #expect(findings(#"form: { a: "1" }, multipart: { a: "1" }"#)
            == ["4:76 a request has one body: 'body' (JSON), 'form', 'text' or 'multipart'; found 'form' and 'multipart'"])
    }

    @Test func aTextBodyIsAStringOrAValueWithAContentType() {
        #expect(findings(#"text: "hello""#).isEmpty)
        #expect(findings(#"text: { value: "a,b", contentType: "text/csv; charset=utf-8" }"#).isEmpty)
        #expect(findings("text: [a]") == ["4:64 expected 'text' to be a string or a mapping with 'value', found a sequence"])
        #expect(findings("text: { contentType: text/csv }").first?.contains("'value'") == true)
        #expect(findings(#"text: { value: "a", contentType: csv }"#)
            == ["4:91 'csv' is not a content type such as 'text/csv' or 'image/png'"])
    }

    @Test func aMultipartPartIsAFileOrAValue() {
        #expect(findings(#"multipart: { a: { file: x.csv, value: "1" } }"#)
            == ["4:74 multipart part 'a' has either 'file' (a path relative to the workflow file) or 'value', not both; "
                + "write a plain value for a field"])
        #expect(findings("multipart: { a: { filename: x.txt } }").first?.contains("not neither") == true)
        #expect(findings("multipart: { a: { value: x, kind: file } }").first?.contains("'kind'") == true)
    }

    @Test func aLiteralFileMustExistInsideTheWorkflowFolder() {
        #expect(findings("multipart: { a: { file: no-such-file.csv } }").first?
            .hasPrefix("4:82 the file of multipart part 'a': 'no-such-file.csv' does not exist") == true)
        #expect(findings("multipart: { a: { file: /etc/passwd } }")
            == ["4:82 the file of multipart part 'a': '/etc/passwd' is absolute; a file path is relative to the "
                + "workflow file's folder"])
        #expect(findings("multipart: { a: { file: ../secrets.txt } }").first?
            .contains("'../secrets.txt' leaves the workflow file's folder") == true)
    }

    @Test func aPlainNumberInAMultipartFieldIsWarnedAbout() {
        let found = diagnostics(Self.workflow("multipart: { zip: 01234 }"))
        #expect(found.map(\.code) == [.unquotedScalar])
        #expect(found.first?.severity == .warning)
    }

    @Test func theHandlerOfAFailureMayReadTheResponseInATextBody() throws {
        let found = diagnostics("""
            flowrun: 1
            steps:
              - id: send
                request: { method: POST, path: "https://api.test/x", text: "hello" }
                on-error: [{ when: { status: 500 }, run: report, then: continue }]
              - id: report
                on-demand: true
                request: { method: POST, path: "https://api.test/log", text: "status {$statusCode}: {$response.body}" }
            """)
        #expect(found.isEmpty, "\(found)")
    }
}
