import FlowCore
import FlowTestServer
import Foundation
import Logging
import Testing

@testable import FlowHTTP

/// `bytes` compressed by the system's `gzip`, or `nil` when there is none.
private func gzip(_ bytes: [UInt8]) -> [UInt8]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-c", "-9"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    // Written from another thread, so that a full output pipe cannot block the write.
    let writer = Thread {
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let compressed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? [UInt8](compressed) : nil
}

/// A 2 MB JSON body of repetitive records, and its gzip form (about 400 times smaller).
private let records: [UInt8] = {
    let record = #"{"id":"item","status":"active","tags":["a","b"]},"#
    let count = 2_000_000 / record.utf8.count
    return Array(("[" + String(repeating: record, count: count) + #"{"id":"last"}]"#).utf8)
}()
private let compressedRecords = gzip(records)

private func context() -> StepContext {
    StepContext(
        stepID: "s", attempt: 1, attemptTimeout: .seconds(20),
        logger: Logger(label: "FlowHTTPTests") { _ in SwiftLogNoOpLogHandler() })
}

@Suite(.enabled(if: compressedRecords != nil, "gzip is not installed"), .timeLimit(.minutes(1)))
struct CompressedBodyTests {
    /// The server's answer: the records, gzip-compressed.
    static let reply = TestReply(
        headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: compressedRecords ?? [])

    @Test func aWellCompressedBodyWithinTheSizeLimitIsRead() async throws {
        let ratio = records.count / Self.reply.body.count
        #expect(ratio > 100, "the body compresses \(ratio) times")
        try await withTestServer({ _ in Self.reply }) { server in
            let response = try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false) { http in
                try await http.dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/records"), context: context())
            }
            #expect(response.status == 200)
            #expect(response.body == records)
        }
    }

    @Test func aBodyOverTheSizeLimitOnceInflatedNamesTheLimitAndHowToRaiseIt() async throws {
        try await withTestServer({ _ in Self.reply }) { server in
            let error = await #expect(throws: FlowError.self) {
                try await AsyncHTTPClientDispatcher.withDispatcher(insecure: false, maxResponseBodySize: 1_000_000) {
                    try await $0.dispatch(
                        StepRequest(method: "GET", url: server.baseURL + "/records"), context: context())
                }
            }
            #expect(error?.code == .transport)
            #expect(error?.message == "the response body is larger than 1000000 bytes once decompressed (the response "
                + "body size limit; raise it with flowrun run --max-body-size, or "
                + "AsyncHTTPClientDispatcher.Configuration.maxResponseBodySize)")
        }
    }

    @Test func theSharedClientsRatioLimitIsExplained() async throws {
        try await withTestServer({ _ in Self.reply }) { server in
            let error = await #expect(throws: FlowError.self) {
                try await AsyncHTTPClientDispatcher().dispatch(
                    StepRequest(method: "GET", url: server.baseURL + "/records"), context: context())
            }
            #expect(error?.code == .transport)
            #expect(error?.message.hasPrefix(
                "the compressed response body inflates more than the HTTP client's decompression limit allows "
                    + "(HTTPClient.shared refuses 25 times its compressed size; "
                    + "use AsyncHTTPClientDispatcher.withDispatcher"
            ) == true, "\(String(describing: error))")
        }
    }
}
