import Testing
@testable import FlowCore

/// Integers beyond 64 bits stay exact from a response body to the next request and the outputs, and an object
/// with a repeated key is refused rather than read as whichever value came last.
struct JSONNumberAndKeyTests {
    static let big = "123456789012345678901234567890"

    static let workflow = """
        flowrun: 1
        types:
          Item: { type: object, required: [id], properties: { id: { type: integer, minimum: 0 } } }
        steps:
          - id: item
            request: { method: GET, path: "https://api.test/item" }
            response: { 200: Item }
            outputs: { id: $response.body#/id }
          - id: detail
            request:
              method: POST
              path: "https://api.test/items/{$steps.item.outputs.id}"
              query: { id: $steps.item.outputs.id }
              body: { id: $steps.item.outputs.id, label: "item {$steps.item.outputs.id}" }
            outputs: { echoed: $response.body#/id }
        outputs:
          id: $steps.item.outputs.id
          echoed: $steps.detail.outputs.echoed
        """

    @Test func anIntegerBeyond64BitsPassesThroughBindingsExactly() async throws {
        let dispatcher = ScriptedDispatcher { request, _ in
            if request.url.hasSuffix("/item") { return json(200, #"{"id": \#(Self.big)}"#) }
            return StepResponse(status: 200, headers: ["Content-Type": "application/json"], body: request.body ?? [])
        }
        let report = try await run(Self.workflow, on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        let detail = try #require(dispatcher.requests.last)
        #expect(detail.url == "https://api.test/items/\(Self.big)?id=\(Self.big)")
        #expect(String(decoding: detail.body ?? [], as: UTF8.self)
            == #"{"id":\#(Self.big),"label":"item \#(Self.big)"}"#)
        #expect(report.outputs == ["id": .bigInteger(Self.big), "echoed": .bigInteger(Self.big)])
        #expect(JSONValue.object(report.outputs).serialized() == #"{"echoed":\#(Self.big),"id":\#(Self.big)}"#)
    }

    @Test func aBigIntegerIsAnIntegerToValidation() {
        let location = SourceLocation(path: "t.yaml", line: 1, column: 1)
        let validator = JSONSchemaValidator(types: [:])
        func failures(_ value: JSONValue, _ schema: JSONSchema) -> [String] {
            validator.validate(value, against: schema).map(\.description)
        }
        let value = JSONValue.bigInteger(Self.big)
        #expect(value.typeName == "integer")
        #expect(value.doubleValue == 1.2345678901234568e29)
        #expect(failures(value, JSONSchema(location: location, types: [.integer])) == [])
        #expect(failures(value, JSONSchema(location: location, types: [.number])) == [])
        #expect(failures(value, JSONSchema(location: location, types: [.string]))
            == ["at (root): expected a string, found the number \(Self.big)"])
        // Bounds compare exactly: 2^97 is 158456325028528675187087900672.
        let twoTo97 = 0x1p97
        let atMost = JSONSchema(location: location, maximum: twoTo97)
        #expect(failures(.bigInteger("158456325028528675187087900672"), atMost) == [])
        #expect(failures(.bigInteger("158456325028528675187087900673"), atMost)
            == ["at (root): the number 158456325028528675187087900673 is greater than the maximum \(twoTo97)"])
        let atLeast = JSONSchema(location: location, minimum: -twoTo97)
        #expect(failures(.bigInteger("-158456325028528675187087900673"), atLeast).count == 1)
        #expect(failures(.bigInteger("-158456325028528675187087900672"), atLeast) == [])
        #expect(failures(.bigInteger("-9223372036854775809"), JSONSchema(location: location, maximum: 0)) == [])
        #expect(failures(.bigInteger("9223372036854775808"), JSONSchema(location: location, exclusiveMinimum: 0x1p63))
            .count == 1)
        #expect(failures(.bigInteger("9223372036854775809"), JSONSchema(location: location, exclusiveMinimum: 0x1p63))
            == [])
        #expect(JSONValue.bigInteger("158456325028528675187087900672").isSchemaEqual(to: .double(twoTo97)))
        #expect(!JSONValue.bigInteger("158456325028528675187087900673").isSchemaEqual(to: .double(twoTo97)))
        #expect(!value.isSchemaEqual(to: .int(.max)))
    }

    @Test func aResponseBodyWithARepeatedKeyIsADecodeErrorThatSaysWhere() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(200, "{\"id\": 1,\n \"id\": 2}") }
        let report = try await run(Self.workflow, on: dispatcher)
        let error = try #require(report.error)
        #expect(error.code == .decode)
        #expect(error.stepID == "item")
        #expect(error.message == "the response body is not valid JSON (Content-Type: application/json): "
            + "line 2, column 2: duplicate key \"id\" in an object "
            + "(first at line 1, column 2); which value such an object holds depends on the parser")
        #expect(dispatcher.requests.count == 1)
    }
}
