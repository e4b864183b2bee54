import Foundation
import Testing

@testable import FlowCore

/// A step's outputs kept by position read, record, redact and encode as the same outputs kept by name.
@Suite struct StepOutputsTests {
    let positioned = StepOutputs(names: ["id", "count", "note"], values: [.string("a-1"), nil, .int(3)])
    let named: StepOutputs = ["id": "a-1", "note": 3]

    @Test func byPositionReadsAsByName() {
        #expect(positioned.named == named.named)
        #expect(positioned.value(named: "id") == .string("a-1"))
        #expect(positioned.value(named: "count") == nil)
        #expect(positioned.value(named: "missing") == nil)
        #expect(!positioned.isEmpty)
        #expect(StepOutputs(names: ["id"], values: [nil]).isEmpty)
        #expect(StepOutputs.none.isEmpty)
    }

    @Test func theTableTakesOutputsInItsOwnOrderWhicheverWayTheyAreKept() {
        #expect(positioned.values(for: ["id", "count", "note"]) == [.string("a-1"), nil, .int(3)])
        #expect(positioned.values(for: ["note", "id"]) == [.int(3), .string("a-1")])
        #expect(named.values(for: ["id", "count", "note"]) == [.string("a-1"), nil, .int(3)])
    }

    @Test func redactionReplacesSecretsAndKeepsOutputsWithoutAny() {
        let redactor = SecretRedactor()
        #expect(positioned.redacted(by: redactor).named == named.named)
        redactor.add("a-1-secret")
        let secret = StepOutputs(names: ["token", "id"], values: [.string("a-1-secret"), .string("plain")])
        #expect(secret.redacted(by: redactor).named == ["token": "***", "id": "plain"])
        #expect(positioned.redacted(by: redactor).named == named.named)
    }

    @Test func theyEncodeAsTheDictionaryOfTheirNames() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(positioned), as: UTF8.self)
        #expect(text == #"{"id":"a-1","note":3}"#)
        let decoded = try JSONDecoder().decode(StepOutputs.self, from: Data(text.utf8))
        #expect(decoded.named == named.named)
    }
}
