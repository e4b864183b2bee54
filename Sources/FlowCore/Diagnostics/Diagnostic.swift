/// One finding of the loader or compiler: an error or a warning at a place in a workflow file.
///
/// The compiler collects every diagnostic of a file in one pass instead of
/// stopping at the first, so `flowrun lint` can report them all.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious a ``Diagnostic`` is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// The workflow cannot be compiled or run.
        case error
        /// The workflow compiles, but something is probably a mistake.
        case warning

        /// Errors order before warnings.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .error && rhs == .warning
        }
    }

    /// Whether this is an error or a warning.
    public var severity: Severity
    /// The stable kind of the finding.
    public var code: FlowError.Code
    /// A human-readable explanation, including any "did you mean" suggestion.
    public var message: String
    /// Where the finding is.
    public var location: SourceLocation?

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - severity: Whether this is an error or a warning.
    ///   - code: The stable kind of the finding.
    ///   - message: A human-readable explanation.
    ///   - location: Where the finding is.
    public init(_ severity: Severity, _ code: FlowError.Code, _ message: String, at location: SourceLocation?) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
    }

    /// Creates an error diagnostic from a ``FlowError``.
    /// - Parameter error: The error to report.
    public init(_ error: FlowError) {
        self.init(.error, error.code, error.message, at: error.location)
    }

    /// The compiler-style `path:line:col: severity: message [code]` form, as `flowrun lint` prints its first line.
    public var description: String {
        "\(location.map { "\($0): " } ?? "")\(severity.rawValue): \(message) [\(code.name)]"
    }
}

extension Diagnostic {
    /// `diagnostics` in file order: those without a location first, the rest by line and column, ties in the
    /// order found.
    package static func sortedByLocation(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.sorted { lhs, rhs in
            switch (lhs.location, rhs.location) {
            case (let l?, let r?) where l != r: l < r
            case (nil, _?): true
            default: false
            }
        }
    }
}
