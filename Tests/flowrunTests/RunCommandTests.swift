import FlowTestServer
import Foundation
import Testing

/// `flowrun run` end to end: the built binary, on the mock and over real HTTP to a server on 127.0.0.1.
///
/// Every run has a 60-second watchdog (``FlowRunProcess``), so a hang fails the test instead of the suite.
@Suite(.timeLimit(.minutes(2)))
struct RunCommandTests {
    // MARK: The README

    @Test func readmesFirstCommandRunsTheBankingExampleOnTheMock() async throws {
        let command = try readmeFirstCommand()
        let outcome = try await FlowRunProcess.run(command.arguments, environment: command.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let outputs = try jsonObject(outcome.stdout)
        #expect(outputs["username"] as? String == "ada")
        #expect(outputs["balance"] as? Double == 1250.75)
        #expect((outputs["transactions"] as? [Any])?.count == 2)
        // The mock answers the first /user call with 401: the refresh step finishes before the replayed user step.
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        // Both lines say so: the refresh step names the step it refreshed for, the user step shows its 401.
        let refresh = try #require(
            lines.firstIndex {
                $0.hasPrefix("✓ refresh-token  POST https://bank.example/oauth/token  200")
                    && $0.hasSuffix("(refresh for user)")
            }, "\(outcome.stderr)")
        let user = try #require(
            lines.firstIndex { $0.hasPrefix("✓ user  GET https://bank.example/user  401 → refresh-token → 200") },
            "\(outcome.stderr)")
        #expect(refresh < user)
    }

    // MARK: Real HTTP

    @Test func bankingRunsOverHTTPRefreshingTheTokenAndReplaying() async throws {
        let bank = FakeBank(refreshToken: "r-1", freshToken: "fresh")
        try await withTestServer({ bank.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=stale", "--input", "refreshToken=r-1"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")

            let requests = server.requests
            #expect(requests.map { "\($0.method) \($0.uri)" } == [
                "GET /user", "POST /oauth/token", "GET /user", "GET /account/u-1001", "GET /transactions/acc-42?limit=50",
            ])
            // The refresh step lists only `client-info`, so it sends no token at all.
            #expect(requests.map { $0.values("Authorization") } == [
                ["Bearer stale"], [], ["Bearer fresh"], ["Bearer fresh"], ["Bearer fresh"],
            ])
            #expect(requests.allSatisfy { $0.values("X-Client") == ["flowrun"] })
            let refresh = try #require(requests.dropFirst().first)
            #expect(refresh.values("Content-Type") == ["application/x-www-form-urlencoded"])
            #expect(String(decoding: refresh.body, as: UTF8.self) == "grant_type=refresh_token&refresh_token=r-1")

            let outputs = try jsonObject(outcome.stdout)
            #expect(outputs["username"] as? String == "ada")
            #expect(outputs["balance"] as? Double == 1250.75)
            let transactions = outputs["transactions"] as? [[String: Any]]
            #expect(transactions?.map { $0["id"] as? String } == ["t-1", "t-2"])
        }
    }

    @Test func aMissingTransactionListFallsBackToAnEmptyList() async throws {
        let bank = FakeBank(accountID: "acc-new", transactions: nil)
        try await withTestServer({ bank.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=stale-token", "--input", "refreshToken=\(bank.refreshToken)"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(server.requests.last?.uri == "/transactions/acc-new?limit=50")
            let outputs = try jsonObject(outcome.stdout)
            #expect((outputs["transactions"] as? [Any])?.isEmpty == true, "\(outcome.stdout)")
            #expect(outputs["balance"] as? Double == 1250.75)
            #expect(outcome.stderr.contains("↺ transactions  GET \(server.baseURL)/transactions/acc-new?limit=50  404"))
            // The server quoted the refreshed token in its error; flowrun shows the message without it.
            #expect(
                outcome.stderr.contains("recovered from: status 404 (ApiError): no transactions yet (Bearer ***)"),
                "\(outcome.stderr)")
            #expect(!outcome.stderr.contains(bank.freshToken))
        }
    }

    @Test func anErrorStatusIsDecodedWithTheDeclaredErrorType() async throws {
        let forbidden = FakeBank.json(#"{"code":"forbidden","message":"no access"}"#, status: 403)
        try await withTestServer({ _ in forbidden }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=token-403"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 1)
            #expect(outcome.stdout.isEmpty)
            let lines = outcome.stderr.split(separator: "\n").map(String.init)
            #expect(lines.contains("error: step 'user', attempt 1: status 403 (ApiError): no access"), "\(outcome.stderr)")
            #expect(lines.contains(#"  response: {"code":"forbidden","message":"no access"}"#), "\(outcome.stderr)")
            // 403 is neither retried nor refreshed.
            #expect(server.requests.map(\.uri) == ["/user"])
        }
    }

    // MARK: The JSON report

    @Test(arguments: [[], ["--log-level", "trace"]])
    func jsonReportListsEveryAttemptAndNoSecret(logging: [String]) async throws {
        // No transaction list: the 404 quotes the refreshed token, and the report shows the recovered error.
        let bank = FakeBank(transactions: nil)
        let staleToken = "stale-token-91c0"
        try await withTestServer({ bank.reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--format", "json",
                 "--input", "token=\(staleToken)", "--input", "refreshToken=\(bank.refreshToken)"] + logging,
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 0, "\(outcome.stderr)")

            let report = try jsonObject(outcome.stdout)
            #expect(report["status"] as? String == "succeeded")
            let outputs = report["outputs"] as? [String: Any]
            #expect(outputs?["username"] as? String == "ada")
            let steps = try #require(report["steps"] as? [[String: Any]], "\(outcome.stdout)")
            #expect(steps.map { $0["id"] as? String } == ["refresh-token", "user", "account", "transactions"])
            let attempts = steps.map { ($0["attempts"] as? [[String: Any]]) ?? [] }
            #expect(attempts.map(\.count) == [1, 1, 1, 1])
            for attempt in attempts.joined() {
                #expect((attempt["url"] as? String)?.hasPrefix(server.baseURL + "/") == true, "\(attempt)")
                #expect((attempt["durationMs"] as? Int).map { $0 >= 0 } == true, "\(attempt)")
            }
            #expect(attempts.joined().map { $0["method"] as? String } == ["POST", "GET", "GET", "GET"])
            #expect(attempts.joined().map { $0["status"] as? Int } == [200, 200, 200, 404])
            #expect(steps.map { $0["status"] as? String } == ["succeeded", "succeeded", "succeeded", "recovered"])
            let recovered = try #require(steps.last?["error"] as? [String: Any], "\(outcome.stdout)")
            #expect(recovered["step"] as? String == "transactions")
            #expect(recovered["attempt"] as? Int == 1)
            #expect(recovered["message"] as? String == "status 404 (ApiError): no transactions yet (Bearer ***)")
            #expect((recovered["responseExcerpt"] as? String)?.contains("(Bearer ***)") == true, "\(recovered)")

            // The secrets did travel: the server saw both tokens.
            #expect(server.requests.map { $0.values("Authorization") }.first == ["Bearer \(staleToken)"])
            #expect(server.requests.last?.values("Authorization") == ["Bearer \(bank.freshToken)"])
            for secret in [staleToken, bank.refreshToken, bank.freshToken] {
                #expect(!outcome.stdout.contains(secret), "stdout shows \(secret)")
                #expect(!outcome.stderr.contains(secret), "stderr shows \(secret)")
            }
            if !logging.isEmpty {
                // Proof that the trace run logged requests at all, so the absence of secrets means something.
                #expect(outcome.stderr.contains("sending request"), "\(outcome.stderr)")
                #expect(outcome.stderr.contains("refreshing credentials after status 401"), "\(outcome.stderr)")
            }
        }
    }

    // MARK: Bad input at run time

    @Test func aMissingRequiredInputExitsTwoBeforeAnyRequest() async throws {
        try await withTestServer({ FakeBank().reply(to: $0) }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "refreshToken=r-12345"],
                environment: ["BANK_URL": server.baseURL])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("missing required input 'token'"), "\(outcome.stderr)")
            #expect(server.connectionCount == 0)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func anInputOfTheWrongTypeExitsTwoBeforeAnyRequest() async throws {
        let folder = try TemporaryFolder()
        let workflow = try folder.write("count.yaml", """
            flowrun: 1
            inputs:
              type: object
              required: [count]
              properties: { count: { type: integer } }
            env: { API_URL: {} }
            servers: { api: "{$env.API_URL}" }
            defaults: { server: api }
            steps:
              - id: page
                request: { method: GET, path: /items, query: { limit: $inputs.count } }
            """)
        try await withTestServer { server in
            let wrong = try await FlowRunProcess.run(
                ["run", workflow, "--input", "count=abc"], environment: ["API_URL": server.baseURL])
            #expect(wrong.status == 2)
            #expect(wrong.stderr.contains("input 'count'"), "\(wrong.stderr)")
            #expect(wrong.stderr.contains("integer"), "\(wrong.stderr)")
            #expect(server.requests.isEmpty)

            // The same run with an integer gets through, so it was the type that was refused.
            let right = try await FlowRunProcess.run(
                ["run", workflow, "--input", "count=3"], environment: ["API_URL": server.baseURL])
            #expect(right.status == 0, "\(right.stderr)")
            #expect(server.requests.map(\.uri) == ["/items?limit=3"])
        }
    }

    /// Issue 9 item 8b: `flowrun run` knows what is registered, so a name it lacks is a usage error, exit 2.
    @Test func anUnregisteredInterceptorOrDispatcherExits2BeforeAnyRequest() async throws {
        let folder = try TemporaryFolder()
        try folder.write("custom.yaml", """
            flowrun: 1
            servers: { api: "http://127.0.0.1:9" }
            interceptors:
              tenant: { use: tenant-header }
            defaults: { server: api }
            steps:
              - { id: a, interceptors: [tenant], request: { method: GET, path: /x } }
            """)
        let interceptor = try await FlowRunProcess.run(["run", "custom.yaml"], in: folder.url)
        #expect(interceptor.status == 2, "\(interceptor.stderr)")
        #expect(interceptor.stderr.contains(
            "custom.yaml:4:18: error: interceptor 'tenant' uses 'tenant-header', which is not registered"),
            "\(interceptor.stderr)")

        let mock = try await FlowRunProcess.run(["run", "custom.yaml", "--dispatcher", "mock"], in: folder.url)
        #expect(mock.status == 2)
        #expect(mock.stderr.contains("no dispatcher named 'mock' (the mock dispatcher needs --mock <stub file>)"),
                "\(mock.stderr)")
    }

    /// Issue 9 item 5: an unset variable stops the run before its first request, like a missing input.
    @Test func anUnsetEnvironmentVariableStopsTheRunBeforeAnyRequestWithExit2() async throws {
        let outcome = try await FlowRunProcess.run(
            ["run", "workflows/banking.yaml", "--input", "token=t-12345"], removing: ["BANK_URL"])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(
            "workflows/banking.yaml:17:3: error: environment variable BANK_URL is not set"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("attempt"), "\(outcome.stderr)")
    }

    @Test func aRefusedConnectionIsATransportErrorNamingHostAndPort() async throws {
        try await withRefusingPort { port in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=t-12345"],
                environment: ["BANK_URL": "http://127.0.0.1:\(port)"])
            // The policy retries transport errors: three attempts in all.
            expectRunFailure(outcome, in: "user", attempt: 3, saying: "connection refused by 127.0.0.1:\(port)")
        }
    }

    @Test func anHTMLPageWhereJSONIsDeclaredIsADecodeError() async throws {
        let page = TestReply.text("<html>maintenance</html>", headers: [("Content-Type", "text/html")])
        try await withTestServer({ _ in page }) { server in
            let outcome = try await FlowRunProcess.run(
                ["run", "workflows/banking.yaml", "--input", "token=t-12345"],
                environment: ["BANK_URL": server.baseURL])
            expectRunFailure(
                outcome, in: "user", attempt: 1,
                saying: "was read as text (Content-Type: text/html) and does not match its declared type",
                "add 'parse: json'", "response: <html>maintenance</html>")
        }
    }

    @Test func aResponseMissingABoundFieldIsABindingError() async throws {
        let folder = try TemporaryFolder()
        let workflow = try folder.write("item.yaml", """
            flowrun: 1
            env: { API_URL: {} }
            servers: { api: "{$env.API_URL}" }
            defaults: { server: api }
            types:
              Item: { type: object, properties: { id: { type: string }, name: { type: string } } }
            steps:
              - id: item
                request: { method: GET, path: /item }
                response: { 200: Item }
                outputs: { id: $response.body#/id }
            outputs:
              id: $steps.item.outputs.id
            """)
        try await withTestServer({ _ in FakeBank.json(#"{"name":"no id"}"#) }) { server in
            let outcome = try await FlowRunProcess.run(["run", workflow], environment: ["API_URL": server.baseURL])
            expectRunFailure(outcome, in: "item", attempt: 1, saying: "'$response.body#/id' reads nothing")
        }
    }

    @Test func anInvalidWorkflowExitsTwoWithLocatedDiagnostics() async throws {
        let folder = try TemporaryFolder()
        let workflow = try folder.write("broken.yaml", """
            flowrun: 1
            servers: { api: "https://api.example.com" }
            defaults: { server: api }
            steps:
              - id: a
                request: { method: GET, path: "/p/{$steps.b.outputs.id}" }
            """)
        let outcome = try await FlowRunProcess.run(["run", workflow])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix("\(workflow):6:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(": error: "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("'b'"), "\(outcome.stderr)")
    }

    @Test func aMockFileWithAnErrorExitsTwoWithItsLocation() async throws {
        let (outcome, stubs) = try await runBanking(onMock: """
            flowrun-mock: 1
            stubs:
              - name: user
                mach: { method: GET, path: /user }
            """)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(stubs):4:5: error: "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("'match'"), "\(outcome.stderr)")
    }

    @Test func anUnmatchedMockRequestNamesTheClosestStub() async throws {
        let (outcome, stubs) = try await runBanking(onMock: """
            flowrun-mock: 1
            stubs:
              - name: users
                match: { method: GET, path: /users }
                respond: { body: { userId: u-1, username: ada } }
            """)
        expectRunFailure(
            outcome, in: "user", attempt: 1,
            saying: "no mock stub matches GET /user; the closest is", "'users' (\(stubs):3:")
    }

    @Test func theJSONReportSaysWhyAFailedAttemptWasNotRetried() async throws {
        let folder = try TemporaryFolder()
        try folder.write("post.yaml", """
            flowrun: 1
            servers: { api: "https://api.example.com" }
            policies:
              p: { timeout: { total: 10s }, retry: { when: { status: 503 }, attempts: 3 } }
            defaults: { server: api, policy: p }
            steps:
              - { id: create, idempotent: false, request: { method: POST, path: /items } }
            """)
        try folder.write("post.mock.yaml", """
            flowrun-mock: 1
            stubs: [{ name: create, match: { method: POST, path: /items }, respond: { status: 503 } }]
            """)
        let outcome = try await FlowRunProcess.run(
            ["run", "post.yaml", "--mock", "post.mock.yaml", "--format", "json"], in: folder.url)
        #expect(outcome.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let steps = report?["steps"] as? [[String: Any]]
        let attempts = steps?.first?["attempts"] as? [[String: Any]]
        #expect(attempts?.count == 1)
        #expect(attempts?.first?["retryRefused"] as? String
            == "POST is not idempotent; set 'idempotencyKey: true' or 'idempotent: true'")
    }
}

// MARK: - Helpers

/// Runs the banking example with `mockFile` (written to a temporary folder) as its `--mock`, and returns the
/// outcome and the mock file's path.
private func runBanking(onMock mockFile: String) async throws -> (outcome: FlowRunProcess.Outcome, stubs: String) {
    let folder = try TemporaryFolder()
    let stubs = try folder.write("bank.mock.yaml", mockFile)
    let outcome = try await FlowRunProcess.run(
        ["run", "workflows/banking.yaml", "--mock", stubs, "--input", "token=t-12345"],
        environment: ["BANK_URL": "https://bank.example"])
    return (outcome, stubs)
}

/// Expects `outcome` to be a run that failed at run time: exit status 1, and standard error naming `step`'s
/// `attempt` and containing each of `fragments`.
private func expectRunFailure(
    _ outcome: FlowRunProcess.Outcome, in step: String, attempt: Int, saying fragments: String...,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    #expect(outcome.status == 1, sourceLocation: sourceLocation)
    for fragment in ["step '\(step)', attempt \(attempt)"] + fragments {
        #expect(outcome.stderr.contains(fragment), "\(outcome.stderr)", sourceLocation: sourceLocation)
    }
}

/// The README's first command, split into its environment assignments and the `flowrun` arguments.
///
/// The README is parsed rather than copied so the test fails when the README changes and stops working.
private func readmeFirstCommand() throws -> (environment: [String: String], arguments: [String]) {
    let readme = try String(contentsOf: FlowRunProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let block = try #require(readme.firstRange(of: "```sh\n"), "the README has no sh block")
    let line = readme[block.upperBound...].prefix { $0 != "\n" }
    var words = line.split(separator: " ").map(String.init)
    var environment: [String: String] = [:]
    while let first = words.first, let equals = first.firstIndex(of: "="),
          first[..<equals].allSatisfy({ $0.isUppercase || $0 == "_" }) {
        environment[String(first[..<equals])] = String(first[first.index(after: equals)...])
        words.removeFirst()
    }
    try #require(words.starts(with: ["swift", "run", "flowrun"]), "unexpected first command: \(line)")
    return (environment, Array(words.dropFirst(3)))
}

/// `text` parsed as a JSON object.
private func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
}
