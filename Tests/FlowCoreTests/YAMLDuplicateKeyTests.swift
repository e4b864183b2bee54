import Testing
@testable import FlowCore

/// Duplicate keys are refused, and a merge brings in only keys the mapping lacks, in mappings of every size:
/// small ones compare keys one by one, large ones through a dictionary (``KeyLines``).
@Suite struct YAMLDuplicateKeyTests {
    /// A mapping with `count` keys `k1`…, one per line from line 1, then `extra` lines.
    private func mapping(_ count: Int, then extra: String = "") -> String {
        (1...count).map { "k\($0): \($0)" }.joined(separator: "\n") + "\n" + extra
    }

    @Test(arguments: [3, KeyLines.linearLimit, KeyLines.linearLimit + 1, 40])
    func aRepeatedKeyIsRefusedNamingItsFirstLine(keys: Int) {
        let yaml = mapping(keys, then: "k2: again\n")
        #expect {
            try YAMLLoader().load(yaml, path: "t.yaml")
        } throws: { error in
            let error = error as? FlowError
            return error?.code == .duplicateKey && error?.message == "duplicate key 'k2' (first defined at line 2)"
                && error?.location?.line == keys + 1
        }
    }

    /// `own` keys written in the mapping win over the merged ones; the base has three more.
    @Test(arguments: [2, KeyLines.linearLimit + 5])
    func aMergeBringsOnlyTheKeysTheMappingLacks(own: Int) throws {
        let base = (1...(own + 3)).map { "  k\($0): base" }.joined(separator: "\n")
        let written = (1...own).map { "  k\($0): own" }.joined(separator: "\n")
        let yaml = "base: &b\n\(base)\nderived:\n  <<: *b\n\(written)\n"
        let root = try YAMLLoader().load(yaml, path: "t.yaml")
        let derived = try #require(root.mapping?.first { $0.key.scalar?.text == "derived" }?.value.mapping)
        #expect(derived.count == own + 3)
        #expect(derived.filter { $0.value.scalar?.text == "own" }.count == own)
        #expect(derived.filter { $0.key.scalar?.text == "k\(own + 1)" }.map { $0.value.scalar?.text } == ["base"])
    }

    @Test func keyLinesKeepsTheFirstLineOnEitherSideOfTheLimit() {
        var lines = KeyLines()
        for number in 1...(KeyLines.linearLimit + 3) { lines.insert("k\(number)", line: number * 10) }
        #expect(lines["k1"] == 10)
        #expect(lines["k\(KeyLines.linearLimit + 3)"] == (KeyLines.linearLimit + 3) * 10)
        #expect(lines["absent"] == nil)
    }
}
