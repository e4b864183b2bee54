/// Reads one YAML mapping of a workflow or mock stub file against the keys the format allows there.
///
/// Creating a reader reports, in one go, a node that is not a mapping, keys
/// the format does not define (with a "did you mean" suggestion) and required
/// keys that are missing. The decoder then takes values by key; every key is
/// looked up in a dictionary, so decoding stays linear in the file size.
package struct MappingReader {
    /// The mapping node.
    package let node: YAMLNode
    /// The pairs by key text.
    private let pairs: [String: YAMLPair]
    /// The keys in file order.
    package let keys: [Located<String>]

    /// Checks `node` and makes a reader, or records why it cannot.
    /// - Parameters:
    ///   - node: The node that should be a mapping.
    ///   - context: What the mapping is, for messages: "a step", "the request".
    ///   - allowed: The keys the format defines here.
    ///   - required: The keys that must be present.
    ///   - diagnostics: Where problems are recorded.
    package init?(
        _ node: YAMLNode,
        _ context: String,
        allowed: [String],
        required: [String] = [],
        diagnostics: inout [Diagnostic]
    ) {
        guard let mapping = node.mapping else {
            diagnostics.append(Diagnostic(
                .error, .typeMismatch, "expected \(context) to be a mapping, found \(node.kindDescription)",
                at: node.location))
            return nil
        }
        // `url: {$env.API}` unquoted is the mapping `{ "$env.API": null }`: one finding that says to quote it,
        // not an unknown key and a missing one.
        if let text = node.unquotedExpressionText {
            diagnostics.append(Diagnostic(
                .error, .typeMismatch, YAMLNode.quoteItMessage(text, context: context), at: node.location))
            return nil
        }
        var pairs: [String: YAMLPair] = [:]
        var keys: [Located<String>] = []
        pairs.reserveCapacity(mapping.count)
        for pair in mapping {
            let key = pair.key.scalar?.text ?? ""
            if !allowed.contains(key) {
                let expected = allowed.count <= 8
                    ? "; expected one of: \(allowed.joined(separator: ", "))" : ""
                let suggestion = Suggestion.closest(to: key, in: allowed)
                diagnostics.append(Diagnostic(
                    .error, .unknownKey,
                    "unknown key '\(key)' in \(context)"
                        + (suggestion.map { "; did you mean '\($0)'?" } ?? expected),
                    at: pair.key.location))
                continue
            }
            pairs[key] = pair
            keys.append(Located(key, at: pair.key.location))
        }
        for key in required where pairs[key] == nil {
            diagnostics.append(Diagnostic(
                .error, .missingKey, "\(context) is missing the required key '\(key)'", at: node.location))
        }
        self.node = node
        self.pairs = pairs
        self.keys = keys
    }

    /// The value node of `key`, if present.
    package subscript(key: String) -> YAMLNode? { pairs[key]?.value }

    /// The key node of `key`, if present.
    package func keyNode(_ key: String) -> YAMLNode? { pairs[key]?.key }

    /// Whether `key` is present.
    package func contains(_ key: String) -> Bool { pairs[key] != nil }
}

/// Reads a mapping whose keys are user-chosen names (types, servers, outputs) in file order.
///
/// - Parameters:
///   - node: The node that should be a mapping.
///   - context: What the mapping is, for messages.
///   - diagnostics: Where problems are recorded.
/// - Returns: The pairs with their key text, or `nil` when the node is not a mapping.
package func namedEntries(
    _ node: YAMLNode,
    _ context: String,
    diagnostics: inout [Diagnostic]
) -> [(name: Located<String>, value: YAMLNode)]? {
    guard let mapping = node.mapping else {
        if node.scalar?.value == .null { return [] }
        diagnostics.append(Diagnostic(
            .error, .typeMismatch, "expected \(context) to be a mapping, found \(node.kindDescription)",
            at: node.location))
        return nil
    }
    return mapping.map { (Located($0.key.scalar?.text ?? "", at: $0.key.location), $0.value) }
}
