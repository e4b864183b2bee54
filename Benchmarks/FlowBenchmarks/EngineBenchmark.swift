import FlowCore
import FlowTesting
import Foundation

/// Measures the engine in-process: its overhead per step against hand-written Swift, and its memory over many runs.
struct EngineBenchmark {
    /// Runs per timed round of the overhead comparison.
    var runs = 20_000
    /// Timed rounds per side; the fastest counts.
    var rounds = 5
    /// Runs of the memory benchmark.
    var memoryRuns = 100_000
    /// `overhead`, `memory`, or both when `nil`; `banking` (never run by default) for the banking chain in-process.
    var only: String?
    /// Run only the engine side of the overhead comparison, `runs` times, for a profiler.
    var profileEngine = false
    /// Run only the hand-written side of the overhead comparison, `runs` times, for a profiler: with
    /// ``profileEngine``, the ratio in instructions, which the machine's load does not move.
    var profileHandWritten = false

    func run() async throws {
        if only == "banking" {
            try await banking()
            return
        }
        if profileEngine || profileHandWritten {
            try await profile()
            return
        }
        if only == nil || only == "overhead" { try await overhead() }
        if only == nil || only == "memory" {
            // Without timeouts first, so its figures start from a clean heap.
            try await memory(withTimeouts: false)
            print()
            try await memory(withTimeouts: true)
        }
    }

    // MARK: Overhead

    /// Three steps, each reading the previous step's output into its path, decoding a typed body and extracting one output.
    static let chainYAML = """
        flowrun: 1
        name: overhead-chain
        servers:
          api: { url: "http://bench.local/v1" }
        types:
          Item:
            type: object
            required: [id]
            properties: { id: { type: string }, count: { type: integer } }
        defaults:
          server: api
        steps:
          - id: first
            request: { method: GET, path: /items }
            response: { 200: Item }
            outputs: { id: $response.body#/id }
          - id: second
            request: { method: GET, path: "/items/{$steps.first.outputs.id}" }
            response: { 200: Item }
            outputs: { id: $response.body#/id }
          - id: third
            request: { method: GET, path: "/items/{$steps.second.outputs.id}" }
            response: { 200: Item }
            outputs: { id: $response.body#/id }
        outputs:
          last: $steps.third.outputs.id
        """

    /// Answers every request at once with the same small JSON body.
    struct CannedDispatcher: Dispatcher {
        static let response = StepResponse(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Array(#"{"id":"item-42","count":3}"#.utf8))

        func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
            Self.response
        }
    }

    /// The same three calls written by hand: URL by interpolation, `JSONValue(parsing:)`, one field read.
    static func handWritten(_ dispatcher: any Dispatcher) async throws -> String {
        let base = "http://bench.local/v1"
        let headers: HeaderFields = ["Accept": "application/json"]
        var context = StepContext(stepID: "first", attempt: 1, logger: Bench.quietLogger)
        let first = try await dispatcher.dispatch(
            StepRequest(method: "GET", url: "\(base)/items", headers: headers), context: context)
        guard first.status == 200, let id1 = try JSONValue(parsing: first.body).objectValue?["id"]?.stringValue else {
            throw BenchError("unexpected first response")
        }
        context.stepID = "second"
        let second = try await dispatcher.dispatch(
            StepRequest(method: "GET", url: "\(base)/items/\(id1)", headers: headers), context: context)
        guard second.status == 200, let id2 = try JSONValue(parsing: second.body).objectValue?["id"]?.stringValue else {
            throw BenchError("unexpected second response")
        }
        context.stepID = "third"
        let third = try await dispatcher.dispatch(
            StepRequest(method: "GET", url: "\(base)/items/\(id2)", headers: headers), context: context)
        guard third.status == 200, let id3 = try JSONValue(parsing: third.body).objectValue?["id"]?.stringValue else {
            throw BenchError("unexpected third response")
        }
        return id3
    }

    /// The workflow's `Item` type as an integrator would declare it in Swift.
    struct Item: Decodable {
        var id: String
        var count: Int?
    }

    /// The same three calls as an integrator would write them with Foundation: the bound ids percent-encoded
    /// into the path, each body decoded into ``Item`` with `JSONDecoder` (which checks the type the engine's
    /// validator checks), the status checked.
    static func handWrittenWithCodable(_ dispatcher: any Dispatcher) async throws -> String {
        let base = "http://bench.local/v1"
        let headers: HeaderFields = ["Accept": "application/json"]
        let decoder = JSONDecoder()
        var context = StepContext(stepID: "first", attempt: 1, logger: Bench.quietLogger)
        func get(_ url: String) async throws -> Item {
            let response = try await dispatcher.dispatch(
                StepRequest(method: "GET", url: url, headers: headers), context: context)
            guard response.status == 200 else { throw BenchError("status \(response.status) for \(url)") }
            return try decoder.decode(Item.self, from: Data(response.body))
        }
        func segment(_ value: String) -> String {
            value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
        }
        let first = try await get("\(base)/items")
        context.stepID = "second"
        let second = try await get("\(base)/items/\(segment(first.id))")
        context.stepID = "third"
        return try await get("\(base)/items/\(segment(second.id))").id
    }

    private func makeEngine() -> Engine<ContinuousClock> {
        Engine(dispatchers: DispatcherRegistry(["http": CannedDispatcher()]), logger: Bench.quietLogger)
    }

    /// The chain's first step alone: with the chain, it splits a run's time into what a run costs once and what
    /// each step adds.
    static let oneStepYAML = chainYAML.components(separatedBy: "\n  - id: second")[0] + """

        outputs:
          last: $steps.first.outputs.id
        """

    /// The chain with an attempt and a total timeout on every step: what a timed step costs.
    static let timedChainYAML = chainYAML.replacingOccurrences(
        of: "defaults:\n  server: api\n",
        with: "policies:\n  timed: { timeout: { attempt: 5s, total: 30s } }\ndefaults:\n  server: api\n  policy: timed\n")

    private func overhead() async throws {
        let plan = try Bench.compile(Self.chainYAML, path: "overhead-chain.yaml")
        let timedPlan = try Bench.compile(Self.timedChainYAML, path: "overhead-chain-timed.yaml")
        guard timedPlan.steps.allSatisfy({ $0.policy?.timeout?.attempt != nil }) else {
            throw BenchError("the timed chain has no timeouts")
        }
        let onePlan = try Bench.compile(Self.oneStepYAML, path: "one-step.yaml")
        let engine = makeEngine()
        let dispatcher: any Dispatcher = CannedDispatcher()

        // Check both sides produce the same answer before timing them.
        let report = await engine.run(plan, inputs: [:], environment: [:])
        guard report.succeeded, report.outputs["last"] == .string("item-42") else {
            throw BenchError("the overhead chain failed: \(report.error.map { "\($0)" } ?? "wrong outputs \(report.outputs)")")
        }
        guard try await Self.handWritten(dispatcher) == "item-42" else { throw BenchError("hand-written chain is wrong") }
        guard try await Self.handWrittenWithCodable(dispatcher) == "item-42" else {
            throw BenchError("the Codable hand-written chain is wrong")
        }

        try await compare(
            "engine overhead: 3-step chain on a no-op dispatcher", ratioNote: " (target ≤ 5×; ≤ 5 µs/step)",
            engine: { _ = await engine.run(plan, inputs: [:], environment: [:]) },
            timedEngine: { _ = await engine.run(timedPlan, inputs: [:], environment: [:]) },
            oneStepEngine: { _ = await engine.run(onePlan, inputs: [:], environment: [:]) },
            handWritten: { _ = try await Self.handWritten(dispatcher) },
            handWrittenWithCodable: { _ = try await Self.handWrittenWithCodable(dispatcher) })
    }

    /// Times `engine` (and `timedEngine`, the same workflow with timeouts, when given) against `handWritten`
    /// (and `handWrittenWithCodable`, when given), `runs` sequential calls per round, and prints the best
    /// round of each.
    ///
    /// All sides are warmed up first, and rounds alternate so drift on a shared machine hits them alike.
    private func compare(
        _ title: String, ratioNote: String, engine: () async -> Void, timedEngine: (() async -> Void)? = nil,
        oneStepEngine: (() async -> Void)? = nil, handWritten: () async throws -> Void, handWrittenWithCodable: (() async throws -> Void)? = nil
    ) async throws {
        for _ in 0..<1_000 {
            await engine()
            await timedEngine?()
            await oneStepEngine?()
            try await handWritten()
            try await handWrittenWithCodable?()
        }
        var engineBest = Bench.Timed.infinity
        var timedBest = Bench.Timed.infinity
        var oneStepBest = Bench.Timed.infinity
        var handBest = Bench.Timed.infinity
        var codableBest = Bench.Timed.infinity
        for _ in 0..<rounds {
            if let handWrittenWithCodable {
                codableBest = codableBest.best(try await Bench.measure {
                    for _ in 0..<runs { try await handWrittenWithCodable() }
                })
            }
            handBest = handBest.best(try await Bench.measure {
                for _ in 0..<runs { try await handWritten() }
            })
            engineBest = engineBest.best(await Bench.measure {
                for _ in 0..<runs { await engine() }
            })
            if let timedEngine {
                timedBest = timedBest.best(await Bench.measure {
                    for _ in 0..<runs { await timedEngine() }
                })
            }
            if let oneStepEngine {
                oneStepBest = oneStepBest.best(await Bench.measure {
                    for _ in 0..<runs { await oneStepEngine() }
                })
            }
        }
        let engineRun = engineBest.wall / Double(runs) * 1e6
        let handRun = handBest.wall / Double(runs) * 1e6
        print("\(title), \(runs) sequential runs per round, best of \(rounds)")
        print(String(format: "  Engine.run:    %8.2f µs/run  %7.2f µs/step   (CPU %6.2f µs/run)",
                     engineRun, engineRun / 3, engineBest.cpu / Double(runs) * 1e6))
        if timedEngine != nil {
            let timedRun = timedBest.wall / Double(runs) * 1e6
            print(String(format: "  with timeouts: %8.2f µs/run  %7.2f µs/step   (CPU %6.2f µs/run; attempt and total timeout on each step)",
                         timedRun, timedRun / 3, timedBest.cpu / Double(runs) * 1e6))
        }
        if oneStepEngine != nil {
            let oneRun = oneStepBest.wall / Double(runs) * 1e6
            let perStep = (engineRun - oneRun) / 2
            print(String(format: "  one step only: %8.2f µs/run; so each further step adds %.2f µs and a run costs %.2f µs once",
                         oneRun, perStep, oneRun - perStep))
        }
        print(String(format: "  hand-written:  %8.2f µs/run  %7.2f µs/step   (CPU %6.2f µs/run)",
                     handRun, handRun / 3, handBest.cpu / Double(runs) * 1e6))
        print(String(format: "  engine overhead over hand-written: %.2f µs/step", (engineRun - handRun) / 3))
        print(String(format: "  ratio: Engine.run takes %.2f× the hand-written time, %.2f× its CPU time",
                     engineRun / handRun, engineBest.cpu / handBest.cpu) + ratioNote)
        if handWrittenWithCodable != nil {
            let codableRun = codableBest.wall / Double(runs) * 1e6
            print(String(format: "  hand-written with Codable: %8.2f µs/run  (CPU %6.2f µs/run; JSONDecoder into structs,"
                         + " ids percent-encoded into the path)", codableRun, codableBest.cpu / Double(runs) * 1e6))
            print(String(format: "  ratio: Engine.run takes %.2f× the Codable hand-written time", engineRun / codableRun))
        }
    }

    /// Only the engine side (or with ``profileHandWritten`` only the hand-written side), for
    /// `valgrind --tool=callgrind` or `perf record`.
    private func profile() async throws {
        let time: Bench.Timed
        if profileHandWritten {
            let dispatcher: any Dispatcher = CannedDispatcher()
            time = try await Bench.measure {
                for _ in 0..<runs { _ = try await Self.handWritten(dispatcher) }
            }
        } else {
            let plan = try Bench.compile(Self.chainYAML, path: "overhead-chain.yaml")
            let engine = makeEngine()
            time = await Bench.measure {
                for _ in 0..<runs { _ = await engine.run(plan, inputs: [:], environment: [:]) }
            }
        }
        print(String(format: "%d %@ runs in %.3f s (%.2f µs/run, CPU %.2f µs/run)",
                     runs, profileHandWritten ? "hand-written" : "engine", time.wall,
                     time.wall / Double(runs) * 1e6, time.cpu / Double(runs) * 1e6))
    }

    // MARK: Banking

    /// The bank's canned answers, by full URL, ready to return: the dispatcher itself costs next to nothing.
    struct BankingDispatcher: Dispatcher {
        static let baseURL = "http://bank.local"
        static let responses: [String: StepResponse] = {
            var responses: [String: StepResponse] = [:]
            for path in ["/user", "/account/u-1001", "/transactions/acc-42?limit=50"] {
                let answer = BankAnswers.answer(forPath: path)
                responses[baseURL + path] = StepResponse(
                    status: answer.status, headers: ["Content-Type": "application/json"], body: Array(answer.body.utf8))
            }
            return responses
        }()
        static let notFound = StepResponse(
            status: 404, headers: ["Content-Type": "application/json"], body: Array(BankAnswers.notFound.utf8))

        func dispatch(_ request: StepRequest, context: StepContext) async throws -> StepResponse {
            Self.responses[request.url] ?? Self.notFound
        }
    }

    /// The HTTP benchmark's banking chain (interceptors, a secret input, `$env` server, typed responses), by hand
    /// on the same dispatcher: the headers the engine sends, status checked, JSON parsed, one field read.
    static func handWrittenBanking(_ dispatcher: any Dispatcher, token: String) async throws {
        let base = BankingDispatcher.baseURL
        var context = StepContext(stepID: "user", attempt: 1, logger: Bench.quietLogger)
        func get(_ url: String) async throws -> JSONValue {
            let headers: HeaderFields = [
                "Accept": "application/json", "User-Agent": "flowrun/\(FlowCoreVersion.current)",
                "X-Client": "flowrun", "Authorization": "Bearer \(token)",
            ]
            let response = try await dispatcher.dispatch(
                StepRequest(method: "GET", url: url, headers: headers), context: context)
            guard response.status == 200 else { throw BenchError("status \(response.status) for \(url)") }
            return try JSONValue(parsing: response.body)
        }
        guard let userId = try await get("\(base)/user").objectValue?["userId"]?.stringValue else {
            throw BenchError("no userId")
        }
        context.stepID = "account"
        guard let accountId = try await get("\(base)/account/\(userId)").objectValue?["accountId"]?.stringValue else {
            throw BenchError("no accountId")
        }
        context.stepID = "transactions"
        guard try await get("\(base)/transactions/\(accountId)?limit=50").arrayValue != nil else {
            throw BenchError("no transactions")
        }
    }

    /// The HTTP benchmark's banking workflow without timeouts, in-process: what the engine's synchronous work
    /// (interceptors, redaction, `$env`, validation of typed responses) costs without sockets to hide it.
    private func banking() async throws {
        let yaml = HTTPBenchmark.bankingYAML.replacingOccurrences(of: "    timeout: { attempt: 5s, total: 30s }\n", with: "")
        guard yaml != HTTPBenchmark.bankingYAML else { throw BenchError("the banking workflow has no timeout line") }
        let plan = try Bench.compile(yaml, path: "banking-in-process.yaml")
        let dispatcher = BankingDispatcher()
        let engine = Engine(dispatchers: DispatcherRegistry(["http": dispatcher]), logger: Bench.quietLogger)
        let inputs: [String: JSONValue] = ["token": "bench-token-1234"]
        let environment = ["BANK_URL": BankingDispatcher.baseURL]
        let token = "bench-token-1234"

        let report = await engine.run(plan, inputs: inputs, environment: environment)
        guard report.succeeded, report.outputs["username"] == .string("ada") else {
            throw BenchError("the banking chain failed: \(report.error.map { "\($0)" } ?? "wrong outputs \(report.outputs)")")
        }
        if profileEngine {
            let time = await Bench.measure {
                for _ in 0..<runs { _ = await engine.run(plan, inputs: inputs, environment: environment) }
            }
            print(String(format: "%d banking engine runs in %.3f s (%.2f µs/run, CPU %.2f µs/run)",
                         runs, time.wall, time.wall / Double(runs) * 1e6, time.cpu / Double(runs) * 1e6))
            return
        }
        try await compare(
            "engine banking: the http benchmark's workflow without timeouts on an in-process dispatcher", ratioNote: "",
            engine: { _ = await engine.run(plan, inputs: inputs, environment: environment) },
            handWritten: { try await Self.handWrittenBanking(dispatcher, token: token) })
    }

    // MARK: Memory

    /// workflows/banking.yaml on its mock stubs, run after run, with the resident set size at checkpoints.
    ///
    /// Without `withTimeouts` the policy's `timeout:` line is removed, to show what the engine itself keeps;
    /// with it, every attempt is watched by a timer that is cancelled when the attempt ends. (Timeouts were
    /// once racing `Task.sleep`s, which keep their runtime timer until the deadline even when cancelled:
    /// memory then rose with run rate × timeout length. This variant is what shows it does not.)
    private func memory(withTimeouts: Bool) async throws {
        var yaml = try Bench.repositoryFile("workflows/banking.yaml")
        if !withTimeouts {
            let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            let kept = lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("timeout:") }
            guard kept.count == lines.count - 1 else { throw BenchError("banking.yaml has no single `timeout:` line") }
            yaml = kept.joined(separator: "\n")
        }
        let plan = try Bench.compile(yaml, path: "workflows/banking.yaml")
        let stubs = try MockStubs.load(
            yaml: try Bench.repositoryFile("workflows/banking.mock.yaml"), path: "workflows/banking.mock.yaml")
        let inputsText = try Bench.repositoryFile("workflows/banking.inputs.json")
        guard let inputs = try JSONValue(parsing: Array(inputsText.utf8)).objectValue else {
            throw BenchError("workflows/banking.inputs.json is not an object")
        }
        let mock = MockDispatcher(stubs: stubs)
        let engine = Engine(dispatchers: DispatcherRegistry(["mock": mock, "http": mock]), logger: Bench.quietLogger)
        let environment = ["BANK_URL": "https://bank.example"]

        let checkpoints: Set<Int> = [1_000, 10_000, 50_000, 100_000, memoryRuns]
        var resident: [(runs: Int, bytes: Int)] = [(0, Bench.residentBytes())]
        var failures = 0
        var firstFailure: FlowError?
        print("engine memory: workflows/banking.yaml\(withTimeouts ? "" : " without its `timeout:` line")"
              + " on MockDispatcher (401, refresh, replay, account, transactions)")
        print("  the mock is reset after each run, so every run takes the refresh path and its call record stays empty")
        print("  \("0".leftPad(8)) runs  VmRSS \(Bench.megabytes(resident[0].bytes).leftPad(9))")
        let start = ContinuousClock.now
        for run in 1...memoryRuns {
            let report = await engine.run(plan, inputs: inputs, environment: environment)
            mock.reset()
            if !report.succeeded {
                failures += 1
                firstFailure = firstFailure ?? report.error
            }
            if checkpoints.contains(run) {
                let bytes = Bench.residentBytes()
                resident.append((run, bytes))
                let elapsed = start.duration(to: .now).components
                let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                print("  \(String(run).leftPad(8)) runs  VmRSS \(Bench.megabytes(bytes).leftPad(9))"
                      + String(format: "  after %5.1f s", seconds))
            }
        }
        if let firstFailure { print("  \(failures) runs failed; the first: \(firstFailure)") }
        if let at1k = resident.first(where: { $0.runs == 1_000 }), let last = resident.last, last.runs > at1k.runs {
            let growth = last.bytes - at1k.bytes
            print(String(format: "  growth from 1k to %dk runs: %@ (%.1f bytes/run)", last.runs / 1000,
                         Bench.megabytes(growth) as NSString, Double(growth) / Double(last.runs - at1k.runs)))
        }
    }
}

extension String {
    func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
