extension Dictionary where Key == String {
    /// The value for `key`, found by comparing it with each key while the dictionary has few of them, and by
    /// hashing beyond.
    ///
    /// Hashing a string runs its bytes through SipHash, some three hundred instructions even for `id`; comparing
    /// two short strings is a comparison of two words, so a linear search of a handful of keys costs a fraction
    /// of one lookup. Most JSON objects a workflow reads (a response body, a step's outputs) have a few members,
    /// and the validator and JSON pointers look members up by name in every one of them. Keys compare as the
    /// dictionary compares them (`String.==`), so the answer is the subscript's.
    @inline(__always)
    func value(forFewKeys key: String) -> Value? {
        guard count <= Self.fewKeys else { return self[key] }
        var index = startIndex
        while index != endIndex {
            if keys[index] == key { return values[index] }
            index = self.index(after: index)
        }
        return nil
    }

    /// Up to how many keys ``value(forFewKeys:)`` compares instead of hashing.
    static var fewKeys: Int { 8 }
}
