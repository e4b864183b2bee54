import Synchronization

/// The compiled regular expressions of `pattern` keywords, shared by all copies of a validator.
///
/// Patterns come from workflow files, so there are few of them and the cache never evicts. Each distinct
/// pattern is compiled once, under the lock, the first time a value is checked against it; later look-ups
/// only take the lock for a dictionary read. A pattern that does not compile is remembered too, so that
/// every value checked against it is reported the same way without compiling it again.
package final class PatternCache: Sendable {
    /// A pattern after compilation.
    package enum Entry: Sendable {
        /// The expression to search strings with.
        case compiled(SharedRegex)
        /// Why the pattern is not a valid regular expression.
        case invalid(reason: String)
    }

    private let entries = Mutex<[String: Entry]>([:])

    package init() {}

    /// Returns the compiled form of `pattern`, compiling it on first use.
    package func entry(for pattern: String) -> Entry {
        entries.withLock { entries in
            if let entry = entries[pattern] { return entry }
            let entry = Self.compile(pattern)
            entries[pattern] = entry
            return entry
        }
    }

    /// Compiles a pattern with the options that bring Swift's regex syntax closest to ECMA-262 with the `u` flag.
    ///
    /// JSON Schema patterns are ECMA-262 expressions matched against code points, so matching works on Unicode
    /// scalars rather than grapheme clusters, and `\d` and `\w` are ASCII-only as in ECMA-262. Swift already
    /// treats `$` as the end of the input, not "before a final newline", as ECMA-262 does without the `m` flag.
    package static func compile(_ pattern: String) -> Entry {
        do {
            let regex = try Regex(pattern)
                .matchingSemantics(.unicodeScalar)
                .asciiOnlyDigits()
                .asciiOnlyWordCharacters()
            // Matching once lowers the expression to its matching program now, under the cache's lock, rather
            // than on first use in whichever task gets there first.
            _ = "".contains(regex)
            return .compiled(SharedRegex(regex: regex))
        } catch {
            return .invalid(reason: "\(error)")
        }
    }
}

/// A compiled regular expression that tasks share.
///
/// `Regex` is not `Sendable` because its output type need not be, but a regex is an immutable value: the one
/// piece of state it creates later, the program it lowers itself to on first match, is stored with an atomic
/// compare-and-swap in the standard library (`Regex.Program.loweredProgram`), and ``PatternCache/compile(_:)``
/// creates it before the regex is shared at all. Matching allocates its own state per call.
package struct SharedRegex: @unchecked Sendable {
    /// The expression.
    package let regex: Regex<AnyRegexOutput>
}
