import Testing
@testable import FlowCore

/// Run ids and `Idempotency-Key`s: version-4 UUIDs in lower-case hex, the same for the same seed.
struct RandomUUIDTests {
    @Test(arguments: [false, true])
    func aUUIDHasTheVersion4LayoutAndVariant(runID: Bool) {
        for _ in 0..<200 {
            let uuid = Array((runID ? RandomUUID.makeRunID() : RandomUUID.make()).utf8)
            #expect(uuid.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { uuid[$0] == UInt8(ascii: "-") })
            #expect(uuid[14] == UInt8(ascii: "4"))
            #expect([UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(uuid[19]))
            let hex = uuid.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }.map(\.element)
            #expect(hex.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        }
    }

    @Test func theSameSeedGivesTheSameUUIDAndAnotherSeedAnother() {
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        var other = SplitMix64(seed: 8)
        let uuid = RandomUUID.make(using: &first)
        #expect(uuid == RandomUUID.make(using: &second))
        #expect(uuid != RandomUUID.make(using: &other))
        #expect(Set((0..<1000).map { _ in RandomUUID.make() }).count == 1000)
    }

    @Test func runIDsDifferBetweenRunsOfOneEngine() async throws {
        let engine = engine(ScriptedDispatcher { _, _ in json(200, "{}") })
        let compiled = try plan(apiServerByDefault + "steps:\n  - { id: a, request: { method: GET, path: /a } }\n")
        var ids: Set<String> = []
        for _ in 0..<100 { ids.insert(await engine.run(compiled, inputs: [:], environment: [:]).runID) }
        #expect(ids.count == 100)
    }
}
