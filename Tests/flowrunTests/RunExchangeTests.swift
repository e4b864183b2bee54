import FlowTestServer
import Foundation
import Synchronization
import Testing

/// The secrets of ``exchangeWorkflow``'s runs: the password input, the API key, the token the run starts with
/// and the one its refresh step obtains.
private let password = "pa55-word-0d1e"
private let apiKey = "key-7c1d-4b2a"
private let staleToken = "stale-token-11ff"
private let freshToken = "fresh-token-9f8e"

/// Every secret and the forms a server or a header could carry it in: none may appear anywhere.
private let forbidden = [password, apiKey, staleToken, freshToken].flatMap { secret in
    [secret, Data(secret.utf8).base64EncodedString(), Data(secret.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")]
}

/// `GET /account` redirects to `/account/v2`, which wants the fresh token (a 401 otherwise, quoting the
/// `Authorization` it got); `POST /login` hands out the fresh token for the password. `GET /report` is 3000
/// bytes of text, `GET /avatar` eight bytes of PNG.
private let exchangeWorkflow = """
    flowrun: 1
    name: exchange
    inputs:
      type: object
      required: [password]
      properties: { password: { type: string, format: password } }
    env: { API: {}, KEY: {} }
    servers: { api: { url: "{$env.API}" } }
    vars: { token: \(staleToken) }
    interceptors:
      key: { apiKey: { header: X-Bank-Key, value: $env.KEY } }
      auth: { bearer: $vars.token }
      refresh: { when: { status: 401 }, run: login, then: replay }
    defaults: { server: api, interceptors: [key] }
    steps:
      - id: login
        on-demand: true
        request: { method: POST, path: /login, body: { user: ada, password: $inputs.password } }
        response: { 200: { type: object } }
        set: { token: $response.body#/token }
      - id: account
        interceptors: [key, auth, refresh]
        request: { method: GET, path: /account }
        response: { 200: { type: object } }
        outputs: { id: $response.body#/id }
      - id: report
        request: { method: GET, path: "/report/{$steps.account.outputs.id}" }
      - id: avatar
        request: { method: GET, path: /avatar }
    """

/// The report body: 3000 bytes, its lines numbered.
private let longReport = (0..<100).map { String(format: "line %03d of the report: ", $0) + "xxxx" }.joined(separator: "\n")
    .padding(toLength: 3000, withPad: "y", startingAt: 0)

/// The PNG signature: bytes that are not text.
private let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// The server of ``exchangeWorkflow``; `failReport` makes `/report` answer 500.
private func bank(failReport: Bool = false) -> @Sendable (RecordedRequest) -> TestReply {
    { request in
        let json = [("Content-Type", "application/json")]
        switch request.path {
        case "/login":
            let body = String(decoding: request.body, as: UTF8.self)
            guard body.contains(password) else { return .text(#"{"error":"bad password"}"#, status: 403, headers: json) }
            return .text(#"{"token":"\#(freshToken)","echo":\#(body)}"#, headers: json)
        case "/account":
            return .redirect(to: "/account/v2")
        case "/account/v2":
            let authorization = request.values("Authorization").first ?? ""
            guard authorization == "Bearer \(freshToken)" else {
                return .text(#"{"error":"expired: \#(authorization), key \#(request.values("X-Bank-Key").first ?? "")"}"#,
                             status: 401, headers: json + [("WWW-Authenticate", "Bearer")])
            }
            return .text(#"{"id":"acc-42","seen":"\#(authorization)"}"#, headers: json)
        case "/report/acc-42":
            return failReport
                ? .text(#"{"error":"down"}"#, status: 500, headers: json)
                : .text(longReport, headers: [("Content-Type", "text/plain")])
        case "/avatar":
            return TestReply(headers: [("Content-Type", "image/png")], body: pngBytes)
        default:
            return .text("no route", status: 404)
        }
    }
}

/// Issue 13 item 3, "See the exchange": `flowrun run -v`, `-vv` and `--har-out` over a real loopback server.
@Suite(.timeLimit(.minutes(2)))
struct RunExchangeTests {
    private func run(_ extra: [String], folder: TemporaryFolder, server: TestHTTPServer) async throws
        -> FlowRunProcess.Outcome
    {
        let path = try folder.write("exchange.yaml", exchangeWorkflow)
        return try await FlowRunProcess.run(
            ["run", path, "--input", "password=\(password)", "--max-concurrency", "1"] + extra,
            environment: ["API": server.baseURL, "KEY": apiKey], timeout: .seconds(60))
    }

    /// The lines of `text` from the first that is `first`, trimmed, in order.
    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func verbosePrintsEveryRequestAndResponseWithHeadersIncludingThe401AndItsReplay() async throws {
        let folder = try TemporaryFolder()
        try await withTestServer(bank()) { server in
            let outcome = try await run(["-v"], folder: folder, server: server)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let base = server.baseURL
            let all = lines(outcome.stderr)
            let start = try #require(all.firstIndex { $0.hasPrefix("✓ account") }, "\(outcome.stderr)")
            // Each exchange of the account step in order: the redirect, the 401, the replay's redirect and 200.
            let account = Array(all[start...].prefix { !$0.hasPrefix("✓ report") })
            let expected = [
                "* attempt 1", "> GET \(base)/account HTTP/1.1", "> X-Bank-Key: ***", "> Authorization: Bearer ***",
                "< HTTP/1.1 302 Found", "< Location: /account/v2",
                "* attempt 1, redirect 1", "> GET \(base)/account/v2 HTTP/1.1", "< HTTP/1.1 401 Unauthorized",
                "< WWW-Authenticate: Bearer",
                "* attempt 1, replayed after login", "> GET \(base)/account HTTP/1.1", "< HTTP/1.1 302 Found",
                "* attempt 1, redirect 1", "> GET \(base)/account/v2 HTTP/1.1", "< HTTP/1.1 200 OK",
                "< Content-Type: application/json",
            ]
            var position = account.startIndex
            for line in expected {
                let found = account[position...].firstIndex { $0 == line || $0.hasPrefix(line + "  ") }
                #expect(found != nil, "'\(line)' not in order in:\n\(account.joined(separator: "\n"))")
                position = found.map { $0 + 1 } ?? position
            }
            // The refresh step's own exchange is under its line, which comes first.
            let login = try #require(all.firstIndex { $0.hasPrefix("✓ login") })
            #expect(login < start)
            #expect(all[login + 1].hasPrefix("* attempt 1"))
            #expect(all[login + 2] == "> POST \(base)/login HTTP/1.1")
            // No body without -vv.
            #expect(!outcome.stderr.contains("acc-42\",\"seen"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("line 000"))
            // Standard output is the outputs alone.
            #expect(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) is [String: Any])
        }
    }

    @Test func veryVerbosePrintsBodiesCutAtTheLimitAndSummarisesBinaryOnes() async throws {
        let folder = try TemporaryFolder()
        try await withTestServer(bank()) { server in
            let outcome = try await run(["-vv", "--format", "json"], folder: folder, server: server)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let all = lines(outcome.stderr)
            // The report's 3000 bytes: the first 2048 printed, then how many more there were.
            #expect(all.contains("< line 000 of the report: xxxx"), "\(outcome.stderr)")
            #expect(all.contains("< … (952 more bytes)"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("line 099"))
            #expect(all.contains("< <8 bytes, image/png>"), "\(outcome.stderr)")
            // The request body, redacted.
            #expect(all.contains(#"> {"password":"***","user":"ada"}"#) || all.contains(#"> {"user":"ada","password":"***"}"#),
                    "\(outcome.stderr)")
            #expect(all.contains(#"< {"id":"acc-42","seen":"Bearer ***"}"#), "\(outcome.stderr)")
            // -vv is two -v, whichever way they are written; standard output still holds the JSON report alone.
            let report = try #require(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            #expect(report["steps"] != nil)
            let spelled = try await run(["--verbose", "--verbose"], folder: folder, server: server)
            #expect(lines(spelled.stderr).contains("< … (952 more bytes)"), "\(spelled.stderr)")
        }
    }

    @Test func harOutRecordsEveryHopAndAttemptInOrder() async throws {
        let folder = try TemporaryFolder()
        let harPath = folder.url.appendingPathComponent("run.har").path
        try await withTestServer(bank()) { server in
            let outcome = try await run(["--har-out", harPath], folder: folder, server: server)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let har = try HARFile(path: harPath)
            let entries = har.entries
            let steps = entries.map { ($0["_flowrun"] as? [String: Any])?["step"] as? String ?? "?" }
            #expect(steps == ["account", "account", "login", "account", "account", "report", "avatar"], "\(steps)")
            #expect(har.statuses == [302, 401, 200, 302, 200, 200, 200])
            #expect(entries.map { ($0["_flowrun"] as? [String: Any])?["redirect"] as? Int } == [0, 1, 0, 0, 1, 0, 0])
            #expect(entries.map { ($0["_flowrun"] as? [String: Any])?["attempt"] as? Int } == [1, 1, 1, 1, 1, 1, 1])
            let responses = entries.compactMap { $0["response"] as? [String: Any] }
            #expect(responses.map { $0["redirectURL"] as? String } == ["/account/v2", "", "", "/account/v2", "", "", ""])
            #expect(responses.map { $0["statusText"] as? String } == ["Found", "Unauthorized", "OK", "Found", "OK", "OK", "OK"])
            let urls = entries.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
            let base = server.baseURL
            #expect(urls == ["/account", "/account/v2", "/login", "/account", "/account/v2", "/report/acc-42", "/avatar"]
                .map { base + $0 })
            // A binary body is kept whole, in base64.
            let avatar = try #require(responses.last?["content"] as? [String: Any])
            #expect(avatar["encoding"] as? String == "base64")
            #expect(avatar["text"] as? String == Data(pngBytes).base64EncodedString())
            #expect(avatar["mimeType"] as? String == "image/png")
            // The report's body is whole too: the HAR has no limit.
            let report = try #require(responses[5]["content"] as? [String: Any])
            #expect((report["text"] as? String)?.utf8.count == 3000)
            #expect(server.requests.count == 7)
        }
    }

    @Test func noSecretAppearsInVeryVerboseOutputOrTheHARFile() async throws {
        let folder = try TemporaryFolder()
        let harPath = folder.url.appendingPathComponent("run.har").path
        try await withTestServer(bank()) { server in
            let outcome = try await run(["-vv", "--har-out", harPath], folder: folder, server: server)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let har = try String(contentsOfFile: harPath, encoding: .utf8)
            // The secrets did go out and come back: the server saw them, and echoed them.
            #expect(server.requests.contains { $0.values("Authorization") == ["Bearer \(freshToken)"] })
            #expect(server.requests.contains { $0.values("X-Bank-Key") == [apiKey] })
            #expect(har.contains("Bearer ***") && har.contains("X-Bank-Key"), "\(har)")
            #expect(outcome.stderr.contains(#""token":"***""#), "\(outcome.stderr)")
            for secret in forbidden {
                #expect(!outcome.stderr.contains(secret), "'\(secret)' in -vv output:\n\(outcome.stderr)")
                #expect(!outcome.stdout.contains(secret), "'\(secret)' in standard output")
                #expect(!har.contains(secret), "'\(secret)' in the HAR file")
            }
        }
    }

    @Test func anUnwritableHARPathFailsWithExit2BeforeAnyRequest() async throws {
        let folder = try TemporaryFolder()
        let harPath = folder.url.appendingPathComponent("missing/folder/run.har").path
        try await withTestServer(bank()) { server in
            let outcome = try await run(["--har-out", harPath], folder: folder, server: server)
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot write the HAR file to \(harPath)"), "\(outcome.stderr)")
            #expect(server.requests.isEmpty)

            let outcomeForFolder = try await run(["--har-out", folder.url.path], folder: folder, server: server)
            #expect(outcomeForFolder.status == 2, "\(outcomeForFolder.stderr)")
            #expect(outcomeForFolder.stderr.contains("cannot write the HAR file to \(folder.url.path): it is a folder"),
                    "\(outcomeForFolder.stderr)")
            #expect(server.requests.isEmpty)
        }
    }

    /// The HAR of a failed run is written, whole, by renaming a temporary file of the same folder: while the
    /// run is under way the destination still holds what it held before and the temporary file exists.
    @Test func theHARIsWrittenWhenTheRunFailsAndReplacesTheFileAtomically() async throws {
        let folder = try TemporaryFolder()
        let harPath = try folder.write("run.har", "old content")
        let seenDuringRun = Mutex<(old: Bool, partial: Bool)?>(nil)
        let handler = bank(failReport: true)
        let folderPath = folder.url.path
        try await withTestServer({ request in
            if request.path == "/report/acc-42" {
                let old = (try? String(contentsOfFile: harPath, encoding: .utf8)) == "old content"
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []
                seenDuringRun.withLock { $0 = (old, names.contains { $0.hasPrefix(".run.har.partial-") }) }
            }
            return handler(request)
        }) { server in
            let outcome = try await run(["--har-out", harPath], folder: folder, server: server)
            #expect(outcome.status == 1, "\(outcome.stderr)")
            let seen = try #require(seenDuringRun.withLock { $0 })
            #expect(seen.old && seen.partial)
            let har = try HARFile(path: harPath)
            #expect(har.statuses.contains(500), "\(har.statuses)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            #expect(!names.contains { $0.contains("partial") }, "\(names)")
        }
    }
}

/// A HAR file, decoded with `JSONSerialization`, its required fields checked as HAR 1.2 says.
private struct HARFile {
    let entries: [[String: Any]]

    var statuses: [Int] { entries.compactMap { ($0["response"] as? [String: Any])?["status"] as? Int } }

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let root = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Nothing but `log` at the top, as browsers' importers expect.
        #expect(Array(root.keys) == ["log"])
        let log = try #require(root["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] as? String == "flowrun")
        #expect(creator["version"] is String)
        entries = try #require(log["entries"] as? [[String: Any]])
        for entry in entries {
            Self.check(entry)
        }
    }

    private static func check(_ entry: [String: Any]) {
        let date = entry["startedDateTime"] as? String
        #expect(date.flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) } != nil, "\(String(describing: date))")
        #expect((entry["time"] as? Double).map { $0 >= 0 } == true)
        #expect(entry["cache"] is [String: Any])
        let request = entry["request"] as? [String: Any] ?? [:]
        for key in ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"] {
            #expect(request[key] != nil, "request.\(key) missing")
        }
        if let postData = request["postData"] as? [String: Any] { #expect(postData["mimeType"] is String) }
        let response = entry["response"] as? [String: Any] ?? [:]
        for key in ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize",
                    "bodySize"] {
            #expect(response[key] != nil, "response.\(key) missing")
        }
        let content = response["content"] as? [String: Any] ?? [:]
        #expect(content["size"] is Int && content["mimeType"] is String)
        let timings = entry["timings"] as? [String: Any] ?? [:]
        let parts = ["send", "wait", "receive"].compactMap { (timings[$0] as? NSNumber)?.doubleValue }
        #expect(parts.count == 3 && parts.allSatisfy { $0 >= 0 })
        if let time = entry["time"] as? Double { #expect(abs(parts.reduce(0, +) - time) < 0.01) }
        for (key, _) in entry where !["startedDateTime", "time", "request", "response", "cache", "timings", "pageref",
                                        "serverIPAddress", "connection", "comment"].contains(key) {
            #expect(key.hasPrefix("_"), "custom field \(key) must start with an underscore")
        }
    }
}
