/// A node of a YAML document: a scalar, a sequence or a mapping, with the place it starts.
///
/// The loader resolves anchors, aliases and `<<` merge keys, so the tree a
/// caller sees is plain data. Scalars keep both their text and their YAML 1.2
/// core-schema resolution, so `no` stays the string `"no"` and `0x1F` is the
/// integer 31.
public struct YAMLNode: Sendable, Hashable {
    /// The content of a ``YAMLNode``.
    public indirect enum Content: Sendable, Hashable {
        /// A scalar value.
        case scalar(YAMLScalar)
        /// A sequence of nodes, in document order.
        case sequence([YAMLNode])
        /// A mapping of key nodes to value nodes, in document order, keys unique.
        case mapping([YAMLPair])
    }

    /// What the node holds.
    public var content: Content
    /// Where the node starts in the file.
    public var location: SourceLocation

    /// Creates a node.
    /// - Parameters:
    ///   - content: What the node holds.
    ///   - location: Where the node starts in the file.
    public init(_ content: Content, at location: SourceLocation) {
        self.content = content
        self.location = location
    }

    /// The scalar, when this node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The elements, when this node is a sequence.
    public var sequence: [YAMLNode]? {
        if case .sequence(let elements) = content { return elements }
        return nil
    }

    /// The key/value pairs, when this node is a mapping.
    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// A short name of the node's kind for messages: "a mapping", "a sequence", "the string 'x'", "null".
    public var kindDescription: String {
        switch content {
        case .mapping: "a mapping"
        case .sequence: "a sequence"
        case .scalar(let scalar): scalar.kindDescription
        }
    }
}

/// One entry of a YAML mapping.
public struct YAMLPair: Sendable, Hashable {
    /// The key node; workflow files use scalar keys only.
    public var key: YAMLNode
    /// The value node.
    public var value: YAMLNode

    /// Creates a pair.
    /// - Parameters:
    ///   - key: The key node.
    ///   - value: The value node.
    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// A YAML scalar: its source text, how it was written, and its core-schema value.
public struct YAMLScalar: Sendable, Hashable {
    /// How a scalar was written in the file.
    public enum Style: Sendable, Hashable {
        /// Unquoted.
        case plain
        /// In `'single quotes'`.
        case singleQuoted
        /// In `"double quotes"`.
        case doubleQuoted
        /// A `|` literal block.
        case literal
        /// A `>` folded block.
        case folded
    }

    /// The value of a scalar under the YAML 1.2 core schema.
    public enum Value: Sendable, Hashable {
        /// `~`, `null`, `Null`, `NULL` or empty.
        case null
        /// `true`/`false` in any of the core schema's three spellings.
        case bool(Bool)
        /// A decimal, `0o` octal or `0x` hexadecimal integer that fits in 64 bits.
        case int(Int)
        /// A decimal float, `.inf`, `-.inf` or `.nan`.
        case double(Double)
        /// Anything else, and every quoted or block scalar.
        case string(String)
    }

    /// The scalar's text after YAML unescaping and folding.
    public var text: String
    /// How the scalar was written.
    public var style: Style
    /// The explicit tag (`!!str`, `!!int`), if any.
    public var tag: String?
    /// The resolved value.
    public var value: Value
    /// The source of a quoted, block or multi-line scalar whose text has a `$`, to locate what is inside it.
    public var source: ScalarSource?

    /// Creates a scalar.
    /// - Parameters:
    ///   - text: The scalar's text after unescaping.
    ///   - style: How the scalar was written.
    ///   - tag: The explicit tag, if any.
    ///   - value: The resolved value.
    public init(text: String, style: Style, tag: String? = nil, value: Value) {
        self.text = text
        self.style = style
        self.tag = tag
        self.value = value
    }

    /// A short description for messages: "the string 'x'", "the integer 3", "null".
    public var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool(let b): "the boolean \(b)"
        case .int(let i): "the integer \(i)"
        case .double: "the number \(text)"
        case .string(let s): "the string '\(s.count > 40 ? String(s.prefix(40)) + "…" : s)'"
        }
    }
}

extension YAMLNode {
    /// `{$env.API}` when this node is what YAML makes of that text written without quotes: a flow mapping whose
    /// one key is a plain scalar that starts with `$` and whose value is empty. `nil` for any other node.
    ///
    /// The classic mistake of a workflow author: a plain value that starts with `{` opens a mapping.
    package var unquotedExpressionText: String? {
        guard let pairs = mapping, pairs.count == 1, let key = pairs[0].key.scalar, key.style == .plain,
            key.text.hasPrefix("$"), let value = pairs[0].value.scalar, value.value == .null, value.text.isEmpty
        else { return nil }
        return "{\(key.text)}"
    }

    /// The message for an ``unquotedExpressionText`` where `context` expected a value.
    package static func quoteItMessage(_ text: String, context: String) -> String {
        "\(context) is written \(text) without quotes, which YAML reads as a mapping; quote it (\"\(text)\") "
            + "to embed the value"
    }
}
