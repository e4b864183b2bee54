/// A position in a workflow file: the file's path and a one-based line and column.
///
/// Every YAML node, and therefore every model value decoded from one, keeps the
/// location where it starts, so diagnostics and run-time errors can point at the
/// exact place in the file the user wrote.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The path of the file as the user named it.
    public var path: String
    /// The one-based line number.
    public var line: Int
    /// The one-based column number, counted in Unicode scalars.
    public var column: Int

    /// Creates a location.
    /// - Parameters:
    ///   - path: The path of the file as the user named it.
    ///   - line: The one-based line number.
    ///   - column: The one-based column number.
    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// Returns this location moved right by `offset` columns on the same line.
    ///
    /// Used to point inside a scalar, for example at the bad character of a
    /// runtime expression.
    /// - Parameter offset: The number of columns to move.
    /// - Returns: The shifted location.
    public func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(path: path, line: line, column: column + offset)
    }

    /// The compiler-style `path:line:col` form.
    public var description: String { "\(path):\(line):\(column)" }

    /// Orders locations by path, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}
