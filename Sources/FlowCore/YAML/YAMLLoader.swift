internal import CYAML

/// A type that parses the text of a workflow file into a tree of ``YAMLNode`` values.
///
/// The loader reads one YAML 1.2 document with libyaml's event parser and
/// builds plain data from it: anchors and aliases are resolved, `<<` merge keys
/// are applied, and every plain scalar is resolved under the core schema, so
/// `no` stays the string `"no"` while `0x1F` is the integer 31.
///
/// It is strict where a lenient loader would hide mistakes in a workflow:
/// a key defined twice in one mapping, a second document in the stream, a
/// mapping used as a key, an unknown tag or an alias to an undefined anchor
/// are all errors. Each error carries the place in the file where it is, as a
/// one-based line and a one-based column counted in Unicode scalars (a tab is
/// one column), which is how libyaml counts.
///
/// Limits guard against hostile or accidental input: the file size is checked
/// before parsing, and the nesting depth and the number of nodes — including
/// those an alias copies — are checked while building, so an "alias bomb"
/// such as the billion laughs document is refused after a few thousand events
/// without ever materializing its expansion.
///
/// ```swift
/// let root = try YAMLLoader().load("steps:\n  - id: a\n", path: "flow.yaml")
/// print(root.mapping?.first?.key.location)  // flow.yaml:1:1
/// ```
///
/// A copied alias keeps the locations of the anchored node it copies, so a
/// problem in the value points at the place where the value is written.
public struct YAMLLoader: Sendable {
    /// The bounds that a ``YAMLLoader`` enforces on its input.
    ///
    /// The defaults admit any workflow a person would write while refusing
    /// inputs that would exhaust memory or stack in the loader or in code that
    /// walks the resulting tree.
    public struct Limits: Sendable, Hashable {
        /// The largest accepted input, in bytes; 8 MiB by default.
        public var maxFileSize: Int
        /// The deepest accepted nesting of sequences and mappings; 128 by default.
        ///
        /// A top-level mapping is at depth 1. Aliases count with the depth of the node they copy.
        public var maxDepth: Int
        /// The largest accepted number of nodes, counting every node an alias copies; 1,000,000 by default.
        ///
        /// Keys, values, sequence elements and the collections themselves each count as one node.
        public var maxNodes: Int

        /// Creates limits.
        /// - Parameters:
        ///   - maxFileSize: The largest accepted input, in bytes.
        ///   - maxDepth: The deepest accepted nesting of sequences and mappings.
        ///   - maxNodes: The largest accepted number of nodes after alias expansion.
        public init(maxFileSize: Int = 8 << 20, maxDepth: Int = 128, maxNodes: Int = 1_000_000) {
            self.maxFileSize = maxFileSize
            self.maxDepth = maxDepth
            self.maxNodes = maxNodes
        }

        /// The default limits: 8 MiB, 128 levels, 1,000,000 nodes.
        public static let `default` = Limits()
    }

    /// The bounds this loader enforces.
    public var limits: Limits
    /// Local tags (`!anystr`) that scalars may carry besides the core ones, for formats that give them a
    /// meaning (the matchers of test files); the scalar keeps its text as a string and the tag in
    /// ``YAMLScalar/tag``. Empty by default: workflow files accept only the core tags.
    public var localTags: Set<String> = []

    /// Creates a loader.
    /// - Parameters:
    ///   - limits: The bounds to enforce on every input.
    ///   - localTags: The local scalar tags to accept, such as `!anystr`.
    public init(limits: Limits = .default, localTags: Set<String> = []) {
        self.limits = limits
        self.localTags = localTags
    }

    /// Parses one YAML document from UTF-8 bytes.
    ///
    /// A leading UTF-8 byte order mark is skipped. An empty stream — no bytes,
    /// or only comments and whitespace — yields a null scalar at line 1,
    /// column 1, so callers report "expected a mapping" rather than a parse
    /// failure.
    ///
    /// - Parameters:
    ///   - bytes: The file's content, UTF-8 encoded.
    ///   - path: The file's path as the user named it; it appears in every location.
    /// - Returns: The document's root node.
    /// - Throws: A ``FlowError`` with code ``FlowError/Code/limitExceeded`` when the input breaks one of the
    ///   ``limits``; ``FlowError/Code/duplicateKey`` when a mapping defines a key twice; and
    ///   ``FlowError/Code/invalidYAML`` for syntax errors, text that is not UTF-8, a bad `<<` merge, an
    ///   undefined alias or a core tag on the wrong kind of node; ``FlowError/Code/unsupportedYAML`` for
    ///   well-formed YAML flowrun does not read: a second document, a non-scalar key, a tag outside the core
    ///   schema.
    public func load(_ bytes: [UInt8], path: String) throws(FlowError) -> YAMLNode {
        try bytes.withUnsafeBufferPointer { (buffer) throws(FlowError) -> YAMLNode in
            try load(buffer: buffer, path: path)
        }
    }

    /// Parses one YAML document from a string.
    ///
    /// This behaves like the byte-array overload applied to the string's UTF-8 bytes, without copying them.
    ///
    /// - Parameters:
    ///   - text: The file's content.
    ///   - path: The file's path as the user named it; it appears in every location.
    /// - Returns: The document's root node.
    /// - Throws: A ``FlowError`` as described for the byte-array overload.
    public func load(_ text: String, path: String) throws(FlowError) -> YAMLNode {
        var text = text
        // `withUTF8` is only `rethrows`, so the typed error travels out in a `Result`.
        let result = text.withUTF8 { buffer in
            Result { () throws(FlowError) -> YAMLNode in try load(buffer: buffer, path: path) }
        }
        return try result.get()
    }

    /// Parses one document from a buffer that stays valid for the whole call.
    func load(buffer: UnsafeBufferPointer<UInt8>, path: String) throws(FlowError) -> YAMLNode {
        let start = SourceLocation(path: path, line: 1, column: 1)
        guard buffer.count <= limits.maxFileSize else {
            throw FlowError(
                .limitExceeded,
                "the file is \(buffer.count) bytes; the limit is \(limits.maxFileSize) bytes",
                at: start
            )
        }
        var input = buffer
        if input.starts(with: [0xEF, 0xBB, 0xBF]) {
            // Strip the BOM here rather than letting libyaml do it: the encoding is forced to UTF-8 below, and
            // libyaml then counts a BOM as a column.
            input = UnsafeBufferPointer(rebasing: buffer[3...])
        } else if input.starts(with: [0xFF, 0xFE]) || input.starts(with: [0xFE, 0xFF]) {
            throw FlowError(.invalidYAML, "the file is UTF-16 encoded; workflow files must be UTF-8", at: start)
        }
        guard let base = input.baseAddress, !input.isEmpty else {
            return YAMLLoader.emptyDocument(at: start)
        }

        // libyaml's string reader keeps a pointer to the parser struct itself, so the struct must not move:
        // it lives on the heap rather than in a Swift variable passed with `&`.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw FlowError(.limitExceeded, "out of memory while starting the YAML parser", at: start)
        }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_input_string(parser, base, input.count)
        // Force UTF-8 so that a file is never guessed to be UTF-16; invalid bytes then fail as invalid UTF-8.
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)

        let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        defer { event.deallocate() }

        var builder = TreeBuilder(path: path, limits: limits, input: input, localTags: localTags)
        while true {
            guard yaml_parser_parse(parser, event) == 1 else {
                throw LibYAMLError(parser: parser, input: input, path: path).flowError
            }
            defer { yaml_event_delete(event) }
            if try builder.handle(event.pointee) { break }
        }
        return builder.root ?? YAMLLoader.emptyDocument(at: start)
    }

    /// The node an empty stream stands for: a null scalar.
    static func emptyDocument(at location: SourceLocation) -> YAMLNode {
        YAMLNode(.scalar(YAMLScalar(text: "", style: .plain, value: .null)), at: location)
    }
}

// MARK: - Building the tree from events

/// Builds a ``YAMLNode`` tree from libyaml events, enforcing the loader's rules and limits.
///
/// Collections are built on an explicit stack instead of by recursion, so no
/// input can overflow the call stack before the depth limit refuses it.
private struct TreeBuilder {
    /// A finished node on its way into its parent, with what the parent and the limits need to know about it.
    struct Child {
        var node: YAMLNode
        /// The node's size in nodes, including itself and everything it contains.
        var size: Int
        /// The node's nesting height: 0 for a scalar, 1 plus the tallest child for a collection.
        var height: Int
        /// Where the node appears in the stream: the alias itself for an alias, else the node's location.
        var reference: SourceLocation
        /// Whether the node is a plain, untagged `<<`, which as a key requests a merge.
        var isMergeKey: Bool = false
    }

    /// A sequence or mapping whose end event has not arrived yet.
    struct Frame {
        enum Kind { case sequence, mapping }

        var kind: Kind
        var location: SourceLocation
        var anchor: String?
        var elements: [YAMLNode] = []
        /// The explicitly written pairs, in order; merged pairs are inserted when the mapping ends.
        var pairs: [YAMLPair] = []
        /// A key waiting for its value.
        var pendingKey: Child?
        /// The line where each key text was first defined, for duplicate detection and merge precedence.
        var keyLines = KeyLines()
        /// The pairs a `<<` brings in, and the index in `pairs` where they go.
        var merge: (index: Int, pairs: [YAMLPair])?
        var size = 1
        var height = 1
    }

    /// An anchored node with its size and height cached, so an alias is checked against the limits before it is
    /// copied.
    struct Anchored {
        var node: YAMLNode
        var size: Int
        var height: Int
    }

    let path: String
    let limits: YAMLLoader.Limits
    private(set) var root: YAMLNode?
    private var stack: [Frame] = []
    private var anchors: [String: Anchored] = [:]
    private var nodeCount = 0
    private var documentCount = 0
    /// The file's bytes, valid while the tree is built, for the source of scalars that need one.
    private let input: UnsafeBufferPointer<UInt8>
    /// Where each line of ``input`` starts, found the first time a scalar needs its source.
    private var lineStarts: [Int]?

    /// The local scalar tags accepted besides the core ones.
    private let localTags: Set<String>

    init(path: String, limits: YAMLLoader.Limits, input: UnsafeBufferPointer<UInt8>, localTags: Set<String>) {
        self.path = path
        self.limits = limits
        self.input = input
        self.localTags = localTags
    }

    /// The source of a scalar between two marks, when its text may hold an expression whose offsets do not
    /// map to columns directly: quoted, block or over several lines.
    private mutating func source(
        of text: String, style: YAMLScalar.Style, from start: yaml_mark_t, to end: yaml_mark_t
    ) -> ScalarSource? {
        guard style != .plain || start.line != end.line, text.utf8.contains(UInt8(ascii: "$")) else { return nil }
        if lineStarts == nil {
            var starts = [0]
            for (index, byte) in input.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
            lineStarts = starts
        }
        func byteOffset(_ mark: yaml_mark_t) -> Int? {
            guard let starts = lineStarts, mark.line < starts.count else { return nil }
            var index = starts[mark.line]
            var column = 0
            while column < mark.column, index < input.count {
                let byte = input[index]
                index += byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                column += 1
            }
            return min(index, input.count)
        }
        guard let from = byteOffset(start), let to = byteOffset(end), from <= to else { return nil }
        let raw = String(decoding: UnsafeBufferPointer(rebasing: input[from..<to]), as: UTF8.self)
        return ScalarSource(raw: raw, start: location(start))
    }

    /// Handles one event and returns whether it ended the stream.
    mutating func handle(_ event: yaml_event_t) throws(FlowError) -> Bool {
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documentCount += 1
            if documentCount > 1 {
                throw FlowError(
                    .unsupportedYAML,
                    "flowrun does not support a second YAML document in a file; a file holds one document",
                    at: location(event.start_mark)
                )
            }
        case YAML_SCALAR_EVENT:
            try scalar(event)
        case YAML_ALIAS_EVENT:
            try alias(event)
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            try start(.sequence, tag: data.tag, anchor: data.anchor, at: location(event.start_mark))
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            try start(.mapping, tag: data.tag, anchor: data.anchor, at: location(event.start_mark))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            try end()
        default:
            // Stream start, document end and the "no event" placeholder carry nothing to build.
            break
        }
        return false
    }

    // MARK: Events

    private mutating func scalar(_ event: yaml_event_t) throws(FlowError) {
        let data = event.data.scalar
        let here = location(event.start_mark)
        try count(1, at: here)
        let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
        let style: YAMLScalar.Style =
            switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: .literal
            case YAML_FOLDED_SCALAR_STYLE: .folded
            default: .plain
            }
        let tag = data.tag.map { String(cString: $0) }
        var scalar = try resolve(text, style: style, tag: tag, at: here)
        scalar.source = source(of: text, style: style, from: event.start_mark, to: event.end_mark)
        let node = YAMLNode(.scalar(scalar), at: here)
        if let anchor = data.anchor {
            anchors[String(cString: anchor)] = Anchored(node: node, size: 1, height: 0)
        }
        let isMergeKey = style == .plain && tag == nil && text == "<<"
        try attach(Child(node: node, size: 1, height: 0, reference: here, isMergeKey: isMergeKey))
    }

    private mutating func alias(_ event: yaml_event_t) throws(FlowError) {
        let name = String(cString: event.data.alias.anchor)
        let here = location(event.start_mark)
        guard let anchored = anchors[name] else {
            if stack.contains(where: { $0.anchor == name }) {
                throw FlowError(
                    .invalidYAML,
                    "the alias '*\(name)' refers to a node that contains it; recursive aliases are not supported",
                    at: here
                )
            }
            throw FlowError(.invalidYAML, "the alias '*\(name)' refers to no anchor '&\(name)' before it", at: here)
        }
        // Both checks use the cached size and height, before anything is copied: this is what stops an alias bomb.
        if stack.count + anchored.height > limits.maxDepth {
            throw FlowError(
                .limitExceeded,
                "the alias '*\(name)' nests the document deeper than the limit of \(limits.maxDepth) levels",
                at: here
            )
        }
        if anchored.size > limits.maxNodes - nodeCount {
            throw FlowError(
                .limitExceeded,
                "the alias '*\(name)' expands the document beyond the limit of \(limits.maxNodes) nodes",
                at: here
            )
        }
        nodeCount += anchored.size
        try attach(Child(node: anchored.node, size: anchored.size, height: anchored.height, reference: here))
    }

    private mutating func start(
        _ kind: Frame.Kind,
        tag: UnsafeMutablePointer<yaml_char_t>?,
        anchor: UnsafeMutablePointer<yaml_char_t>?,
        at here: SourceLocation
    ) throws(FlowError) {
        if let tag {
            let tag = String(cString: tag)
            let expected = kind == .mapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq"
            if tag != "!" && tag != expected {
                let what = kind == .mapping ? "a mapping" : "a sequence"
                let name = shorthand(tag)
                if name.hasPrefix("!!"), YAMLScalarResolver.CoreTag(rawValue: String(name.dropFirst(2))) != nil
                    || name == "!!map" || name == "!!seq"
                {
                    throw FlowError(.invalidYAML, "the tag '\(name)' cannot be applied to \(what)", at: here)
                }
                throw FlowError(.unsupportedYAML, Self.unsupportedTagMessage(name), at: here)
            }
        }
        if stack.count >= limits.maxDepth {
            throw FlowError(.limitExceeded, "nesting is deeper than the limit of \(limits.maxDepth) levels", at: here)
        }
        try count(1, at: here)
        stack.append(Frame(kind: kind, location: here, anchor: anchor.map { String(cString: $0) }))
    }

    private mutating func end() throws(FlowError) {
        var frame = stack.removeLast()
        let node: YAMLNode
        switch frame.kind {
        case .sequence:
            node = YAMLNode(.sequence(frame.elements), at: frame.location)
        case .mapping:
            if let merge = frame.merge {
                // Keys written in the mapping win over merged ones, wherever they appear relative to `<<`.
                let inherited = merge.pairs.filter { frame.keyLines[$0.key.scalar?.text ?? ""] == nil }
                frame.pairs.insert(contentsOf: inherited, at: merge.index)
            }
            node = YAMLNode(.mapping(frame.pairs), at: frame.location)
        }
        if let anchor = frame.anchor {
            anchors[anchor] = Anchored(node: node, size: frame.size, height: frame.height)
        }
        try attach(Child(node: node, size: frame.size, height: frame.height, reference: frame.location))
    }

    // MARK: Assembly

    /// Adds a finished node to the collection being built, or makes it the document's root.
    private mutating func attach(_ child: Child) throws(FlowError) {
        guard !stack.isEmpty else {
            root = child.node
            return
        }
        let top = stack.count - 1
        stack[top].size += child.size
        stack[top].height = max(stack[top].height, child.height + 1)
        switch stack[top].kind {
        case .sequence:
            stack[top].elements.append(child.node)
        case .mapping:
            guard let key = stack[top].pendingKey else {
                try addKey(child, to: top)
                return
            }
            stack[top].pendingKey = nil
            if key.isMergeKey {
                stack[top].merge = (stack[top].pairs.count, try mergedPairs(from: child))
            } else {
                stack[top].pairs.append(YAMLPair(key: key.node, value: child.node))
            }
        }
    }

    /// Checks a mapping key and holds it until its value arrives.
    private mutating func addKey(_ key: Child, to top: Int) throws(FlowError) {
        guard let scalar = key.node.scalar else {
            throw FlowError(
                .unsupportedYAML,
                "flowrun does not support a collection as a mapping key (this key is \(key.node.kindDescription)); "
                    + "keys are scalars",
                at: key.reference
            )
        }
        // Keys compare by text, so `1` and `"1"` are the same key, as they are to a reader of the file.
        if let firstLine = stack[top].keyLines[scalar.text] {
            throw FlowError(
                .duplicateKey,
                "duplicate key '\(scalar.text)' (first defined at line \(firstLine))",
                at: key.reference
            )
        }
        stack[top].keyLines.insert(scalar.text, line: key.reference.line)
        stack[top].pendingKey = key
    }

    /// The pairs a `<<` value brings into a mapping: those of one mapping, or of several with the earlier winning.
    private func mergedPairs(from value: Child) throws(FlowError) -> [YAMLPair] {
        let rule = "the value of a '<<' merge key must be a mapping or a sequence of mappings"
        switch value.node.content {
        case .mapping(let pairs):
            return pairs
        case .sequence(let elements):
            var merged: [YAMLPair] = []
            var seen: Set<String> = []
            for (index, element) in elements.enumerated() {
                guard case .mapping(let pairs) = element.content else {
                    throw FlowError(
                        .invalidYAML,
                        "\(rule); element \(index + 1) is \(element.kindDescription)",
                        at: value.reference
                    )
                }
                for pair in pairs where seen.insert(pair.key.scalar?.text ?? "").inserted {
                    merged.append(pair)
                }
            }
            return merged
        case .scalar:
            throw FlowError(.invalidYAML, "\(rule); found \(value.node.kindDescription)", at: value.reference)
        }
    }

    /// Resolves a scalar's value from its style and tag.
    private func resolve(
        _ text: String,
        style: YAMLScalar.Style,
        tag: String?,
        at here: SourceLocation
    ) throws(FlowError) -> YAMLScalar {
        guard let tag else {
            let value = style == .plain ? YAMLScalarResolver.resolvePlain(text) : .string(text)
            return YAMLScalar(text: text, style: style, value: value)
        }
        // The non-specific tag `!` marks a scalar as a string (YAML 1.2, section 6.9.1).
        if tag == "!" {
            return YAMLScalar(text: text, style: style, tag: tag, value: .string(text))
        }
        let name = shorthand(tag)
        if localTags.contains(name) {
            return YAMLScalar(text: text, style: style, tag: name, value: .string(text))
        }
        guard name.hasPrefix("!!"), let core = YAMLScalarResolver.CoreTag(rawValue: String(name.dropFirst(2))) else {
            if name == "!!map" || name == "!!seq" {
                throw FlowError(.invalidYAML, "the tag '\(name)' cannot be applied to a scalar", at: here)
            }
            throw FlowError(.unsupportedYAML, Self.unsupportedTagMessage(name), at: here)
        }
        guard let value = YAMLScalarResolver.resolve(text, as: core) else {
            throw FlowError(.invalidYAML, "'\(text)' is not a valid \(name) value\(Self.expectation(core))", at: here)
        }
        return YAMLScalar(text: text, style: style, tag: name, value: value)
    }

    /// The message for a tag outside the core schema: well-formed YAML that flowrun does not read.
    private static func unsupportedTagMessage(_ name: String) -> String {
        "flowrun does not support the tag '\(name)'; it reads the core schema tags !!str, !!int, !!float, "
            + "!!bool, !!null, !!map and !!seq, and the non-specific '!'"
    }

    /// What a tag accepts, for the message that rejects a value.
    private static func expectation(_ tag: YAMLScalarResolver.CoreTag) -> String {
        switch tag {
        case .int: " (expected a decimal, 0o octal or 0x hexadecimal integer that fits in 64 bits)"
        case .float: " (expected a number such as 1.5, 1e3, .inf or .nan)"
        case .bool: " (expected true or false)"
        case .null: " (expected null, ~ or nothing)"
        case .str: ""
        }
    }

    /// Counts nodes toward the limit, failing before the count would pass it.
    private mutating func count(_ nodes: Int, at here: SourceLocation) throws(FlowError) {
        if nodes > limits.maxNodes - nodeCount {
            throw FlowError(
                .limitExceeded,
                "the document has more than the limit of \(limits.maxNodes) nodes",
                at: here
            )
        }
        nodeCount += nodes
    }

    /// The `!!name` form of a core-schema tag, or the tag unchanged.
    private func shorthand(_ tag: String) -> String {
        let prefix = "tag:yaml.org,2002:"
        return tag.hasPrefix(prefix) ? "!!" + tag.dropFirst(prefix.count) : tag
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(path: path, line: mark.line + 1, column: mark.column + 1)
    }
}

// MARK: - libyaml errors

/// A libyaml failure, phrased for the person who wrote the file.
private struct LibYAMLError {
    let flowError: FlowError

    /// Reads the error state that a failed `yaml_parser_parse` left in the parser.
    init(parser: UnsafeMutablePointer<yaml_parser_t>, input: UnsafeBufferPointer<UInt8>, path: String) {
        let problem = parser.pointee.problem.map { String(cString: $0) } ?? "unknown problem"
        let text = TextPositions(input)
        func location(line: Int, column: Int) -> SourceLocation {
            SourceLocation(path: path, line: line + 1, column: column + 1)
        }
        switch parser.pointee.error {
        case YAML_READER_ERROR:
            // Reader errors have no mark, only the byte offset and the offending byte or code point.
            let offset = parser.pointee.problem_offset
            let value = Int(parser.pointee.problem_value)
            let (line, column) = text.position(ofByteOffset: offset)
            let message =
                if problem.contains("control characters") {
                    "\(problem): found \(Self.codePoint(value)); is this a binary file?"
                } else if problem.contains("Unicode character") {
                    "\(problem) \(Self.codePoint(value)); is this a binary file?"
                } else if problem.contains("incomplete") {
                    "the file is not valid UTF-8: \(problem) at the end of the file"
                } else {
                    "the file is not valid UTF-8: \(problem) 0x\(Self.hex(value, digits: 2))"
                }
            flowError = FlowError(.invalidYAML, message, at: location(line: line, column: column))
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            let mark = parser.pointee.problem_mark
            let contextMark = parser.pointee.context_mark
            var message = problem
            var notes: [String] = []
            // "while scanning for the next token" says nothing the problem does not; other contexts name the
            // construct that was left unfinished and where it began.
            if let context = parser.pointee.context.map({ String(cString: $0) }),
                context != "while scanning for the next token"
            {
                if contextMark.line == mark.line && contextMark.column == mark.column {
                    notes.append(context)
                } else {
                    notes.append("\(context) at line \(contextMark.line + 1), column \(contextMark.column + 1)")
                }
                if context.contains("quoted scalar") && problem.contains("end of stream") {
                    notes.append("is a closing quote missing?")
                }
            }
            if problem.contains("expected <document start>") {
                // libyaml's wording for text after the end of the one document, such as a stray `}`.
                notes.append("is there text after the end of the document?")
            }
            if text.scalar(atLine: mark.line, column: mark.column) == "\t" && !problem.contains("tab") {
                notes.append("tabs are not allowed for indentation")
            }
            if !notes.isEmpty { message += " (\(notes.joined(separator: "; ")))" }
            flowError = FlowError(.invalidYAML, message, at: location(line: mark.line, column: mark.column))
        default:
            flowError = FlowError(
                .limitExceeded,
                "the YAML parser failed: \(problem)",
                at: SourceLocation(path: path, line: 1, column: 1)
            )
        }
    }

    /// `U+0000` notation.
    private static func codePoint(_ value: Int) -> String { "U+\(hex(value, digits: 4))" }

    /// Upper-case hexadecimal, zero-padded to `digits`.
    private static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Converts between byte offsets and libyaml's zero-based line and column, for error reporting only.
///
/// libyaml counts columns in characters and ends lines at LF, CR, CR LF, NEL, LS and PS; this walk does the
/// same so that positions computed here agree with the marks libyaml reports elsewhere.
private struct TextPositions {
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The zero-based line and column of the character that starts at `offset`.
    func position(ofByteOffset offset: Int) -> (line: Int, column: Int) {
        var line = 0
        var column = 0
        var index = 0
        while index < min(offset, bytes.count) {
            let width = breakWidth(at: index)
            if width > 0 {
                line += 1
                column = 0
                index += width
            } else {
                column += 1
                index += scalarWidth(at: index)
            }
        }
        return (line, column)
    }

    /// The character at a zero-based line and column, if the text has one there.
    func scalar(atLine targetLine: Int, column targetColumn: Int) -> Unicode.Scalar? {
        var line = 0
        var column = 0
        var index = 0
        while index < bytes.count {
            let breakWidth = breakWidth(at: index)
            if line == targetLine && column == targetColumn {
                return breakWidth > 0 ? "\n" : decode(at: index)
            }
            if breakWidth > 0 {
                if line == targetLine { return nil }
                line += 1
                column = 0
                index += breakWidth
            } else {
                column += 1
                index += scalarWidth(at: index)
            }
        }
        return nil
    }

    /// The byte length of a line break at `index`, or 0 when there is none.
    private func breakWidth(at index: Int) -> Int {
        func byte(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        switch bytes[index] {
        case 0x0A: return 1
        case 0x0D: return byte(1) == 0x0A ? 2 : 1
        case 0xC2: return byte(1) == 0x85 ? 2 : 0
        case 0xE2: return byte(1) == 0x80 && (byte(2) == 0xA8 || byte(2) == 0xA9) ? 3 : 0
        default: return 0
        }
    }

    /// The byte length of the UTF-8 sequence starting at `index`, judged by its lead byte alone.
    private func scalarWidth(at index: Int) -> Int {
        let width =
            switch bytes[index] {
            case 0xF0...: 4
            case 0xE0...: 3
            case 0xC0...: 2
            default: 1
            }
        return min(width, bytes.count - index)
    }

    /// The scalar at `index`, or `nil` when the bytes there are not valid UTF-8.
    private func decode(at index: Int) -> Unicode.Scalar? {
        let slice = bytes[index..<(index + scalarWidth(at: index))]
        var iterator = slice.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }
}
