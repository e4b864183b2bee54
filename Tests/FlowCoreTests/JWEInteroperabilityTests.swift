import Foundation
import Testing

@testable import FlowCore

/// flowrun's JWE tokens against an independent implementation: Python's joserfc, when it is installed
/// (`pip install joserfc`; `.ci/run` installs it). Without it the tests pass with a printed notice.
struct JWEInteroperabilityTests {
    /// Runs `script` with python3, the key (base64url) as its first argument, `input` on standard input.
    /// - Returns: Standard output, or `nil` when python3 or joserfc is missing.
    private static func python(_ script: String, key: [UInt8], input: String) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, Base64URL.encode(key)]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 3 { return nil }  // joserfc is not installed
        #expect(process.terminationStatus == 0, "python3 failed")
        return String(decoding: output, as: UTF8.self)
    }

    private static let prelude = """
        import sys, base64
        try:
            from joserfc import jwe
            from joserfc.jwk import OctKey
        except ImportError:
            sys.exit(3)
        raw = base64.urlsafe_b64decode(sys.argv[1] + "=" * (-len(sys.argv[1]) % 4))
        key = OctKey.import_key(raw)
        data = sys.stdin.read()

        """

    private static func skipNotice() {
        print("JWEInteroperabilityTests: python3 with joserfc not found; `pip install joserfc` to run these checks")
    }

    @Test(arguments: [PayloadEncryption.Algorithm.a128gcm, .a256gcm])
    func joserfcDecryptsWhatFlowrunEncrypts(_ algorithm: PayloadEncryption.Algorithm) throws {
        let key = (0..<algorithm.keyLength).map { UInt8(($0 * 7 + 3) % 256) }
        let plaintext = #"{"data":{"amount":125.5},"device":{"id":"d-1"}}"#
        let token = try JWE.encrypt(Array(plaintext.utf8), key: key, algorithm: algorithm, contentType: "application/json")
        let script = Self.prelude + """
            result = jwe.decrypt_compact(data, key)
            assert result.protected["alg"] == "dir" and result.protected["cty"] == "application/json"
            sys.stdout.write(result.protected["enc"] + " " + result.plaintext.decode())
            """
        guard let output = try Self.python(script, key: key, input: token) else { return Self.skipNotice() }
        #expect(output == "\(algorithm.rawValue) \(plaintext)")
    }

    @Test(arguments: [PayloadEncryption.Algorithm.a128gcm, .a256gcm])
    func flowrunDecryptsWhatJoserfcEncrypts(_ algorithm: PayloadEncryption.Algorithm) throws {
        let key = (0..<algorithm.keyLength).map { UInt8(($0 * 11 + 5) % 256) }
        let script = Self.prelude + """
            header = {"alg": "dir", "enc": "\(algorithm.rawValue)", "cty": "text/plain"}
            sys.stdout.write(jwe.encrypt_compact(header, data, key))
            """
        guard let token = try Self.python(script, key: key, input: "Grüße, 42") else { return Self.skipNotice() }
        let opened = try JWE.decrypt(token, key: key)
        #expect(String(decoding: opened.plaintext, as: UTF8.self) == "Grüße, 42")
        #expect(opened.contentType == "text/plain")
    }
}
