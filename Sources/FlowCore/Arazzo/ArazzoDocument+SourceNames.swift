extension ArazzoDocument {
    /// The names of ``sources``, in document order.
    package var sourceNames: [String] { sources.map(\.name.value) }

    /// An `unknown-reference` error for each of `names` that no source of this document, nor of the documents it
    /// calls, has.
    ///
    /// The values given by source name from outside the document (`--server NAME=URL`, `--source NAME=PATH`, a
    /// test file's `servers:`) are looked up by name: a misspelt one would otherwise be ignored, and the run would
    /// send the source's operations to its OpenAPI document's own server, or read its remote `url`.
    /// - Parameters:
    ///   - names: The source names something was given for.
    ///   - what: What was given for each, for the message: `a server URL`, `a local copy`.
    ///   - known: The source names of this document and of the Arazzo documents it calls.
    /// - Returns: The errors, at the first source's name (or the document's title when it has no source).
    package func unknownSourceNames(_ names: some Sequence<String>, given what: String, known: Set<String>)
        -> [Diagnostic]
    {
        let location = sources.first?.name.location ?? info.title.location
        return names.filter { !known.contains($0) }.map { name in
            Diagnostic(.error, .unknownReference, Self.unknownSourceMessage(name, given: what, known: known),
                       at: location)
        }
    }

    /// What ``unknownSourceNames(_:given:known:)`` says of `name`, also where the name is written outside the
    /// document (a test file's `servers:`).
    /// - Parameters:
    ///   - name: The source name something was given for.
    ///   - what: What was given for it: `a server URL`, `a local copy`.
    ///   - known: The source names of the document and of the Arazzo documents it calls.
    ///   - document: How to name the document: `the document`, or its path.
    package static func unknownSourceMessage(
        _ name: String, given what: String, known: Set<String>, document: String = "the document"
    ) -> String {
        let listed = known.sorted()
        return "\(what) is given for source '\(name)', which \(document) does not have"
            + Suggestion.didYouMean(name, in: listed)
            + (listed.isEmpty ? "" : " (its sources: " + listed.joined(separator: ", ") + ")")
    }
}
