/// Tells an OpenAPI document apart from a workflow, so that a document named where a workflow is expected gets one
/// finding that says what it is, not a dozen unknown keys (`flowrun lint` reads it as an OpenAPI document instead).
package enum OpenAPIDocumentDetection {
    /// What a workflow's own finding says about an OpenAPI document given in its place.
    package static let notAWorkflow = "this is an OpenAPI document, not a workflow: name it under 'openapi:' in a "
        + "workflow and call its operations with 'operation:' steps, or list it under 'sourceDescriptions' in an "
        + "Arazzo document"

    /// Whether `bytes` may hold an OpenAPI document: a line starts with `openapi` and none with `flowrun`. A byte
    /// search, to read only a likely document's YAML a second time.
    package static func mayBeOpenAPIDocument(_ bytes: [UInt8]) -> Bool {
        hasLine(startingWith: "openapi", in: bytes) && !hasLine(startingWith: "flowrun", in: bytes)
    }

    /// The `openapi` key of `root` when `root` is an OpenAPI document: a mapping whose `openapi` key holds a
    /// version (a scalar, where a workflow's `openapi:` is a mapping of documents), without a `flowrun` or
    /// `arazzo` key; `nil` for anything else.
    package static func versionKey(of root: YAMLNode) -> YAMLNode? {
        guard let mapping = root.mapping,
            let pair = mapping.first(where: { $0.key.scalar?.text == "openapi" }), pair.value.scalar != nil,
            !mapping.contains(where: { ["flowrun", "arazzo"].contains($0.key.scalar?.text) })
        else { return nil }
        return pair.key
    }

    /// Whether a line of `bytes` starts with `prefix` (ASCII), as a top-level key of a block mapping does.
    static func hasLine(startingWith prefix: String, in bytes: [UInt8]) -> Bool {
        let key = Array(prefix.utf8)
        if bytes.starts(with: key) { return true }
        var index = bytes.startIndex
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            index = newline + 1
            if bytes[index...].starts(with: key) { return true }
        }
        return false
    }
}
