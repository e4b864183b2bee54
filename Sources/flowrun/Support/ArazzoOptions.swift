import ArgumentParser
import FlowCore

/// The options that choose what of an Arazzo document `run`, `test` and `graph` work on, and where its operations
/// are sent: `--workflow`, `--source`, `--server`. Given for a flowrun workflow file, they are refused (``PlanLoader``).
struct ArazzoOptions: ParsableArguments {
    @Option(
        name: .customLong("workflow"),
        help: ArgumentHelp(
            "For an Arazzo document: the workflowId of the workflow to run (by default the only one).",
            valueName: "id"))
    var workflowID: String?

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp(
            "For an Arazzo document: a local copy of a source description, read instead of its url; repeatable.",
            discussion: """
                NAME is the source's 'name' in sourceDescriptions, PATH a file relative to the current directory: \
                flowrun does not fetch remote documents.
                """,
            valueName: "name=path"))
    var sources: [String] = []

    @Option(
        name: .customLong("server"),
        help: ArgumentHelp(
            "For an Arazzo document: the base URL to send a source's operations to, instead of its OpenAPI document's first server; repeatable.",
            valueName: "name=url"))
    var servers: [String] = []

    func validate() throws {
        _ = try Self.pairs(sources, option: "--source", example: "petstore=./petstore.openapi.yaml")
        let urls = try Self.pairs(servers, option: "--server", example: "petstore=http://127.0.0.1:8080/v1")
        for (name, url) in urls where !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError("--server \(name)=\(url): the URL must start with http:// or https://.")
        }
    }

    /// The options given, as written (`--server shp=http://127.0.0.1:8080`), in the order `--workflow`, `--server`,
    /// `--source`.
    var given: [String] {
        (workflowID.map { ["--workflow \($0)"] } ?? []) + servers.map { "--server \($0)" }
            + sources.map { "--source \($0)" }
    }

    /// `compiler`, set to compile an Arazzo document's workflow into a plan with these options.
    func applied(to compiler: WorkflowCompiler) -> WorkflowCompiler {
        var compiler = compiler
        compiler.compilesArazzo = true
        compiler.arazzoWorkflowID = workflowID
        compiler.sourceDescriptionCopies = (try? Self.pairs(sources, option: "--source", example: "")) ?? [:]
        compiler.arazzoServerURLs = (try? Self.pairs(servers, option: "--server", example: "")) ?? [:]
        return compiler
    }

    /// The workflowIds of the Arazzo document in `bytes`, in document order.
    static func workflowIDs(in bytes: [UInt8], path: String) -> [String] {
        guard let root = try? YAMLLoader().load(bytes, path: path) else { return [] }
        return ArazzoCheck.check(root, path: path).document.workflows.map(\.id.value)
    }

    /// `NAME=VALUE` entries by name, the last one winning.
    /// - Throws: `ValidationError` naming `option` and showing `example` for an entry that is not `NAME=VALUE`.
    static func pairs(_ entries: [String], option: String, example: String) throws -> [String: String] {
        var pairs: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex,
                entry.index(after: equals) != entry.endIndex
            else { throw ValidationError("\(option) takes NAME=\(option == "--server" ? "URL" : "PATH"), as in \(option) \(example); got '\(entry)'.") }
            pairs[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return pairs
    }
}
