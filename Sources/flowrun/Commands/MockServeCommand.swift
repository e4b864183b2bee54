import ArgumentParser
import FlowMockServer
import FlowTesting
import Foundation

/// `flowrun mock serve`: answers HTTP requests from stub files, as the in-process mock answers a workflow's.
struct MockServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve stub files (*.mock.yaml) over HTTP, answering exactly as the in-process mock does.",
        discussion: """
            Every request is answered as `run --mock` and `flowrun test` answer a workflow's: the \
            first stub, in file order (the files in the order given), whose conditions all hold \
            answers; a stub with a list of responses gives them to successive calls (the last \
            repeats); a response's delay really waits. A request no stub matches gets a 404 whose \
            JSON body names the closest stub, where it is written and what differed.

            Once it listens, the server prints `listening on http://HOST:PORT` on standard output \
            (with the port the system chose, for --port 0), then a line per request on standard \
            error: method, path and query, status, the stub that answered (or `unmatched`) and the \
            time taken. Credential query values (api_key, access_token, ...) show as ***; header \
            values never show.

            Admin endpoints, under a prefix no stub can shadow:
              GET  /__flowrun/calls   the calls answered since the start or last reset, as JSON
              POST /__flowrun/reset   restart every stub's responses; forget the calls

            Ctrl-C (SIGINT) or SIGTERM stops the server gracefully: requests in flight finish (for \
            at most 10 s) and it exits 0. Exit status 2: a stub file cannot be read or is invalid \
            (each file's first error, with its line and column), or the server cannot listen (the \
            port is taken, the host is unknown).

            Examples:
              flowrun mock serve workflows/banking.mock.yaml --port 8080
              curl -i http://127.0.0.1:8080/user
              BANK_URL=http://127.0.0.1:8080 flowrun run workflows/banking.yaml \\
                  --inputs workflows/banking.inputs.json
              curl http://127.0.0.1:8080/__flowrun/calls
              curl -X POST http://127.0.0.1:8080/__flowrun/reset
              flowrun mock serve users.mock.yaml orders.mock.yaml --port 0 --quiet
            """
    )

    @Argument(help: "The stub files; a request is matched against their stubs in this order.",
              completion: .file(extensions: ["yaml", "yml"]))
    var files: [String]

    @Option(help: "The port to listen on; 0 for a free one the system chooses (the printed address has it).")
    var port = 8080

    @Option(help: ArgumentHelp(
        "The host name or address to listen on.",
        discussion: "The default takes requests from this machine only; 0.0.0.0 from every network it is on."))
    var host = "127.0.0.1"

    @Flag(name: [.short, .long], help: "Print no line per request (the address is still printed).")
    var quiet = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one stub file (*.mock.yaml).") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535; 0 picks a free one.") }
    }

    func run() async throws {
        let logger = logging.makeLogger()
        let stubs = try StubFileLoader(commandName: "mock serve").load(files)
        let server = MockServer(stubs: stubs, host: host, port: port, logger: logger)
        let quiet = quiet
        let count = stubs.stubs.count
        let serving = "serving \(count) stub\(count == 1 ? "" : "s") from \(files.joined(separator: ", "))\n"
        do {
            try await server.run(
                onListening: { url in
                    if !quiet { Self.write(serving, to: .standardError) }
                    Self.write("listening on \(url)\n", to: .standardOutput)
                },
                onRequest: { call in if !quiet { Self.write(call.logLine + "\n", to: .standardError) } })
        } catch let error as MockServer.ListenError {
            let hint = error.isAddressInUse ? "; choose another --port, or --port 0 for a free one" : ""
            Self.write("flowrun mock serve: \(error)\(hint)\n", to: .standardError)
            throw ExitCode(2)
        }
    }

    /// Writes `text` at once, unbuffered, so a reader of a pipe sees each line as it happens.
    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
