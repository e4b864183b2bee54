/// The header fields of a request or response: ordered, names compared case-insensitively.
public struct HeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field.
    public struct Field: Sendable, Hashable, Codable {
        /// The name as written.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates header fields.
    /// - Parameter fields: The fields in order.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Creates header fields from literal pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name` (case-insensitively).
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// All values of the fields named `name`.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Replaces every field named `name` by one field with `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    /// Makes room for `count` fields, so adding up to that many allocates nothing.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Adds a field, keeping existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        // Checked first: `removeAll` copies a shared buffer even when it removes nothing.
        guard fields.contains(where: { Self.namesMatch($0.name, name) }) else { return }
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Whether two field names are equal ignoring case: `a.lowercased() == b.lowercased()`.
    ///
    /// Names are nearly always ASCII, and for ASCII text that comparison is a byte comparison with
    /// `A`–`Z` folded, which costs a fraction of `lowercased()`. The bytes are compared up to the
    /// first non-ASCII one, which sends the pair the long way. A difference in ASCII bytes before
    /// that is final: lower-casing maps each scalar on its own, and no later scalar can combine
    /// with or reorder around an ASCII one, so the lower-cased strings differ there too.
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        // Spelled alike, as a name the engine reads is mostly spelled by whoever set it: for short names a
        // comparison of two words.
        if a == b { return true }
        let answer: Bool?? = a.utf8.withContiguousStorageIfAvailable { a -> Bool? in
            b.utf8.withContiguousStorageIfAvailable { b -> Bool? in
                let common = Swift.min(a.count, b.count)
                for index in 0..<common {
                    let (x, y) = (a[index], b[index])
                    if x | y >= 0x80 { return nil }
                    if x != y && asciiLowercased(x) != asciiLowercased(y) { return false }
                }
                if a.count == b.count { return true }
                let rest = a.count > b.count ? a[common...] : b[common...]
                return rest.contains { $0 >= 0x80 } ? nil : false
            } ?? nil
        }
        if case .some(.some(let answer)) = answer { return answer }
        return a.lowercased() == b.lowercased()
    }

    /// An ASCII byte with `A`–`Z` lower-cased.
    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

/// Header fields encode as the array of their fields, in order.
extension HeaderFields: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([Field].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fields)
    }
}
