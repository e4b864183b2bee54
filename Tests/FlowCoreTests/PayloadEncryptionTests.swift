import Foundation
import Testing

@testable import FlowCore

/// The `wrap`, `encrypt` and `decrypt` interceptors in a run.
struct PayloadEncryptionTests {
    static let key = Array(0..<32).map(UInt8.init)
    static let keyText = Base64URL.encode(key)

    static let workflow = """
        flowrun: 1
        inputs:
          type: object
          properties: { payloadKey: { type: string, format: password } }
        servers:
          api: { url: "https://api.test" }
        types:
          Receipt: { type: object, required: [id], properties: { id: { type: string } } }
        interceptors:
          envelope: { wrap: { at: /data, envelope: { device: { id: d-7 } } } }
          unwrap-data: { unwrap: /data }
          encrypt: { encrypt: { key: $inputs.payloadKey, enc: A256GCM } }
          decrypt: { decrypt: { key: $inputs.payloadKey } }
        defaults: { server: api, interceptors: [envelope, unwrap-data, encrypt, decrypt] }
        steps:
          - id: pay
            request: { method: POST, path: /payments, body: { amount: 10 } }
            response: { 201: Receipt }
            outputs: { id: $response.body#/id }
        outputs: { id: $steps.pay.outputs.id }
        """

    /// A server that decrypts the request, records the envelope, and answers with an encrypted receipt.
    static func server(recording envelopes: RecordedEnvelopes, answer: [UInt8]? = nil) -> ScriptedDispatcher {
        ScriptedDispatcher { request, _ in
            let (plaintext, contentType) = try JWE.decrypt(
                String(decoding: request.body ?? [], as: UTF8.self), key: key)
            envelopes.append(try JSONValue(parsing: plaintext), contentType: contentType)
            let receipt = try JWE.encrypt(
                Array(#"{"data":{"id":"pay-1"}}"#.utf8), key: key, algorithm: .a256gcm, contentType: "application/json")
            return StepResponse(
                status: 201, headers: ["Content-Type": "application/jose"], body: answer ?? Array(receipt.utf8))
        }
    }

    @Test func theBodyGoesOutWrappedAndEncryptedAndTheReceiptComesBackDecryptedAndUnwrapped() async throws {
        let envelopes = RecordedEnvelopes()
        let dispatcher = Self.server(recording: envelopes)
        let report = try await run(Self.workflow, on: dispatcher, inputs: ["payloadKey": .string(Self.keyText)])
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs == ["id": "pay-1"])
        let sent = try #require(dispatcher.requests.first)
        #expect(sent.headers["Content-Type"] == "application/jose")
        #expect(envelopes.values == [["data": ["amount": 10], "device": ["id": "d-7"]]])
        #expect(envelopes.contentTypes == ["application/json"])
    }

    @Test func aReceiptThatDoesNotDecryptIsADecodeFailureOfTheStepThatNeverQuotesTheKey() async throws {
        let dispatcher = Self.server(recording: RecordedEnvelopes(), answer: Array("not.a.jwe.token.x".utf8))
        let report = try await run(Self.workflow, on: dispatcher, inputs: ["payloadKey": .string(Self.keyText)])
        let error = try #require(report.error)
        #expect(error.code == .decode)
        #expect(error.stepID == "pay")
        #expect(error.message.contains("cannot decrypt the response (status 201)"))
        #expect(!"\(report)".contains(Self.keyText))
    }

    @Test func aPlainSuccessBodyWhereAnEncryptedOneIsExpectedIsRefused() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(201, #"{"data":{"id":"forged"}}"#) }
        let report = try await run(Self.workflow, on: dispatcher, inputs: ["payloadKey": .string(Self.keyText)])
        #expect(report.error?.code == .decode)
        #expect(report.outputs.isEmpty)
    }

    @Test func aPlainErrorBodyPassesThroughToTheStepsErrorHandling() async throws {
        let dispatcher = ScriptedDispatcher { _, _ in json(503, #"{"message":"maintenance"}"#) }
        let report = try await run(Self.workflow, on: dispatcher, inputs: ["payloadKey": .string(Self.keyText)])
        #expect(report.error?.code == .httpStatus)
        #expect(report.error?.message == "status 503: maintenance")
    }

    @Test func aKeyOfTheWrongSizeFailsTheAttemptWithoutQuotingIt() async throws {
        let shortKey = Base64URL.encode(Array(repeating: 7, count: 16))
        let dispatcher = ScriptedDispatcher { _, _ in json(201, "{}") }
        let report = try await run(Self.workflow, on: dispatcher, inputs: ["payloadKey": .string(shortKey)])
        let error = try #require(report.error)
        #expect(error.code == .interceptor)
        #expect(error.message.contains("A256GCM needs a 256-bit key"))
        #expect(!"\(report)".contains(shortKey))
        #expect(dispatcher.requests.isEmpty)
    }

    @Test(arguments: [
        ("encrypt: { key: $inputs.payloadKey, enc: A128CBC-HS256 }", "unsupported 'enc' 'A128CBC-HS256'"),
        ("encrypt: { key: $inputs.payloadKey, alg: RSA-OAEP }", "unsupported 'alg' 'RSA-OAEP'"),
        ("encrypt: { enc: A256GCM }", "'key'"),
        ("wrap: { at: /data, envelope: [1] }", "'envelope' is a mapping"),
        ("wrap: ''", "'' is the whole body"),
    ])
    func badSettingsAreLocatedErrors(_ declaration: String, _ message: String) throws {
        let yaml = Self.workflow.replacingOccurrences(
            of: "encrypt: { encrypt: { key: $inputs.payloadKey, enc: A256GCM } }", with: "encrypt: { \(declaration) }")
        let found = diagnostics(yaml).filter { $0.severity == .error }
        let first = try #require(found.first, "\(declaration)")
        #expect(first.message.contains(message), "\(first.message)")
        #expect(first.location?.line == 12)
    }
}

/// What the scripted server decrypted, in order.
final class RecordedEnvelopes: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(JSONValue, String?)] = []

    func append(_ value: JSONValue, contentType: String?) { lock.withLock { recorded.append((value, contentType)) } }
    var values: [JSONValue] { lock.withLock { recorded.map(\.0) } }
    var contentTypes: [String?] { lock.withLock { recorded.map(\.1) } }
}
