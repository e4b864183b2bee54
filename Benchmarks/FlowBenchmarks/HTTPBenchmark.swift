import AsyncHTTPClient
import FlowCore
import FlowHTTP
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The banking chain (user → account → transactions) over real HTTP on 127.0.0.1, through the engine and
/// by hand, on one shared AsyncHTTPClient.
struct HTTPBenchmark {
    /// Workflow runs (three requests each) per round.
    var runs = 5_000
    /// Runs in flight at once.
    var concurrency = 32
    /// Timed rounds per side; the fastest counts.
    var rounds = 3
    /// Run only the engine side, `runs` runs per round, for a profiler.
    var profileEngine = false
    /// With `profileEngine`, profile the variant without timeouts.
    var profileWithoutTimeouts = false
    /// Run only the hand-written side, `runs` runs per round, for a profiler to compare with the engine's.
    var profileHandWritten = false
    /// One chain at a time: latency per chain rather than throughput (`http --sequential`).
    var sequential = false

    /// workflows/banking.yaml without the refresh step, its interceptor and its catch rule.
    static let bankingYAML = """
        flowrun: 1
        name: banking-http
        inputs:
          type: object
          required: [token]
          properties:
            token: { type: string, format: password }
        env:
          BANK_URL: {}
        servers:
          bank: { url: "{$env.BANK_URL}" }
        types:
          User:
            type: object
            required: [userId, username]
            properties: { userId: { type: string }, username: { type: string } }
          Account:
            type: object
            required: [accountId, balance]
            properties: { accountId: { type: string }, balance: { type: number } }
          Transaction:
            type: object
            required: [id, amount]
            properties: { id: { type: string }, amount: { type: number }, booked: { type: string, format: date-time } }
          ApiError: { type: object, properties: { code: { type: string }, message: { type: string } } }
        vars:
          token: $inputs.token
        interceptors:
          client-info: { headers: { X-Client: flowrun } }
          auth: { bearer: $vars.token }
        policies:
          standard:
            timeout: { attempt: 5s, total: 30s }
            retry:
              - when: { status: [429, 502, 503, 504] }
                attempts: 4
                delay: 200ms
                backoff: exponential
        defaults:
          server: bank
          interceptors: [client-info, auth]
          policy: standard
        steps:
          - id: user
            request: { method: GET, path: /user }
            response: { 200: User, default: ApiError }
            outputs: { userId: $response.body#/userId, username: $response.body#/username }
          - id: account
            request: { method: GET, path: "/account/{$steps.user.outputs.userId}" }
            response: { 200: Account, default: ApiError }
            outputs: { accountId: $response.body#/accountId, balance: $response.body#/balance }
          - id: transactions
            request: { method: GET, path: "/transactions/{$steps.account.outputs.accountId}", query: { limit: 50 } }
            response: { 200: { type: array, items: Transaction }, default: ApiError }
            outputs: { list: $response.body }
        outputs:
          username: $steps.user.outputs.username
          balance: $steps.account.outputs.balance
          transactions: $steps.transactions.outputs.list
        """

    func run() async throws {
        let serverGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await BankServer.start(on: serverGroup)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        configuration.httpVersion = .http1Only
        let client = HTTPClient(eventLoopGroup: clientGroup, configuration: configuration)
        do {
            try await compare(client: client, baseURL: "http://127.0.0.1:\(server.port)")
        } catch {
            try? await client.shutdown()
            try? await server.stop()
            try? await clientGroup.shutdownGracefully()
            try? await serverGroup.shutdownGracefully()
            throw error
        }
        try await client.shutdown()
        try await server.stop()
        try await clientGroup.shutdownGracefully()
        try await serverGroup.shutdownGracefully()
    }

    private func compare(client: HTTPClient, baseURL: String) async throws {
        let environment = ["BANK_URL": baseURL]
        let inputs: [String: JSONValue] = ["token": "bench-token-1234"]
        func engineChain(_ plan: Plan, defaultTimeout: Duration?) -> @Sendable () async throws -> Void {
            let dispatcher = AsyncHTTPClientDispatcher(configuration: .init(client: client, defaultTimeout: defaultTimeout))
            let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Bench.quietLogger)
            return {
                let report = await engine.run(plan, inputs: inputs, environment: environment)
                if let error = report.error { throw error }
            }
        }
        let withTimeouts = engineChain(
            try Bench.compile(Self.bankingYAML, path: "banking-http.yaml"),
            defaultTimeout: AsyncHTTPClientDispatcher.Configuration.defaultAttemptTimeout)
        // With timeouts, the dispatcher keeps each attempt's deadline on the event loop (the engine hands it
        // over); without them, the difference is what keeping them costs.
        let withoutTimeouts = engineChain(
            try Bench.compile(
                Self.bankingYAML.replacingOccurrences(of: "    timeout: { attempt: 5s, total: 30s }\n", with: ""),
                path: "banking-http-without-timeouts.yaml"),
            defaultTimeout: nil)
        let handChain: @Sendable () async throws -> Void = {
            try await Self.handWritten(client: client, baseURL: baseURL, token: "bench-token-1234")
        }
        let delegateChain: @Sendable () async throws -> Void = {
            try await Self.handWrittenOnTheDelegateAPI(client: client, baseURL: baseURL, token: "bench-token-1234")
        }
        if sequential {
            return try await compareSequential([handChain, withTimeouts, withoutTimeouts, delegateChain])
        }
        if profileEngine || profileHandWritten {
            let chain = profileHandWritten ? handChain : profileWithoutTimeouts ? withoutTimeouts : withTimeouts
            for _ in 0..<rounds {
                let time = try await timed(runs: runs, chain)
                print(String(format: "%d %@ runs in %.3f s (%.0f requests/s; CPU %.0f µs/request)", runs,
                             profileHandWritten ? "hand-written" : "engine", time.wall, Double(runs * 3) / time.wall,
                             time.cpu / Double(runs * 3) * 1e6))
            }
            return
        }
        // Check each side, open the pool's connections and warm up.
        let chains = [handChain, withTimeouts, withoutTimeouts, delegateChain]
        for chain in chains {
            try await chain()
            _ = try await timed(runs: 1_000, chain)
        }

        var best = [Bench.Timed](repeating: .infinity, count: chains.count)
        for _ in 0..<rounds {
            for (index, chain) in chains.enumerated() {
                best[index] = best[index].best(try await timed(runs: runs, chain))
            }
        }
        let requests = Double(runs * 3)
        func line(_ label: String, _ time: Bench.Timed) -> String {
            String(format: "  %@ %7.0f requests/s  %.2f×  (%.3f s, %4.0f µs/run; CPU %3.0f µs/request, server's included)",
                   label as NSString, requests / time.wall, best[0].wall / time.wall, time.wall,
                   time.wall / Double(runs) * 1e6, time.cpu / requests * 1e6)
        }
        print("http: \(runs) runs of user → account → transactions (\(runs * 3) requests), \(concurrency) at a time,")
        print("      one HTTPClient (pool of \(concurrency) connections) against a SwiftNIO server on 127.0.0.1; best of \(rounds)")
        print(line("hand-written AsyncHTTPClient loop:       ", best[0]))
        print(line("Engine.run + AsyncHTTPClientDispatcher:  ", best[1]))
        print(line("  the same without any timeout:          ", best[2]))
        print(line("hand-written on the delegate API:        ", best[3]))
        print("  (without: no `timeout:` in the policy and no defaultTimeout in the dispatcher; with them, the")
        print("   dispatcher ends each attempt at the deadline the engine hands over, body included, on the event loop;")
        print("   the delegate API is the dispatcher's, so the last line is what that choice costs without the engine)")
        print(String(format: "  ratio: the engine reaches %.2f× the hand-written throughput (target ≥ 0.95×)",
                     best[0].wall / best[1].wall))
    }

    /// One chain at a time, each side in turn per round, the fastest round counting: µs per chain and the
    /// engine's latency as a multiple of the hand-written chain's (issue 12's target: ≤ 1.1×).
    /// - Parameter chains: The hand-written chain, the engine's with timeouts, the engine's without, and the
    ///   hand-written chain on the API the dispatcher uses.
    private func compareSequential(_ chains: [@Sendable () async throws -> Void]) async throws {
        for chain in chains {
            for _ in 0..<500 { try await chain() }  // warm up: connections, caches
        }
        var best = [Bench.Timed](repeating: .infinity, count: chains.count)
        for _ in 0..<rounds {
            for (index, chain) in chains.enumerated() {
                best[index] = best[index].best(try await Bench.measure {
                    for _ in 0..<runs { try await chain() }
                })
            }
        }
        func line(_ label: String, _ time: Bench.Timed) -> String {
            String(format: "  %@ %6.1f µs/chain  %.2f×  (CPU %5.1f µs/chain, server's included)",
                   label as NSString, time.wall / Double(runs) * 1e6, time.wall / best[0].wall,
                   time.cpu / Double(runs) * 1e6)
        }
        print("http --sequential: \(runs) chains of user → account → transactions, one at a time, over one kept-alive")
        print("      connection to a SwiftNIO server on 127.0.0.1; best of \(rounds)")
        print(line("hand-written AsyncHTTPClient chain:      ", best[0]))
        print(line("Engine.run + AsyncHTTPClientDispatcher:  ", best[1]))
        print(line("  the same without any timeout:          ", best[2]))
        print(line("hand-written on the delegate API:        ", best[3]))
        print("  (the delegate API is the dispatcher's: its deadline holds until the body's last byte; the")
        print("   hand-written chain's async API keeps it only until the response head)")
        print(String(format: "  ratio: a chain through the engine takes %.2f× the hand-written one (target ≤ 1.1×)",
                     best[1].wall / best[0].wall))
    }

    /// Runs `chain` `runs` times, `concurrency` at a time, and returns how long it took.
    private func timed(runs: Int, _ chain: @escaping @Sendable () async throws -> Void) async throws -> Bench.Timed {
        let limit = concurrency
        return try await Bench.measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var started = 0
                while started < min(limit, runs) {
                    group.addTask(operation: chain)
                    started += 1
                }
                while try await group.next() != nil {
                    if started < runs {
                        group.addTask(operation: chain)
                        started += 1
                    }
                }
            }
        }
    }

    /// ``handWritten(client:baseURL:token:)`` on AsyncHTTPClient's delegate-based API, the one
    /// AsyncHTTPClientDispatcher calls: what that choice of API costs, apart from the engine.
    static func handWrittenOnTheDelegateAPI(client: HTTPClient, baseURL: String, token: String) async throws {
        func get(_ url: String) async throws -> JSONValue {
            let request = try HTTPClient.Request(url: url, method: .GET, headers: engineHeaders(token: token))
            let response = try await client.execute(
                request: request, delegate: ResponseAccumulator(request: request), deadline: .now() + .seconds(5)
            ).get()
            guard response.status == .ok, let body = response.body else {
                throw BenchError("status \(response.status) for \(url)")
            }
            return try JSONValue(parsing: body.readableBytesView)
        }
        try await threeCalls(baseURL: baseURL, get: get)
    }

    /// The header fields the engine sends on each of the chain's requests.
    private static func engineHeaders(token: String) -> HTTPHeaders {
        [
            "Accept": "application/json", "User-Agent": "flowrun/\(FlowCoreVersion.current)", "X-Client": "flowrun",
            "Authorization": "Bearer \(token)",
        ]
    }

    /// user → account → transactions with `get`, each call's path built from the last one's body.
    private static func threeCalls(baseURL: String, get: (String) async throws -> JSONValue) async throws {
        guard let userId = try await get("\(baseURL)/user").objectValue?["userId"]?.stringValue else {
            throw BenchError("no userId")
        }
        guard let accountId = try await get("\(baseURL)/account/\(userId)").objectValue?["accountId"]?.stringValue else {
            throw BenchError("no accountId")
        }
        guard try await get("\(baseURL)/transactions/\(accountId)?limit=50").arrayValue != nil else {
            throw BenchError("no transactions")
        }
    }

    /// The three calls by hand: the same headers the engine sends, a 5-second deadline, JSON parsed and one field read.
    static func handWritten(client: HTTPClient, baseURL: String, token: String) async throws {
        func get(_ url: String) async throws -> JSONValue {
            var request = HTTPClientRequest(url: url)
            request.headers = engineHeaders(token: token)
            let response = try await client.execute(request, deadline: .now() + .seconds(5))
            let body = try await response.body.collect(upTo: 10 * 1024 * 1024)
            guard response.status == .ok else { throw BenchError("status \(response.status) for \(url)") }
            return try JSONValue(parsing: body.readableBytesView)
        }
        try await threeCalls(baseURL: baseURL, get: get)
    }
}

/// A minimal keep-alive HTTP/1.1 server answering the bank's three paths with canned JSON.
final class BankServer: Sendable {
    let port: Int
    private let channel: any Channel

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    static func start(on group: MultiThreadedEventLoopGroup) async throws -> BankServer {
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                do {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(BankHandler())
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else { throw BenchError("the server has no port") }
        return BankServer(port: port, channel: channel)
    }

    func stop() async throws {
        try await channel.close()
    }
}

/// The bank's canned answers, shared by the HTTP server and the in-process `engine banking` benchmark.
enum BankAnswers {
    static let user = #"{"userId":"u-1001","username":"ada"}"#
    static let account = #"{"accountId":"acc-42","balance":1250.75}"#
    static let transactions = #"""
        [{"id":"t-1","amount":-42.5,"booked":"2026-11-02T09:15:00Z"},{"id":"t-2","amount":1200,"booked":"2026-11-01T08:00:00Z"}]
        """#
    static let notFound = #"{"code":"not-found","message":"no such resource"}"#

    /// The status and JSON body for a request path (with its query, if any).
    static func answer(forPath path: some StringProtocol) -> (status: Int, body: String) {
        if path == "/user" { (200, user) }
        else if path.hasPrefix("/account/") { (200, account) }
        else if path.hasPrefix("/transactions/") { (200, transactions) }
        else { (404, notFound) }
    }
}

/// Answers `/user`, `/account/…` and `/transactions/…` with fixed bodies; anything else gets 404.
private final class BankHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var uri = ""

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            uri = head.uri
        case .body:
            break
        case .end:
            let answer = BankAnswers.answer(forPath: uri)
            let (status, text) = (HTTPResponseStatus(statusCode: answer.status), answer.body)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(text.utf8.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
