extension YAMLNode {
    /// Where the character at `offset` (in Unicode scalars) of this scalar's text is written: through the
    /// scalar's source when it keeps one (quoted with escapes, folded), else its column plus the offset (plus one
    /// inside quotes); the scalar's own location when neither can say, and for a node that is no scalar.
    package func location(ofTextOffset offset: Int) -> SourceLocation {
        guard let scalar else { return location }
        if let source = scalar.source {
            return source.location(ofOffset: offset, in: scalar.text, style: scalar.style) ?? location
        }
        if scalar.style == .literal || scalar.style == .folded { return location }
        return ValueTemplate.location(
            ofOffset: offset, in: scalar.text, origin: ValueTemplate.textOrigin(of: location, style: scalar.style))
    }
}
