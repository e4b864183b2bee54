/// Values an ``Engine`` looks up by the name a workflow writes: dispatchers and response parsers.
public struct NamedRegistry<Entry: Sendable>: Sendable {
    private var entries: [String: Entry]

    /// Creates a registry.
    /// - Parameter entries: The entries by name.
    public init(_ entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// Registers `entry` under `name`, replacing any other of that name.
    public mutating func register(_ entry: Entry, as name: String) {
        entries[name] = entry
    }

    /// The entry registered under `name`.
    public subscript(name: String) -> Entry? { entries.value(forFewKeys: name) }

    /// The registered names, sorted.
    public var names: [String] { entries.keys.sorted() }
}

/// The dispatchers an ``Engine`` can use, by name.
///
/// A step selects one with `dispatcher:` (or `defaults.dispatcher`); `http` is
/// the default name. The CLI registers `http` and `mock`; an embedding
/// program registers its own.
public typealias DispatcherRegistry = NamedRegistry<any Dispatcher>

/// The response parsers a step may choose with `parse: { use: <name> }`, by name.
///
/// The CLI registers none; an embedding program registers its own (see ``ResponseParser``).
public typealias ResponseParserRegistry = NamedRegistry<any ResponseParser>
