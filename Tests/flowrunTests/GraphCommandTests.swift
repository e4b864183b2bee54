import Foundation
import Testing

/// The example workflows, as paths relative to the package root.
private let examples: [String] = {
    let folder = FlowRunProcess.packageRoot.appendingPathComponent("workflows")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter {
        $0.hasSuffix(".yaml") && !$0.hasSuffix(".mock.yaml") && !$0.hasSuffix(".test.yaml")
            && !$0.hasSuffix(".openapi.yaml")
    }
        .sorted().map { "workflows/" + $0 }
}()

/// Graphviz's `dot`, when it is on the `PATH`.
private let dotExecutable: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("dot") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()

struct GraphCommandTests {
    @Test func everyExampleIsFound() {
        #expect(examples.contains("workflows/banking.yaml"))
        #expect(examples.count >= 3)
    }

    @Test(arguments: examples)
    func everyExampleRendersAsWellFormedMermaid(example: String) async throws {
        let outcome = try await FlowRunProcess.run(["graph", example])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty)
        let problems = MermaidStructure.problems(in: outcome.stdout)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\(outcome.stdout)")
    }

    @Test(arguments: examples)
    func everyExampleRendersAsDOT(example: String) async throws {
        let outcome = try await FlowRunProcess.run(["graph", example, "--format", "dot"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("digraph \""))
        #expect(outcome.stdout.contains("    rankdir=TB;\n"))
        #expect(outcome.stdout.hasSuffix("}\n"))
    }

    @Test(.enabled(if: dotExecutable != nil, "Graphviz's dot is not installed"), arguments: examples)
    func graphvizDrawsEveryExampleAsSVG(example: String) async throws {
        let outcome = try await FlowRunProcess.run(["graph", example, "--format", "dot"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let svg = try Self.run(try #require(dotExecutable), ["-Tsvg"], input: outcome.stdout)
        #expect(svg.status == 0, "\(svg.stderr)")
        #expect(svg.stderr.isEmpty, "\(svg.stderr)")
        #expect(svg.stdout.contains("<svg"))
        #expect(svg.stdout.contains("</svg>"))
    }

    @Test(arguments: [
        ("workflows/banking.yaml", [
            #"    user -->|"userId"| account"#,
            #"    account -->|"accountId"| transactions"#,
            #"    user -.->|"401 → refresh"| refresh_token"#,
            #"    transactions -.->|"catch 404 → fallback"| transactions"#,
            #"    transactions -->|"list"| outputs"#,
            "    class refresh_token onDemand",
        ]),
        ("workflows/order-fulfilment.yaml", [
            #"    create_order -->|"total"| charge"#,
            #"    charge -->|"after"| reserve_stock"#,
            #"    charge -.->|"chargeId"| refund"#,
            #"    create_order -.->|"compensate"| create_order_compensate"#,
            #"    charge -.->|"compensate"| refund"#,
            #"    reserve_stock -.->|"compensate"| reserve_stock_compensate"#,
            #"    create_order -.->|"orderId"| refund"#,
            "    class create_order_compensate,reserve_stock_compensate compensation",
        ]),
        ("workflows/fan-out-details.yaml", [
            #"    transactions -->|"list"| details"#,   // the array it iterates: data, not `after`
            #"    details -->|"merchant"| report"#,
        ]),
        ("workflows/weather-alerts.yaml", [
            #"    geocode -->|"lat, lon"| alerts"#,
            #"    geocode -->|"$vars.quota"| record"#,
            #"    notify -->|"after"| record"#,
            #"    notify -.->|"catch → goto"| record"#,
            #"    geocode -.->|"on-error validation → end"| outputs"#,
        ]),
    ])
    func examplesShowTheirKeyEdgesInMermaid(example: String, lines: [String]) async throws {
        let outcome = try await FlowRunProcess.run(["graph", example, "--format", "mermaid"])
        let rendered = Set(outcome.stdout.split(separator: "\n").map(String.init))
        for line in lines {
            #expect(rendered.contains(line), "\(line)\n\(outcome.stdout)")
        }
    }

    @Test func loopsFanOutAndSubWorkflowCallsAreDrawnInBothFormats() async throws {
        let paginate = try await FlowRunProcess.run(["graph", "workflows/paginate-all-pages.yaml"])
        #expect(paginate.stdout.contains(#"    issues -.->|"next: link, ≤ 20 pages"| issues"#), "\(paginate.stdout)")
        let paginateDOT = try await FlowRunProcess.run(["graph", "workflows/paginate-all-pages.yaml", "--format", "dot"])
        #expect(paginateDOT.stdout.contains(
            #"    "issues" -> "issues" [label="next: link, ≤ 20 pages", style=dashed, color=purple4, fontcolor=purple4];"#),
            "\(paginateDOT.stdout)")

        let fanOut = try await FlowRunProcess.run(["graph", "workflows/fan-out-details.yaml"])
        #expect(fanOut.stdout.contains("/details<br/>for each $steps.transactions.outputs.list, 4 at a time"),
                "\(fanOut.stdout)")
        let fanOutDOT = try await FlowRunProcess.run(["graph", "workflows/fan-out-details.yaml", "--format", "dot"])
        #expect(fanOutDOT.stdout.contains(#"    "transactions" -> "details" [label="list"];"#), "\(fanOutDOT.stdout)")

        let call = try await FlowRunProcess.run(["graph", "workflows/list-invoices.yaml"])
        #expect(call.stdout.contains(#"    login[["<b>login</b><br/>workflow: ./shared-login.yaml"]]"#), "\(call.stdout)")
        let callDOT = try await FlowRunProcess.run(["graph", "workflows/list-invoices.yaml", "--format", "dot"])
        #expect(callDOT.stdout.contains(
            #"    "login" [label="login\nworkflow: ./shared-login.yaml", shape=component, style=solid];"#),
            "\(callDOT.stdout)")
    }

    @Test func orderFulfilmentShowsItsCompensationsInDOT() async throws {
        let outcome = try await FlowRunProcess.run(["graph", "workflows/order-fulfilment.yaml", "--format", "dot"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(#"    "charge" -> "refund" [label="compensate", style=dashed, color=royalblue4, fontcolor=royalblue4];"#))
        #expect(outcome.stdout.contains(#"    "reserve_stock_compensate" [label="reserve-stock/compensate\nDELETE /reservations/{$steps.reserve-stock.outputs.reservationId}\ninterceptors: warehouse-sign\npolicy: standard (up to 3 attempts)", style="rounded,dashed"];"#))
    }

    @Test func bankingShowsItsKeyEdgesInDOT() async throws {
        let outcome = try await FlowRunProcess.run(["graph", "workflows/banking.yaml", "--format", "dot"])
        #expect(outcome.stdout.contains(#"    "user" -> "account" [label="userId"];"#))
        #expect(outcome.stdout.contains(#"    "user" -> "refresh_token" [label="401 → refresh", style=dashed"#))
        #expect(outcome.stdout.contains(#"    "transactions" -> "transactions" [label="catch 404 → fallback", style=dashed"#))
        #expect(outcome.stdout.contains(#"    "refresh_token" [label="refresh-token\nPOST /oauth/token\ninterceptors: client-info\npolicy: standard (1 attempt: not idempotent)", style="rounded,dashed"];"#))
    }

    @Test func aFileWithErrorsExitsTwoWithLocatedDiagnosticsAndDrawsNothing() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("bad.yaml", """
            flowrun: 1
            servers: { api: "https://api.example.com" }
            defaults: { server: api }
            steps:
              - id: a
                request: { method: GET, path: "/p/{$steps.missing.outputs.id}" }
            """)
        for format in ["mermaid", "dot"] {
            let outcome = try await FlowRunProcess.run(["graph", path, "--format", format])
            #expect(outcome.status == 2)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.hasPrefix("\(path):6:"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("error: unknown step 'missing'"))
            #expect(outcome.stderr.contains("^"))
        }
    }

    @Test func missingFilesAndUnknownFormatsExitTwo() async throws {
        let missing = try await FlowRunProcess.run(["graph", "/nonexistent/flow.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("flowrun graph: /nonexistent/flow.yaml:1:1: error: cannot read /nonexistent/flow.yaml: no such file"))
        let format = try await FlowRunProcess.run(["graph", "workflows/banking.yaml", "--format", "svg"])
        #expect(format.status == 2)
        #expect(format.stderr.contains("mermaid"))
    }

    @Test func outputWritesTheGraphToAFile() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("banking.dot")
        let outcome = try await FlowRunProcess.run(
            ["graph", "workflows/banking.yaml", "--format", "dot", "--output", file.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        let written = try String(contentsOf: file, encoding: .utf8)
        let printed = try await FlowRunProcess.run(["graph", "workflows/banking.yaml", "--format", "dot"]).stdout
        #expect(written == printed)
        let unwritable = try await FlowRunProcess.run(
            ["graph", "workflows/banking.yaml", "-o", "/nonexistent/dir/out.mmd"])
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr == "flowrun graph: cannot write /nonexistent/dir/out.mmd: the folder /nonexistent/dir "
            + "does not exist\n")
        // A relative path's folder is named as the path gives it, as the README shows.
        let banking = FlowRunProcess.packageRoot.appendingPathComponent("workflows/banking.yaml").path
        let relative = try await FlowRunProcess.run(["graph", banking, "-o", "out/plan.dot"], in: folder.url)
        #expect(relative.status == 2)
        #expect(relative.stderr == "flowrun graph: cannot write out/plan.dot: the folder out does not exist\n")
        let folderOutput = try await FlowRunProcess.run(["graph", "workflows/banking.yaml", "-o", folder.url.path])
        #expect(folderOutput.status == 2)
        #expect(folderOutput.stderr == "flowrun graph: cannot write \(folder.url.path): it is a folder\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["banking.dot"],
                "no partial file is left behind")
    }

    @Test func helpTeachesTheFormatsAndHowToDrawAnSVG() async throws {
        let outcome = try await FlowRunProcess.run(["graph", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("--format"))
        #expect(outcome.stdout.contains("flowrun graph wf.yaml --format dot | dot -Tsvg > wf.svg"))
        #expect(outcome.stdout.contains("catch 404 → fallback"))
    }

    /// Runs an executable with `input` on its standard input.
    private static func run(_ executable: URL, _ arguments: [String], input: String) throws -> FlowRunProcess.Outcome {
        // Standard input comes from a file, so neither side can block on a full pipe.
        let folder = try TemporaryFolder()
        let inputPath = try folder.write("input", input)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return FlowRunProcess.Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

/// A structural check of the Mermaid that `flowrun graph` writes, since there is no local validator.
///
/// Every line must be one of the forms the renderer writes; every node id is declared once;
/// every edge and class assignment names declared nodes; every quote is paired, and no label
/// holds a raw quote.
enum MermaidStructure {
    static func problems(in text: String) -> [String] {
        var problems: [String] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.last == "" else { return ["the output does not end with a line break"] }
        var declared: Set<String> = []
        var referenced: [(String, Int)] = []
        let node = #/^    ([A-Za-z_][A-Za-z0-9_]*)(\[\[|\[|\(\[|\(|\{\{)"([^"]*)"(\]\]|\]|\]\)|\)|\}\})$/#
        let edge = #/^    ([A-Za-z_][A-Za-z0-9_]*) (-->|-\.->)\|"([^"]*)"\| ([A-Za-z_][A-Za-z0-9_]*)$/#
        let classDef = #/^    classDef [A-Za-z]+ [^"]+$/#
        let classAssignment = #/^    class ([A-Za-z0-9_,]+) [A-Za-z]+$/#
        let shapes = ["[[": "]]", "[": "]", "([": "])", "(": ")", "{{": "}}"]
        for (index, line) in lines.dropLast().enumerated() {
            let number = index + 1
            if line.filter({ $0 == "\"" }).count % 2 != 0 { problems.append("line \(number): unbalanced quotes") }
            if index == 0 {
                if line != "flowchart TD" { problems.append("line 1 is not 'flowchart TD': \(line)") }
                continue
            }
            if line.hasPrefix("    %% ") { continue }
            if let match = line.wholeMatch(of: node) {
                let id = String(match.1)
                if !declared.insert(id).inserted { problems.append("line \(number): node \(id) declared twice") }
                if shapes[String(match.2)] != String(match.4) { problems.append("line \(number): mismatched shape") }
            } else if let match = line.wholeMatch(of: edge) {
                referenced += [(String(match.1), number), (String(match.4), number)]
                if match.3.isEmpty { problems.append("line \(number): an edge without a label") }
            } else if line.wholeMatch(of: classDef) != nil {
                continue
            } else if let match = line.wholeMatch(of: classAssignment) {
                referenced += match.1.split(separator: ",").map { (String($0), number) }
            } else {
                problems.append("line \(number): unexpected line: \(line)")
            }
        }
        for (id, number) in referenced where !declared.contains(id) {
            problems.append("line \(number): \(id) is not a declared node")
        }
        if declared.isEmpty { problems.append("no nodes") }
        return problems
    }
}
