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
        let listed = known.sorted()
        return names.filter { !known.contains($0) }.map { name in
            Diagnostic(
                .error, .unknownReference,
                "\(what) is given for source '\(name)', which the document does not have"
                    + Suggestion.didYouMean(name, in: listed)
                    + (listed.isEmpty ? "" : " (its sources: " + listed.joined(separator: ", ") + ")"),
                at: location)
        }
    }
}
