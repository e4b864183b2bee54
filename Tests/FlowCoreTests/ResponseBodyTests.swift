import Logging
import Testing
@testable import FlowCore

/// Response bodies are read by their `Content-Type` (JSON, text, form, bytes), a step's `parse:` overrides a
/// server that labels its body wrongly, and a parser registered from Swift reads what none of those reads.
struct ResponseBodyTests {
    /// A workflow with one step `get` whose response is declared as `declared` and read as `parse`.
    static func workflow(declared: String? = nil, parse: String? = nil) -> String {
        var response: [String] = []
        if let declared { response.append("200: \(declared)") }
        if let parse { response.append("parse: \(parse)") }
        return """
            flowrun: 1
            steps:
              - id: get
                request: { method: GET, path: "https://api.test/quote" }
                response: { \(response.joined(separator: ", ")) }
                outputs: { body: $response.body }
            outputs: { body: $steps.get.outputs.body }
            """
    }

    static func answering(_ body: String, contentType: String?) -> ScriptedDispatcher {
        ScriptedDispatcher { _, _ in
            StepResponse(
                status: 200, headers: contentType.map { ["Content-Type": $0] } ?? [:], body: Array(body.utf8))
        }
    }

    @Test(arguments: [
        ("text/plain; charset=utf-8", "Stay hungry.", JSONValue.string("Stay hungry.")),
        ("text/csv", "a,b\n1,2", .string("a,b\n1,2")),
        ("application/problem+json", #"{"title":"x"}"#, .object(["title": "x"])),
        ("Application/JSON; charset=utf-8", "[1, 2]", .array([1, 2])),
        ("application/x-www-form-urlencoded", "a=1&b=x+y&a=2", .object(["a": ["1", "2"], "b": "x y"])),
        ("image/png", "\u{1}PNG", .object(["contentType": "image/png", "length": 4, "base64": "AVBORw=="])),
    ])
    func aBodyIsReadByItsContentType(contentType: String, body: String, expected: JSONValue) async throws {
        let report = try await run(Self.workflow(), on: Self.answering(body, contentType: contentType))
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["body"] == expected)
    }

    @Test(arguments: [
        ("application/json", BodyFormat.json), (" Application/JSON ; charset=utf-8", .json), ("APPLICATION/VND.API+JSON", .json),
        ("application/jsonl", .bytes), ("application/json-seq", .bytes), ("+json", .bytes), ("text/", .bytes),
        ("Text/Plain", .text), ("text/csv;header=present", .text), ("application/x-www-form-urlencoded; charset=utf-8", .form),
        ("multipart/form-data; boundary=x", .bytes), ("image/png", .bytes),
    ])
    func theContentTypeChoosesTheFormatIgnoringCaseSpacesAndParameters(contentType: String, format: BodyFormat) {
        #expect(BodyFormat(contentType: contentType) == format)
    }

    @Test func noOrAnEmptyContentTypeChoosesNothing() {
        #expect(BodyFormat(contentType: nil) == nil)
        #expect(BodyFormat(contentType: " ; charset=utf-8") == nil)
    }

    @Test func aQuoteServiceAnsweringPlainTextFillsADeclaredString() async throws {
        let report = try await run(
            Self.workflow(declared: "{ type: string, minLength: 3 }"),
            on: Self.answering("Simplicity is prerequisite for reliability.", contentType: "text/plain"))
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["body"] == "Simplicity is prerequisite for reliability.")
    }

    @Test func aBodyWithoutAContentTypeIsJSONWhenItParsesElseText() async throws {
        let parsed = try await run(Self.workflow(), on: Self.answering(#"{"n": 1}"#, contentType: nil))
        #expect(parsed.outputs["body"] == .object(["n": 1]))
        let text = try await run(Self.workflow(), on: Self.answering("ok", contentType: nil))
        #expect(text.outputs["body"] == "ok")
    }

    @Test func latin1TextIsDecodedByItsCharset() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in
            StepResponse(status: 200, headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: [0x63, 0xE9])
        }
        let report = try await run(Self.workflow(), on: dispatcher)
        #expect(report.outputs["body"] == "cé")
    }

    @Test func parseJSONReadsJSONThatTheServerLabelsAsText() async throws {
        let report = try await run(
            Self.workflow(declared: "{ type: object, required: [n] }", parse: "json"),
            on: Self.answering(#"{"n": 1}"#, contentType: "text/plain"))
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["body"] == .object(["n": 1]))
    }

    @Test func parseJSONOnABodyThatIsNotJSONIsADecodeErrorThatSaysWhatArrived() async throws {
        let report = try await run(
            Self.workflow(parse: "json"), on: Self.answering("<html>", contentType: "text/html"))
        let error = try #require(report.error)
        #expect(error.code == .decode)
        #expect(error.stepID == "get")
        #expect(error.message.hasPrefix(
            "the response body is not valid JSON ('parse: json'; Content-Type: text/html): line 1, column 1:"),
            "\(error.message)")
        #expect(error.responseExcerpt == "<html>")
    }

    @Test func parseTextKeepsAJSONBodyAsItsText() async throws {
        let report = try await run(
            Self.workflow(parse: "text"), on: Self.answering(#"{"n":1}"#, contentType: "application/json"))
        #expect(report.outputs["body"] == #"{"n":1}"#)
    }

    @Test func parseBytesGivesTheBase64OfAnyBody() async throws {
        let report = try await run(
            Self.workflow(parse: "bytes"), on: Self.answering("hi", contentType: "text/plain"))
        #expect(report.outputs["body"] == .object(["contentType": "text/plain", "length": 2, "base64": "aGk="]))
    }

    @Test func htmlWhereAnObjectIsDeclaredIsADecodeErrorSuggestingParseJSON() async throws {
        let report = try await run(
            Self.workflow(declared: "{ type: object }"), on: Self.answering("<html>down</html>", contentType: "text/html"))
        let error = try #require(report.error)
        #expect(error.code == .decode)
        #expect(error.message.contains("was read as text (Content-Type: text/html) and does not match"))
        #expect(error.message.contains("add 'parse: json'"))
    }

    @Test func aJSONBodyThatFailsItsTypeIsStillAValidationError() async throws {
        let report = try await run(
            Self.workflow(declared: "{ type: string }"), on: Self.answering("[1]", contentType: "application/json"))
        #expect(report.error?.code == .validation)
        #expect(report.error?.message.contains("read as") == false)
    }

    @Test func lintRefusesAParseThatCannotGiveTheDeclaredType() {
        let found = diagnostics(Self.workflow(declared: "{ type: object }", parse: "text"))
        #expect(found.map(\.code) == [.bindingTypeMismatch])
        #expect(found.first?.message
            == "'parse: text' reads the body as a string, but status 200 of step 'get' declares an object")
        #expect(found.first?.location?.line == 5)
        #expect(found.first?.location?.column == 47)  // at `text`
    }

    @Test func anUnknownParseFormatSuggestsTheNearestOne() {
        let found = diagnostics(Self.workflow(parse: "jsn"))
        #expect(found.map(\.message) == ["'parse' is one of json, text, form, bytes or { use: <parser> }, found 'jsn'; did you mean 'json'?"])
    }

    // MARK: Registered parsers

    static let csvRows = "{ type: array, items: { type: array, items: { type: string }, minItems: 2 } }"

    func runWithCSV(_ body: String, declared: String = csvRows, registered: Bool = true) async throws
        -> (RunReport, ScriptedDispatcher)
    {
        let dispatcher = Self.answering(body, contentType: "text/csv")
        var engine = engine(dispatcher)
        if registered { engine.parsers.register(CSVParser(), as: "csv") }
        let plan = try plan(Self.workflow(declared: declared, parse: "{ use: csv }"))
        return (await engine.run(plan, inputs: [:], environment: [:]), dispatcher)
    }

    @Test func aRegisteredParserReadsTheBody() async throws {
        let (report, _) = try await runWithCSV("id,name\n1,ada")
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["body"] == .array([.array(["id", "name"]), .array(["1", "ada"])]))
    }

    @Test func aParsersValueIsCheckedAgainstTheDeclaredType() async throws {
        let (report, _) = try await runWithCSV("id\n1")
        #expect(report.error?.code == .validation)
        #expect(report.error?.message.contains("at /0: expected at least 2 items") == true, "\(report.error!)")
    }

    @Test func aParserThatThrowsIsADecodeErrorNamingIt() async throws {
        let (report, _) = try await runWithCSV("\"x")
        #expect(report.error?.code == .decode)
        #expect(report.error?.message
            == "response parser 'csv' could not read the body (Content-Type: text/csv): quoted CSV fields are not supported")
    }

    /// A parser that throws a `FlowError` is quoted by its message, not its `error: …` description.
    @Test func aParsersFlowErrorIsQuotedByItsMessage() async throws {
        struct Refusing: ResponseParser {
            func parse(_ response: StepResponse) throws -> JSONValue {
                throw FlowError(.decode, "the export has no header row")
            }
        }
        let dispatcher = Self.answering("1,2", contentType: "text/csv")
        var engine = engine(dispatcher)
        engine.parsers.register(Refusing(), as: "csv")
        let report = await engine.run(
            try plan(Self.workflow(declared: Self.csvRows, parse: "{ use: csv }")), inputs: [:], environment: [:])
        #expect(report.error?.code == .decode)
        #expect(report.error?.message
            == "response parser 'csv' could not read the body (Content-Type: text/csv): the export has no header row")
    }

    @Test func anUnregisteredParserFailsTheRunBeforeItsFirstRequest() async throws {
        let (report, dispatcher) = try await runWithCSV("a,b", registered: false)
        let error = try #require(report.error)
        #expect(error.code == .unknownReference)
        #expect(error.message.hasPrefix("'parse: { use: csv }' names a response parser that is not registered"))
        #expect(error.location?.line == 5)
        let line = Self.workflow(declared: Self.csvRows, parse: "{ use: csv }").split(separator: "\n")[4]
        #expect(error.location?.column == line.distance(from: line.startIndex, to: line.firstRange(of: "csv }")!.lowerBound) + 1)
        #expect(dispatcher.requests.isEmpty)
    }
}
