public import FlowCore
import Foundation

/// A workflow test file (`*.test.yaml`): the workflow it tests and the cases that prove what it does.
///
/// ```yaml
/// flowrun-test: 1
/// workflow: banking.yaml               # relative to this file
/// env: { BANK_URL: https://bank.test } # for every case; a case's own `env` wins
/// inputs: { token: t-1 }               # likewise, input by input
/// stubs: [...]                         # tried after each case's own stubs: the happy path, say
/// mock: banking.mock.yaml              # a stub file, tried after `stubs`
/// cases:
///   - name: happy path
///     expect: { outputs: { username: ada } }
///   - name: a 503 is retried
///     stubs:                           # the same format as a stub file's `stubs`
///       - { match: { method: GET, path: /user }, respond: [{ status: 503 }, { body: { userId: u-1 } }] }
///     expect: { attempts: { user: 2 }, elapsed: 200ms }
/// ```
///
/// ``check(bytes:path:loadMock:)`` decodes a file and reports every problem with its
/// location: unknown keys (with a suggestion), values of the wrong type, invalid durations,
/// and stubs that a stub file would reject. ``WorkflowTestSuite/load(path:compiler:)``
/// also compiles the workflow and checks the file against it (see ``lint(against:)``).
public struct WorkflowTestFile: Sendable {
    /// The path of the test file, as given.
    public var path: String
    /// The workflow's path as the file writes it, relative to the file.
    public var workflow: Located<String>
    /// The workflow's path resolved against the test file's folder.
    public var workflowPath: String
    /// The cases, in file order.
    public var cases: [WorkflowTestCase]
    /// For an Arazzo document: the workflow to test (`workflowId:`), by default its only one.
    public var arazzoWorkflowID: Located<String>?
    /// For an Arazzo document: base URLs by source name (`servers:`), as `flowrun run --server` gives them.
    public var arazzoServerURLs: [String: String] = [:]
    /// The source names under `servers:`, in file order, where they are written: each must name a source of the
    /// Arazzo document.
    package var arazzoServerNames: [Located<String>] = []
    /// Where the `servers:` key is, when the file has one.
    package var serversKey: SourceLocation?

    /// Creates a test file in code.
    /// - Parameters:
    ///   - path: The test file's path, for messages.
    ///   - workflow: The workflow's path as written.
    ///   - workflowPath: The workflow's resolved path.
    ///   - cases: The cases.
    public init(path: String, workflow: Located<String>, workflowPath: String, cases: [WorkflowTestCase]) {
        self.path = path
        self.workflow = workflow
        self.workflowPath = workflowPath
        self.cases = cases
    }

    /// The format versions of test files this build reads.
    public static let supportedVersions = [1]

    /// Loads the stub file a test file names under `mock:`, by its resolved path.
    public typealias MockLoader = @Sendable (_ path: String) -> Result<MockStubs, FlowError>

    /// What decoding a test file found: the file, when it decoded, and every problem.
    public struct CheckResult: Sendable {
        /// The decoded file; `nil` when it is not a test file at all (not YAML, not a mapping).
        public var file: WorkflowTestFile?
        /// The problems, sorted by location.
        public var diagnostics: [Diagnostic]
        /// Whether any problem is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Decodes a test file, collecting every problem instead of stopping at the first.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - path: The file's path, for locations and for resolving `workflow:` and `mock:`.
    ///   - loader: The YAML loader, with its limits; the matcher tags (``ValueMatcher/tags``) are accepted
    ///     whatever its ``YAMLLoader/localTags``.
    ///   - loadMock: Loads a stub file named under `mock:`; by default from disk.
    /// - Returns: The file (when it could be decoded at all) and the problems found.
    public static func check(
        bytes: [UInt8], path: String, loader: YAMLLoader = YAMLLoader(),
        loadMock: @escaping MockLoader = WorkflowTestFile.readMockFile
    ) -> CheckResult {
        let root: YAMLNode
        var loader = loader
        loader.localTags.formUnion(ValueMatcher.tags)
        do {
            root = try loader.load(bytes, path: path)
        } catch {
            return CheckResult(file: nil, diagnostics: [Diagnostic(error)])
        }
        var decoder = WorkflowTestDecoder(path: path, loadMock: loadMock)
        let file = decoder.decode(root)
        return CheckResult(file: file, diagnostics: decoder.sortedDiagnostics)
    }

    /// Decodes a test file, failing on its first problem.
    /// - Parameters:
    ///   - yaml: The file's text.
    ///   - path: The file's path, for locations and for resolving `workflow:` and `mock:`.
    ///   - loadMock: Loads a stub file named under `mock:`; by default from disk.
    /// - Returns: The decoded file.
    /// - Throws: A ``FlowError`` with the location of the first problem and how many more there are.
    public static func load(
        yaml: String, path: String, loadMock: @escaping MockLoader = WorkflowTestFile.readMockFile
    ) throws(FlowError) -> WorkflowTestFile {
        let result = check(bytes: Array(yaml.utf8), path: path, loadMock: loadMock)
        if let first = result.diagnostics.first(where: { $0.severity == .error }) {
            let more = result.diagnostics.count { $0.severity == .error } - 1
            let suffix = more == 0 ? "" : " (and \(more) more problem\(more == 1 ? "" : "s"))"
            throw FlowError(first.code, first.message + suffix, at: first.location)
        }
        guard let file = result.file else { throw FlowError(.typeMismatch, "\(path) is not a workflow test file") }
        return file
    }

    /// Reads and decodes a stub file from disk.
    /// - Parameter path: The stub file's path.
    /// - Returns: Its stubs, or the first problem with it.
    public static func readMockFile(_ path: String) -> Result<MockStubs, FlowError> {
        FileReader.read(path, kind: "a stub file").flatMap { data in
            Result { () throws(FlowError) in try MockStubs.load(yaml: String(decoding: data, as: UTF8.self), path: path) }
        }
    }

    /// Resolves a path written in a test file against the test file's folder.
    ///
    /// An absolute path is kept; `.` and `..` segments are removed lexically, so
    /// `workflows/tests/../banking.yaml` becomes `workflows/banking.yaml`.
    /// - Parameters:
    ///   - relative: The path as written.
    ///   - file: The test file's path.
    /// - Returns: The resolved path.
    public static func resolve(_ relative: String, from file: String) -> String {
        let joined: String
        if relative.hasPrefix("/") {
            joined = relative
        } else if let slash = file.lastIndex(of: "/") {
            joined = String(file[...slash]) + relative
        } else {
            joined = relative
        }
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        let body = parts.joined(separator: "/")
        return joined.hasPrefix("/") ? "/" + body : (body.isEmpty ? "." : body)
    }
}
