import ArgumentParser

/// An option value that is one of a fixed set of words: an enum whose raw values are what the user types.
///
/// ArgumentParser's default implementations of the help-screen requirements work on any type: they
/// describe values with `String(describing:)` and list them through a key path, and each of those costs the
/// runtime a scan of every protocol conformance record in the binary (about 13,000) per type, at every start
/// of the process, before any command runs. The words are the raw values, so they are read as such.
protocol CommandLineChoice: CaseIterable, ExpressibleByArgument, RawRepresentable<String> {}

extension CommandLineChoice {
    /// The raw value, as the default is shown in `--help`.
    public var defaultValueDescription: String { rawValue }

    /// Every raw value, in declaration order, as `--help` and shell completion list them.
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }

    /// No value has a description of its own: each is shown as its word.
    public static var allValueDescriptions: [String: String] { [:] }

    /// Completion offers the words.
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
