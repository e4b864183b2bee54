import Foundation
import Testing

@testable import FlowCore

struct JWETests {
    static let key256 = Array(0..<32).map(UInt8.init)
    static let key128 = Array(0..<16).map(UInt8.init)

    @Test(arguments: [PayloadEncryption.Algorithm.a128gcm, .a256gcm])
    func aTokenDecryptsToItsPlaintextAndContentType(_ algorithm: PayloadEncryption.Algorithm) throws {
        let key = algorithm == .a128gcm ? Self.key128 : Self.key256
        let plaintext = Array(#"{"amount":12.5}"#.utf8)
        let token = try JWE.encrypt(plaintext, key: key, algorithm: algorithm, contentType: "application/json")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 5)
        #expect(parts[1].isEmpty, "alg dir has no encrypted key")
        #expect(Base64URL.decode(parts[2])?.count == 12, "a 96-bit IV")
        #expect(Base64URL.decode(parts[4])?.count == 16, "a 128-bit tag")
        let header = try JSONValue(parsing: try #require(Base64URL.decode(parts[0])))
        #expect(header == ["alg": "dir", "enc": .string(algorithm.rawValue), "cty": "application/json"])
        let opened = try JWE.decrypt(token, key: key)
        #expect(opened.plaintext == plaintext)
        #expect(opened.contentType == "application/json")
    }

    @Test func everyTokenHasAFreshIV() throws {
        let first = try JWE.encrypt([1, 2, 3], key: Self.key256, algorithm: .a256gcm, contentType: nil)
        let second = try JWE.encrypt([1, 2, 3], key: Self.key256, algorithm: .a256gcm, contentType: nil)
        #expect(first != second)
    }

    @Test func aWrongKeyOrAnAlteredTokenDoesNotDecrypt() throws {
        let token = try JWE.encrypt(Array("secret".utf8), key: Self.key256, algorithm: .a256gcm, contentType: nil)
        var otherKey = Self.key256
        otherKey[0] ^= 1
        #expect(throws: JWE.Failure.self) { try JWE.decrypt(token, key: otherKey) }
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var ciphertext = try #require(Base64URL.decode(parts[3]))
        ciphertext[0] ^= 1
        parts[3] = Base64URL.encode(ciphertext)
        let error = #expect(throws: JWE.Failure.self) { try JWE.decrypt(parts.joined(separator: "."), key: Self.key256) }
        #expect(error?.message.contains("does not decrypt with the configured key") == true)
    }

    @Test func theHeaderIsAuthenticated() throws {
        let token = try JWE.encrypt(Array("x".utf8), key: Self.key256, algorithm: .a256gcm, contentType: nil)
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[0] = Base64URL.encode(Array(#"{"alg":"dir","enc":"A256GCM","cty":"text/plain"}"#.utf8))
        #expect(throws: JWE.Failure.self) { try JWE.decrypt(parts.joined(separator: "."), key: Self.key256) }
    }

    @Test(arguments: [
        ("a.b.c", "has 3 dot-separated parts"),
        ("eyJhbGciOiJub25lIiwiZW5jIjoiQTI1NkdDTSJ9....", "unsupported JWE 'alg' \"none\""),
        ("eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4Q0JDLUhTMjU2In0....", "unsupported JWE 'enc' \"A128CBC-HS256\""),
        ("eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwiemlwIjoiREVGIn0....", "'zip'"),
    ])
    func malformedOrUnsupportedTokensAreRefusedWithAReason(_ token: String, _ reason: String) {
        let error = #expect(throws: JWE.Failure.self) { try JWE.decrypt(token, key: Self.key256) }
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test func anIVOrTagOfTheWrongLengthIsRefused() throws {
        let token = try JWE.encrypt(Array("x".utf8), key: Self.key256, algorithm: .a256gcm, contentType: nil)
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[2] = Base64URL.encode(Array(repeating: 0, count: 16))
        let error = #expect(throws: JWE.Failure.self) { try JWE.decrypt(parts.joined(separator: "."), key: Self.key256) }
        #expect(error?.message == "the JWE IV must be 96 bits and its tag 128 bits; found 128 and 128")
    }

    @Test func aKeyOfTheWrongLengthIsRefusedWithoutQuotingIt() {
        let error = #expect(throws: JWE.Failure.self) {
            try JWE.encrypt([1], key: Self.key128, algorithm: .a256gcm, contentType: nil)
        }
        #expect(error?.message == "A256GCM needs a 256-bit key (32 bytes, base64url-encoded); the key has 16 bytes")
    }

    @Test func base64URLRoundTripsAndRefusesTheStandardAlphabet() {
        for count in 0..<8 {
            let bytes = (0..<count).map { UInt8(250 - $0) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("a") == nil)
    }
}
