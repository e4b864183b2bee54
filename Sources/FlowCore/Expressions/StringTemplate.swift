/// A string with embedded runtime expressions, such as `/account/{$steps.user.outputs.userId}`.
///
/// A template is a sequence of literal text and expressions. At run time the engine replaces
/// each expression with its value (see ``evaluate(_:)``) and concatenates the pieces: strings
/// are inserted as they are, other values as compact JSON.
///
/// Parse a template with ``ExpressionParser/parseTemplate(_:)``, which also explains how `$`
/// and `{$` are escaped. Parsed templates hold no empty literal segments and never two literal
/// segments in a row.
///
/// ```swift
/// let template = try ExpressionParser.parseTemplate("Bearer {$vars.token}")
/// template.segments   // [.literal("Bearer "), .expression($vars.token, offset: 8)]
/// ```
package struct StringTemplate: Hashable, Sendable, CustomStringConvertible {
    /// One piece of a ``StringTemplate``.
    package enum Segment: Hashable, Sendable {
        /// Literal text, already unescaped.
        case literal(String)
        /// An embedded expression, with the offset of its `$`, in Unicode scalars from the start
        /// of the original text.
        case expression(RuntimeExpression, offset: Int)
    }

    /// The pieces of the template, in order.
    package var segments: [Segment]

    /// Where each embedded expression is written, in order, when the template was compiled from a scalar
    /// whose offsets do not map to columns (escapes, folding, a block scalar); empty otherwise. Not part of
    /// the template's value: two templates with the same segments are equal wherever they are written.
    package var expressionLocations: [SourceLocation] = []

    /// Creates a template from its pieces.
    ///
    /// - Parameter segments: The pieces, in order.
    package init(segments: [Segment]) {
        self.segments = segments
    }

    package static func == (lhs: StringTemplate, rhs: StringTemplate) -> Bool { lhs.segments == rhs.segments }

    package func hash(into hasher: inout Hasher) { hasher.combine(segments) }

    /// Where the `index`-th embedded expression is written: its recorded location, or `origin` advanced by
    /// the expression's offset in the text.
    /// - Parameters:
    ///   - index: The position of the segment in ``segments``.
    ///   - origin: Where offset 0 of the text is written.
    package func location(ofSegment index: Int, origin: SourceLocation) -> SourceLocation {
        guard case .expression(_, let offset) = segments[index] else { return origin }
        if !expressionLocations.isEmpty {
            let ordinal = segments[..<index].count { if case .expression = $0 { true } else { false } }
            if ordinal < expressionLocations.count { return expressionLocations[ordinal] }
        }
        return origin.advanced(by: offset)
    }

    /// The embedded expressions, in order.
    package var expressions: [RuntimeExpression] {
        segments.compactMap { segment in
            if case .expression(let expression, _) = segment { return expression }
            return nil
        }
    }

    /// Whether the template embeds no expression, so its value is fixed text.
    package var isLiteral: Bool {
        segments.allSatisfy { segment in
            if case .literal = segment { return true }
            return false
        }
    }

    /// The template's text, when it embeds no expression.
    package var literalText: String? {
        var text = ""
        for segment in segments {
            guard case .literal(let literal) = segment else { return nil }
            text += literal
        }
        return text
    }

    /// The template written back as source text, escaping literal `$` where it would start an
    /// expression.
    ///
    /// Every expression is written in braces, so parsing the description gives a template with
    /// the same text and expressions (the offsets may differ when the original was a whole-value
    /// expression without braces).
    package var description: String {
        var text = ""
        var pendingLiteral = ""
        func flushLiteral() {
            guard !pendingLiteral.isEmpty else { return }
            var previous: Unicode.Scalar? = text.unicodeScalars.last
            let atStart = text.isEmpty
            for (index, scalar) in pendingLiteral.unicodeScalars.enumerated() {
                text.unicodeScalars.append(scalar)
                // `$` at the very start and `$` right after `{` are escaped by doubling.
                if scalar == "$", (atStart && index == 0) || previous == "{" {
                    text.unicodeScalars.append("$")
                }
                previous = scalar
            }
            pendingLiteral = ""
        }
        for segment in segments {
            switch segment {
            case .literal(let literal):
                pendingLiteral += literal
            case .expression(let expression, _):
                flushLiteral()
                text += "{\(expression)}"
            }
        }
        flushLiteral()
        return text
    }
}
