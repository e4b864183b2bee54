/// Tells an OpenAPI document apart from a workflow, so that a document named where a workflow is expected gets one
/// finding that says what it is, not a dozen unknown keys (`flowrun lint` reads it as an OpenAPI document instead).
package enum OpenAPIDocumentDetection {
    /// What a workflow's own finding says about an OpenAPI document given in its place.
    package static let notAWorkflow = "this is an OpenAPI document, not a workflow: name it under 'openapi:' in a "
        + "workflow and call its operations with 'operation:' steps, or list it under 'sourceDescriptions' in an "
        + "Arazzo document"

    /// The top-level keys that hold an OpenAPI document's version: `openapi` (3.x), and `swagger` (2.0), which the
    /// reader refuses with a finding of its own rather than let it pass for a workflow with unknown keys.
    static let versionKeys = ["openapi", "swagger"]

    /// Whether `bytes` may hold an OpenAPI document: in YAML, a line starts with `openapi` (or `swagger`) and none
    /// with `flowrun`; in JSON (the first character, after white space, is `{`), `openapi` (or `swagger`) occurs, as
    /// the document's `"openapi": "3.1.0"` key does on whatever line. A byte search, to read only a likely document
    /// a second time.
    package static func mayBeOpenAPIDocument(_ bytes: [UInt8]) -> Bool {
        if isFlowMapping(bytes) { return versionKeys.contains { contains($0, in: bytes) } }
        return versionKeys.contains { hasLine(startingWith: $0, in: bytes) }
            && !hasLine(startingWith: "flowrun", in: bytes)
    }

    /// The `openapi` (or Swagger 2.0's `swagger`) key of `root` when `root` is an OpenAPI document: a mapping
    /// whose `openapi` key holds a version (a scalar, where a workflow's `openapi:` is a mapping of documents),
    /// without a `flowrun` or `arazzo` key; `nil` for anything else.
    package static func versionKey(of root: YAMLNode) -> YAMLNode? {
        guard let mapping = root.mapping,
            let pair = mapping.first(where: { versionKeys.contains($0.key.scalar?.text ?? "") }),
            pair.value.scalar != nil,
            !mapping.contains(where: { ["flowrun", "arazzo"].contains($0.key.scalar?.text) })
        else { return nil }
        return pair.key
    }

    /// Whether `bytes` is a JSON object, or a YAML flow mapping: its first character after a byte order mark and
    /// white space is `{`.
    static func isFlowMapping(_ bytes: [UInt8]) -> Bool {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let first = bytes[start...].first { ![UInt8(ascii: " "), 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{")
    }

    /// Whether `bytes` contains `text` (ASCII): ``ASCIISearch/occurs(_:in:)``.
    static func contains(_ text: String, in bytes: [UInt8]) -> Bool {
        let key = Array(text.utf8)
        return key.withUnsafeBufferPointer { pattern in
            bytes.withUnsafeBufferPointer { ASCIISearch.occurs(pattern, in: $0) }
        }
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
