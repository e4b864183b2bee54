/// Why a byte sequence is not a JSON text, and where the problem is.
///
/// ``JSONValue/init(parsing:maxDepth:)`` throws it. The position is given two
/// ways: ``offset`` for programs (a zero-based byte offset into the input) and
/// ``line`` and ``column`` for people.
///
/// ```swift
/// do {
///     _ = try JSONValue(parsing: #"{"a": 1,}"#.utf8)
/// } catch {
///     print(error)  // line 1, column 9: trailing comma in an object
/// }
/// ```
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, such as "expected ',' or '}' after an object member".
    public var message: String
    /// The zero-based byte offset of the problem in the input.
    public var offset: Int
    /// The one-based line of the problem; lines end at `\n`.
    public var line: Int
    /// The one-based column of the problem, counted in Unicode scalars.
    public var column: Int

    /// Creates an error.
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - offset: The zero-based byte offset of the problem.
    ///   - line: The one-based line.
    ///   - column: The one-based column, in Unicode scalars.
    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The `line L, column C: message` form.
    public var description: String { "line \(line), column \(column): \(message)" }
}
