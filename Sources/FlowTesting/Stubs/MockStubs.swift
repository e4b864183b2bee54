public import FlowCore

/// The stubs a ``MockDispatcher`` answers from, in the order they are tried.
///
/// Load them from a stub file, conventionally named `*.mock.yaml`:
///
/// ```yaml
/// flowrun-mock: 1
/// stubs:
///   - name: user                  # optional, for messages
///     match:                      # every key optional; a stub without 'match' answers everything
///       method: GET
///       path: /user/{id}          # {name} matches one segment; a final /** matches any rest
///       query: { page: "2" }      # a list matches a repeated parameter
///       headers: { Authorization: "Bearer t-1", X-Request-Id: !present, X-Debug: !absent }
///       body: { kind: card }      # subset match: extra request members are fine
///     respond:
///       status: 200               # default 200
///       headers: { X-Request-Id: r-1 }
///       body: { userId: u-1 }     # a YAML value is sent as JSON; a string is sent as is
///       delay: 50ms
///   - name: flaky
///     match: { method: POST, path: /pay }
///     respond:                    # successive calls; after the last, the last repeats
///       - { status: 503 }
///       - { status: 200, body: { ok: true } }
/// ```
///
/// The first stub, in file order, whose conditions all hold answers a request.
/// See ``MockStub/Match`` for how each condition compares.
public struct MockStubs: Sendable, Hashable {
    /// The stubs, in the order they are tried.
    public var stubs: [MockStub]

    /// Creates a set of stubs built in code.
    /// - Parameter stubs: The stubs, in the order they are tried.
    public init(stubs: [MockStub]) {
        self.stubs = stubs
    }

    /// The format versions of stub files this build reads.
    public static let supportedVersions = [1]

    /// Loads stubs from the text of a stub file.
    ///
    /// Unknown keys (with a "did you mean" suggestion), values of the wrong type,
    /// invalid statuses, durations, methods and path patterns are reported with
    /// the same ``FlowError/Code`` values the workflow decoder uses.
    ///
    /// - Parameters:
    ///   - yaml: The file's text.
    ///   - path: The file's path, for locations in errors and in ``MockStub/location``.
    /// - Returns: The stubs, in file order.
    /// - Throws: A ``FlowError`` with the file, line and column of the first problem in the file, and how many
    ///   more there are.
    public static func load(yaml: String, path: String) throws(FlowError) -> MockStubs {
        let root = try YAMLLoader(localTags: MockStubDecoder.tags).load(yaml, path: path)
        var decoder = MockStubDecoder()
        let stubs = decoder.decode(root)
        // The decoder walks the file top-down and reports a mapping's unknown keys before its missing ones, so the
        // first problem found is the earliest, and a misspelled required key is reported as such, with a suggestion.
        if let first = decoder.diagnostics.first {
            let more = decoder.diagnostics.count - 1
            let suffix = more == 0 ? "" : " (and \(more) more problem\(more == 1 ? "" : "s") in this file)"
            throw FlowError(first.code, first.message + suffix, at: first.location)
        }
        return MockStubs(stubs: stubs)
    }
}
