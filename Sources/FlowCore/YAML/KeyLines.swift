/// The line where each key of a mapping was first written, as the YAML tree is built: for duplicate keys and
/// for which of a merge's keys the mapping already has.
///
/// Most mappings of a workflow have a handful of keys, where comparing the key with each one written so far
/// costs less than hashing it into a dictionary (and allocating one per mapping); a mapping that grows past
/// ``linearLimit`` keys gets a dictionary, so a large one still costs linear time.
struct KeyLines {
    /// The most keys kept in a list.
    static let linearLimit = 12

    private var list: [(key: String, line: Int)] = []
    private var index: [String: Int]?

    /// The line where `key` was first written, if it was.
    subscript(key: String) -> Int? {
        if let index { return index[key] }
        return list.first { $0.key == key }?.line
    }

    /// Notes that `key`, not written before, is written at `line`.
    mutating func insert(_ key: String, line: Int) {
        if index != nil {
            index![key] = line
            return
        }
        list.append((key, line))
        if list.count > Self.linearLimit {
            index = Dictionary(list.lazy.map { ($0.key, $0.line) }, uniquingKeysWith: { first, _ in first })
            list = []
        }
    }
}
