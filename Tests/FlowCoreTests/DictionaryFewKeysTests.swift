import Testing
@testable import FlowCore

/// A member looked up by comparing keys answers as the dictionary's subscript does, on both sides of the
/// number of keys where it starts hashing.
@Suite struct DictionaryFewKeysTests {
    @Test(arguments: [0, 1, 2, Dictionary<String, Int>.fewKeys, Dictionary<String, Int>.fewKeys + 1, 40])
    func answersAsTheSubscript(count: Int) {
        let members = Dictionary(uniqueKeysWithValues: (0..<count).map { ("member\($0)", $0) })
        for key in members.keys {
            #expect(members.value(forFewKeys: key) == members[key])
        }
        #expect(members.value(forFewKeys: "absent") == nil)
        #expect(members.value(forFewKeys: "") == nil)
    }

    /// Keys compare as Swift strings do: canonically equivalent spellings are the same key.
    @Test func canonicallyEquivalentKeysAreTheSameKey() {
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let members = [precomposed: 1, "id": 2]
        #expect(members.value(forFewKeys: decomposed) == 1)
        #expect(members[decomposed] == 1)
        #expect(members.value(forFewKeys: "ID") == nil)
    }
}
