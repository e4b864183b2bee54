/// A source line as a terminal shows it under a finding: control characters escaped, clipped around the
/// column when it is long, and the padding that puts a caret under the column.
///
/// A line of a workflow file may hold anything: an ESC that would recolour the terminal, a NUL, 40 KB of
/// minified JSON. What is echoed is always one short line of visible text.
struct SourceLineExcerpt {
    /// The text to print.
    let text: String
    /// Spaces (and the line's own tabs) up to the column, so a caret lines up under any tab width.
    let caretPadding: String

    /// The most scalars echoed from a line; a longer line is clipped around the column, with `…` marking cuts.
    static let maxWidth = 160

    /// Prepares `line` for printing with a caret under the one-based `column`.
    init(_ line: String, column: Int) {
        let scalars = Array(line.unicodeScalars)
        let caretIndex = min(max(0, column - 1), scalars.count)
        var start = 0
        var end = scalars.count
        if scalars.count > Self.maxWidth {
            start = max(0, min(caretIndex - Self.maxWidth / 2, scalars.count - Self.maxWidth))
            end = min(scalars.count, start + Self.maxWidth)
        }
        let before = (start > 0 ? "…" : "") + TerminalText.escape(scalars[start..<caretIndex], keepingTabs: true)
        text = before + TerminalText.escape(scalars[caretIndex..<end], keepingTabs: true)
            + (end < scalars.count ? "…" : "")
        caretPadding = String(before.unicodeScalars.map { $0 == "\t" ? "\t" : " " })
    }
}

/// Text made safe for a terminal: every control character written as a visible escape.
enum TerminalText {
    /// `text` with C0 and C1 control characters and DEL escaped (`\n`, `\t`, `\u{1B}`), so a message stays on
    /// one line and never sends a terminal an escape sequence.
    static func escape(_ text: String) -> String {
        escape(text.unicodeScalars, keepingTabs: false)
    }

    /// `text` as its lines, each escaped, the lines after the first starting with `continuation`: how a message or
    /// a response excerpt that spans lines is shown (`response: line one` and `line two` under it), whatever
    /// the line breaks (`\n`, `\r\n`, `\r`); line breaks at its end are left out.
    static func lines(_ text: String, continuation: String) -> String {
        var text = Substring(text)
        while text.last?.isNewline == true { text.removeLast() }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { escape(String($0)) }
            .joined(separator: "\n" + continuation)
    }

    /// Escapes `scalars`, keeping tabs when `keepingTabs` (a quoted source line keeps its indentation).
    static func escape(_ scalars: some Sequence<Unicode.Scalar>, keepingTabs: Bool) -> String {
        var output = String.UnicodeScalarView()
        for scalar in scalars {
            switch scalar.value {
            case 0x09 where keepingTabs: output.append(scalar)
            case 0x09: output.append(contentsOf: "\\t".unicodeScalars)
            case 0x0A: output.append(contentsOf: "\\n".unicodeScalars)
            case 0x0D: output.append(contentsOf: "\\r".unicodeScalars)
            case 0x00..<0x20, 0x7F..<0xA0:
                output.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: output.append(scalar)
            }
        }
        return String(output)
    }
}
