/// Writes block-style YAML that ``YAMLLoader`` reads back as the same values: the files flowrun writes for
/// people to read and edit, such as a recorded stub file (`flowrun run --record`).
///
/// Mappings keep the order they are given in; a ``JSONValue`` object is written with its keys sorted. A string
/// is written plain when YAML reads it back as that same string (`GET`, `/user/{id}`, `u-1`), else double-quoted
/// with JSON's escapes (`"true"`, `"42"`, `"a: b"`, `""`), which YAML's double-quoted style shares.
///
/// ```swift
/// let text = YAMLWriter.render(.mapping([
///     ("method", .value(.string("GET"))),
///     ("headers", .mapping([("Authorization", .tagged("!present"))])),
/// ]))
/// // method: GET
/// // headers:
/// //   Authorization: !present
/// ```
package enum YAMLWriter {
    /// A node to write.
    package indirect enum Node: Sendable {
        /// A JSON value: a scalar, or an object (keys sorted) or array written in block style.
        case value(JSONValue)
        /// A mapping, in the order given.
        case mapping([(String, Node)])
        /// A sequence.
        case sequence([Node])
        /// An empty scalar carrying a local tag, such as `!present`.
        case tagged(String)
    }

    /// The document's text, ending with a newline.
    /// - Parameters:
    ///   - node: The root node.
    ///   - comments: Lines written first, each as a `# ` comment.
    /// - Returns: The YAML text.
    package static func render(_ node: Node, comments: [String] = []) -> String {
        var lines = comments.map { $0.isEmpty ? "#" : "# " + $0 }
        if let inline = inline(node) {
            lines.append(inline)
        } else {
            lines.append(contentsOf: block(node, indent: 0))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The node on one line, when it is a scalar, a tag or an empty collection.
    private static func inline(_ node: Node) -> String? {
        switch node {
        case .tagged(let tag): return tag
        case .mapping(let entries): return entries.isEmpty ? "{}" : nil
        case .sequence(let elements): return elements.isEmpty ? "[]" : nil
        case .value(let value):
            switch value {
            case .object(let members): return members.isEmpty ? "{}" : nil
            case .array(let elements): return elements.isEmpty ? "[]" : nil
            case .string(let text): return scalar(text)
            default: return value.serialized()
            }
        }
    }

    /// The lines of a mapping or sequence that has at least one entry, indented by `indent` spaces.
    private static func block(_ node: Node, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        switch node {
        case .value(.object(let members)):
            return block(.mapping(members.sorted { $0.key < $1.key }.map { ($0.key, .value($0.value)) }), indent: indent)
        case .value(.array(let elements)):
            return block(.sequence(elements.map { .value($0) }), indent: indent)
        case .mapping(let entries):
            return entries.flatMap { key, value -> [String] in
                if let inline = inline(value) { return [pad + scalar(key) + ": " + inline] }
                return [pad + scalar(key) + ":"] + block(value, indent: indent + 2)
            }
        case .sequence(let elements):
            return elements.flatMap { element -> [String] in
                if let inline = inline(element) { return [pad + "- " + inline] }
                // The element's first line goes after the dash; the rest keep the indent the dash makes.
                var lines = block(element, indent: indent + 2)
                lines[0] = pad + "- " + lines[0].dropFirst(indent + 2)
                return lines
            }
        case .value, .tagged:
            return [pad + (inline(node) ?? "")]
        }
    }

    /// A string as a scalar: plain when YAML reads that text back as the same string, else double-quoted.
    /// - Parameter text: The string.
    /// - Returns: The scalar's text.
    package static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : JSONValue.string(text).serialized()
    }

    /// Whether `text` can be written as a plain scalar in block context and read back as the same string: it
    /// starts with a letter, a digit or `/`, holds only letters, digits, spaces and `_ . / - { } $` (no `: `, no
    /// ` #`, no indicator that starts a flow collection), ends with no space, and is not a number, a boolean or
    /// null under the core schema.
    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        let isWordCharacter: (Unicode.Scalar) -> Bool = { character in
            switch character {
            case "a"..."z", "A"..."Z", "0"..."9": true
            default: false
            }
        }
        guard isWordCharacter(first) || first == "/", last != " " else { return false }
        let allowed = text.unicodeScalars.allSatisfy { character in
            isWordCharacter(character) || "_./-{}$ ".unicodeScalars.contains(character)
        }
        guard allowed, !text.contains("  ") else { return false }
        if case .string = YAMLScalarResolver.resolvePlain(text) { return true }
        return false
    }
}
