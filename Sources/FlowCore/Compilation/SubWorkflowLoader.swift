import Foundation

/// Reads and compiles the workflow files that `workflow:` steps call, during one compilation: each file once
/// (by canonical path), and never one that is already being compiled further up the chain of calls.
final class SubWorkflowLoader {
    /// What compiling one called file gave.
    enum Outcome {
        /// The file compiled; its plan.
        case compiled(Plan)
        /// The file could not be read, or has errors: the first error.
        case failed(Diagnostic)
        /// The file is being compiled further up: calling it would never end. The chain of calls, the first
        /// file first and this one last.
        case cycle([String])
    }

    private let compiler: WorkflowCompiler
    /// The compiled files by canonical path.
    private var memo: [String: Outcome] = [:]
    /// The OpenAPI documents read so far, by canonical path and type prefix: each is read once per compilation.
    private var documents: [String: Swift.Result<OperationSourceDocument, FlowError>] = [:]
    /// The Arazzo documents read as sources of another, by canonical path.
    private var arazzoDocuments: [String: Swift.Result<ArazzoDocument, FlowError>] = [:]
    /// The top-level file, as its path was given.
    private let topLevel: String
    /// The top-level file's canonical path, worked out when a call first needs it: resolving symbolic links costs
    /// a system call per component of the path, and most workflows call no other file.
    private lazy var topLevelCanonical = Self.canonical(topLevel)
    /// The files being compiled below the top-level one, the outermost first: canonical path and the path to show.
    private var chain: [(canonical: String, shown: String)] = []

    /// The names of the sources of the Arazzo documents compiled so far, the top-level one's included: the names
    /// that `--server` and `--source` may give values for.
    private(set) var arazzoSourceNames: Set<String> = []

    /// Whether the file being compiled now is the top-level one, not one that it calls.
    var isCompilingTopLevel: Bool { chain.isEmpty }

    /// Adds the source names of an Arazzo document that this compilation compiled to ``arazzoSourceNames``.
    func noteArazzoSources(_ names: [String]) {
        arazzoSourceNames.formUnion(names)
    }

    /// Creates a loader for the compilation of the file at `path`.
    init(compiler: WorkflowCompiler, path: String) {
        self.compiler = compiler
        topLevel = path
    }

    /// The path of the file that `written` names in the file at `callerPath`: relative to the caller's
    /// directory unless absolute, with `.` and `..` segments resolved.
    static func resolve(_ written: String, from callerPath: String) -> String {
        let directory = (callerPath as NSString).deletingLastPathComponent
        let joined = written.hasPrefix("/") || directory.isEmpty
            ? written : (directory as NSString).appendingPathComponent(written)
        // Lexically, as the user would write it: `flows/./a.yaml` is `flows/a.yaml`, `flows/../a.yaml` is
        // `a.yaml`; a `..` that climbs above the start is kept.
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case ".." where !parts.isEmpty && parts.last != "..": parts.removeLast()
            default: parts.append(part)
            }
        }
        let path = parts.joined(separator: "/")
        return joined.hasPrefix("/") ? "/" + path : (path.isEmpty ? "." : path)
    }

    /// The file's absolute path with symbolic links resolved, which names one file whatever path reached it.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Reads the API description document at `path` (as ``resolve(_:from:)`` gives it) with `read`, or gives what
    /// reading it gave before.
    func document(
        _ path: String, typePrefix: String, read: (_ bytes: [UInt8]) -> OperationSourceDocument
    ) -> Swift.Result<OperationSourceDocument, FlowError> {
        let key = Self.canonical(path) + "\u{0}" + typePrefix
        if let known = documents[key] { return known }
        let result = compiler.readFile(path).map(read)
        documents[key] = result
        return result
    }

    /// Reads and decodes the Arazzo document at `path` (an `arazzo` source of another document), or gives what
    /// reading it gave before. Its findings are not kept: compiling the workflow a step calls reports them.
    func arazzoDocument(_ path: String) -> Swift.Result<ArazzoDocument, FlowError> {
        let key = Self.canonical(path)
        if let known = arazzoDocuments[key] { return known }
        let result = compiler.readFile(path).flatMap { bytes -> Swift.Result<ArazzoDocument, FlowError> in
            do throws(FlowError) {
                let root = try YAMLLoader(limits: compiler.loaderLimits).load(bytes, path: path)
                guard ArazzoDecoder.isArazzoDocument(root) else {
                    return .failure(FlowError(.invalidValue, "\(path) is not an Arazzo document (it has no 'arazzo' key)"))
                }
                var decoder = ArazzoDecoder()
                return .success(decoder.decode(root, path: path))
            } catch {
                return .failure(error)
            }
        }
        arazzoDocuments[key] = result
        if case .success(let document) = result { noteArazzoSources(document.sourceNames) }
        return result
    }

    /// Runs `body` with workflow `arazzoWorkflowID` of the Arazzo document at `path` in the chain of calls, as
    /// the compilation of that workflow: a step of it that calls it again is then a cycle.
    func compiling<T>(_ path: String, arazzoWorkflowID: String, _ body: () -> T) -> T {
        chain.append((Self.canonical(path) + "#" + arazzoWorkflowID, path + "#" + arazzoWorkflowID))
        defer { chain.removeLast() }
        return body()
    }

    /// Compiles the file at `path` (as ``resolve(_:from:)`` gives it), or gives the outcome of compiling it before.
    ///
    /// With `arazzoWorkflowID`, the file is an Arazzo document and that workflow of it is compiled: each workflow
    /// of a document counts as a file of its own in the chain of calls.
    func load(_ path: String, arazzoWorkflowID: String? = nil) -> Outcome {
        let canonical = Self.canonical(path) + (arazzoWorkflowID.map { "#" + $0 } ?? "")
        let shown = path + (arazzoWorkflowID.map { "#" + $0 } ?? "")
        if canonical == topLevelCanonical {
            return .cycle([topLevel] + chain.map(\.shown) + [shown])
        }
        if let start = chain.firstIndex(where: { $0.canonical == canonical }) {
            return .cycle(chain[start...].map(\.shown) + [shown])
        }
        if let outcome = memo[canonical] { return outcome }
        let outcome: Outcome
        switch compiler.readFile(path) {
        case .failure(let error):
            outcome = .failed(Diagnostic(error))
        case .success(let bytes):
            chain.append((canonical, shown))
            var compiler = compiler
            compiler.buildsPlan = true  // the caller's checks read the called workflow's plan
            if let arazzoWorkflowID {
                compiler.compilesArazzo = true
                compiler.arazzoWorkflowID = arazzoWorkflowID
            }
            let result = compiler.check(bytes: bytes, path: path, loader: self)
            chain.removeLast()
            if let plan = result.plan {
                outcome = .compiled(plan)
            } else {
                let first = result.diagnostics.first { $0.severity == .error }
                outcome = .failed(first ?? Diagnostic(.error, .invalidValue, "the file does not compile", at: nil))
            }
        }
        memo[canonical] = outcome
        return outcome
    }
}
