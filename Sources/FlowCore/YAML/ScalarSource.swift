/// The source text of a scalar whose text differs from what the file shows: quoted with escapes, folded
/// over several lines, or a block scalar. It maps an offset in the scalar's text back to the line and column
/// where that character is written, so a finding inside such a string points at the right place.
///
/// The loader keeps it only for scalars that can hold a runtime expression (their text has a `$`) and whose
/// offsets do not map to columns directly; a plain one-line scalar has none.
public struct ScalarSource: Sendable, Hashable {
    /// The scalar as written, from its first character (a quote, a block indicator) to its last.
    public var raw: String
    /// Where ``raw`` starts.
    public var start: SourceLocation

    /// Creates the source of a scalar.
    public init(raw: String, start: SourceLocation) {
        self.raw = raw
        self.start = start
    }

    /// Where the character at `offset` (in Unicode scalars) of `text` is written, or `nil` when the
    /// scalar's folding cannot be followed that far (the caller then points at the scalar).
    ///
    /// The mapping replays how YAML turns the source into the text: escapes (`\"`, `\u00E9`, an escaped line
    /// break), the doubled quote of single-quoted scalars, line folding and block indentation. It is checked:
    /// the character found in the source must be the one in the text, else the answer is `nil`.
    /// - Parameters:
    ///   - offset: The offset in the scalar's text.
    ///   - text: The scalar's text.
    ///   - style: How the scalar is written.
    public func location(ofOffset offset: Int, in text: String, style: YAMLScalar.Style) -> SourceLocation? {
        let produced = Array(text.unicodeScalars)
        guard offset >= 0, offset < produced.count else { return nil }
        var walker = Walker(raw: Array(raw.unicodeScalars), start: start)
        let found: Walker.Position?
        switch style {
        case .doubleQuoted: found = walker.quoted(escapes: true, target: offset)
        case .singleQuoted: found = walker.quoted(escapes: false, target: offset)
        case .plain: found = walker.plain(target: offset)
        case .literal, .folded:
            found = walker.block(folded: style == .folded, target: offset, textIndent: produced.prefix { $0 == " " }.count)
        }
        guard let found, found.scalar == produced[offset] else { return nil }
        return found.location
    }
}

/// Replays a scalar's source, counting the text each source character produces.
private struct Walker {
    struct Position {
        var location: SourceLocation
        var scalar: Unicode.Scalar
    }

    let raw: [Unicode.Scalar]
    let start: SourceLocation
    var index = 0
    var line: Int
    var column: Int
    var produced = 0

    init(raw: [Unicode.Scalar], start: SourceLocation) {
        self.raw = raw
        self.start = start
        line = start.line
        column = start.column
    }

    var here: SourceLocation { SourceLocation(path: start.path, line: line, column: column) }

    mutating func advance() {
        if raw[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\r" }

    /// Whether only blanks are left on the current line from `index`.
    func restOfLineIsBlank(from position: Int) -> Bool {
        var next = position
        while next < raw.count, raw[next] != "\n" {
            if !Self.isBlank(raw[next]) { return false }
            next += 1
        }
        return true
    }

    /// Skips a line break and the blank lines and indentation after it (flow folding): the break produces a
    /// space, or a line feed per blank line that follows it.
    mutating func fold() {
        var blankLines = 0
        advance()  // the line break
        while index < raw.count {
            while index < raw.count, Self.isBlank(raw[index]) { advance() }
            if index < raw.count, raw[index] == "\n" {
                blankLines += 1
                advance()
            } else {
                break
            }
        }
        produced += max(1, blankLines)
    }

    /// Skips what flow folding turns into other text: a line break (see ``fold()``) or the blanks that end a
    /// line, which are trimmed. Returns whether it skipped anything.
    mutating func skipFolding() -> Bool {
        if raw[index] == "\n" {
            fold()
            return true
        }
        guard Self.isBlank(raw[index]), restOfLineIsBlank(from: index) else { return false }
        while index < raw.count, raw[index] != "\n" { advance() }
        return true
    }

    /// A quoted scalar: after the opening quote, up to the closing one.
    mutating func quoted(escapes: Bool, target: Int) -> Position? {
        advance()  // the opening quote
        while index < raw.count {
            if skipFolding() { continue }
            let scalar = raw[index]
            if !escapes, scalar == "'" {
                guard index + 1 < raw.count, raw[index + 1] == "'" else { return nil }  // the closing quote
                if produced == target { return Position(location: here, scalar: "'") }
                advance()
                advance()
                produced += 1
                continue
            }
            if escapes, scalar == "\"" { return nil }  // the closing quote
            if escapes, scalar == "\\", index + 1 < raw.count {
                let kind = raw[index + 1]
                if kind == "\n" {  // an escaped line break: nothing, and the next line's indentation is skipped
                    advance()
                    advance()
                    while index < raw.count, Self.isBlank(raw[index]) { advance() }
                    continue
                }
                let length = switch kind {
                case "x": 4
                case "u": 6
                case "U": 10
                default: 2
                }
                if produced == target { return Position(location: here, scalar: "\\") }
                for _ in 0..<length where index < raw.count { advance() }
                produced += 1
                continue
            }
            if produced == target { return Position(location: here, scalar: scalar) }
            advance()
            produced += 1
        }
        return nil
    }

    /// A plain scalar over several lines: each line's leading blanks are skipped, breaks fold.
    mutating func plain(target: Int) -> Position? {
        while index < raw.count {
            if skipFolding() { continue }
            let scalar = raw[index]
            if produced == target { return Position(location: here, scalar: scalar) }
            advance()
            produced += 1
        }
        return nil
    }

    /// A block scalar: a header line (`|`, `>-`, `|2`), then lines indented by the block's indentation.
    /// - Parameter textIndent: How many spaces start the text: the first content line's spaces beyond the
    ///   block's indentation, which tells the indentation without knowing the parent's.
    mutating func block(folded: Bool, target: Int, textIndent: Int) -> Position? {
        while index < raw.count, raw[index] != "\n" { advance() }
        guard index < raw.count else { return nil }
        advance()  // the header's line break
        // The indentation: the first content line's spaces, less those the text keeps.
        var probe = index
        var width = 0
        while probe < raw.count {
            if raw[probe] == " " {
                width += 1
            } else if raw[probe] == "\n" {
                width = 0
            } else {
                break
            }
            probe += 1
        }
        let indentation = max(0, width - textIndent)
        while index < raw.count {
            // Skip the indentation of this line.
            var skipped = 0
            while index < raw.count, skipped < indentation, raw[index] == " " {
                advance()
                skipped += 1
            }
            let lineStart = index
            while index < raw.count, raw[index] != "\n" {
                if produced == target { return Position(location: here, scalar: raw[index]) }
                advance()
                produced += 1
            }
            guard index < raw.count else { break }
            if folded, index > lineStart {
                // After a line of text, the break becomes a space, or, when blank lines follow, one line
                // feed per blank line (the break itself is dropped).
                advance()
                var blankLines = 0
                while index < raw.count, restOfLineIsBlank(from: index) {
                    while index < raw.count, raw[index] != "\n" { advance() }
                    guard index < raw.count else { break }
                    advance()
                    blankLines += 1
                }
                produced += max(1, blankLines)
                continue
            }
            if produced == target { return Position(location: here, scalar: "\n") }
            advance()
            produced += 1
        }
        return nil
    }
}
