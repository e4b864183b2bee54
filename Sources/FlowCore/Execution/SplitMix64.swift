/// A small seeded random number generator (SplitMix64): the same seed gives the same sequence on every machine
/// and run, for orders a user must be able to replay (`flowrun test --seed`) and inputs a benchmark must repeat.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A ``SplitMix64`` seeded from the system's random source at its first draw, so a run that draws nothing makes
/// no system call.
struct LazySeededGenerator: RandomNumberGenerator {
    private var generator: SplitMix64?

    mutating func next() -> UInt64 {
        if generator == nil { generator = SplitMix64(seed: UInt64.random(in: .min ... .max)) }
        return generator!.next()
    }
}
