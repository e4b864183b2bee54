/// Finds the first path segment that a bound value made `.`, `..` or empty, as a path is assembled.
///
/// Literal text is the workflow author's and is taken as written; a segment counts only when a bound value
/// is part of it. Checking stops at a literal `?` or `#`: what follows is not the path.
struct PathSegmentCheck {
    /// The expression whose value made a refused segment, and that segment's text.
    private(set) var refused: (expression: RuntimeExpression, segment: String)?

    private var segment = ""
    private var boundBy: RuntimeExpression?
    private var inPath = true

    /// Adds the next piece of the path: literal text (`bound` is `nil`) or an encoded bound value.
    mutating func append(_ text: String, bound expression: RuntimeExpression?) {
        guard inPath, refused == nil else { return }
        if let expression {
            // Encoded values hold no '/', '?' or '#'.
            segment += text
            if boundBy == nil { boundBy = expression }
            return
        }
        for character in text {
            switch character {
            case "/":
                endSegment()
                if refused != nil { return }
            case "?", "#":
                endSegment()
                inPath = false
                return
            default:
                segment.append(character)
            }
        }
    }

    /// Ends the last segment.
    mutating func finish() {
        guard inPath, refused == nil else { return }
        endSegment()
    }

    private mutating func endSegment() {
        if let boundBy, segment.isEmpty || RequestPath.isDotSegment(segment) {
            refused = (boundBy, segment)
        }
        segment = ""
        boundBy = nil
    }
}
