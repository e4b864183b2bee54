/// An error that describes why a runtime expression, string template or JSON pointer is malformed.
///
/// The parsers in ``ExpressionParser`` and ``JSONPointer/init(parsing:)`` throw this
/// error with a message specific enough to fix the text without reading the documentation,
/// for example `unknown expression source '$input'; expected $inputs, …; did you mean '$inputs'?`,
/// and the offset of the offending character.
///
/// The offset counts Unicode scalars from the start of the text that was parsed, which is what
/// ``SourceLocation`` counts columns in, so ``ValueTemplate/compile(_:into:)`` can turn it into
/// the exact column inside a YAML scalar.
package struct ExpressionSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A human-readable explanation of what is wrong and, where possible, how to fix it.
    package var message: String
    /// The offset, in Unicode scalars from the start of the parsed text, of the offending character.
    ///
    /// When the text ends too early, the offset is the length of the text.
    package var offset: Int

    /// Creates a syntax error.
    ///
    /// - Parameters:
    ///   - message: A human-readable explanation of what is wrong.
    ///   - offset: The offset, in Unicode scalars from the start of the parsed text, of the
    ///     offending character.
    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message followed by the offset, for logs and test failures.
    package var description: String { "\(message) (at offset \(offset))" }
}
