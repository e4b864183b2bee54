import Synchronization

/// Random UUIDs (version 4, RFC 9562), lower-case: `Idempotency-Key` header values and run ids.
enum RandomUUID {
    /// A UUID from the system's random source.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    /// A UUID for a run id: drawn from a generator the process seeds once from the system's random source, so
    /// that a run costs no system call for its id. Run ids must differ, not be unpredictable: they are in every
    /// log line and report.
    static func makeRunID() -> String {
        runIDs.withLock { generator in make(using: &generator) }
    }

    private static let runIDs = Mutex(SplitMix64(seed: UInt64.random(in: .min ... .max)))

    /// A UUID drawn from `generator`: the same seed gives the same UUID, so a run replayed from its events
    /// sends the `Idempotency-Key` it sent before.
    ///
    /// It takes two 64-bit draws (two system calls with the system's generator, not sixteen) and writes the
    /// hex digits itself: a run makes one for its id and one per step run with `idempotencyKey`.
    static func make(using generator: inout some RandomNumberGenerator) -> String {
        var high = generator.next()
        var low = generator.next()
        high = (high & ~0xF000) | 0x4000  // Version 4 (random), per RFC 9562: the high nibble of byte 6.
        low = (low & ~(0xC0 << 56)) | (0x80 << 56)  // The RFC 9562 variant: the top bits of byte 8.
        // Written straight into the string's storage: one allocation for the 36 characters.
        return String(unsafeUninitializedCapacity: 36) { text in
            let digits: StaticString = "0123456789abcdef"
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = index < 8 ? high : low
                let byte = UInt8(truncatingIfNeeded: word >> (56 - 8 * (index % 8)))
                digits.withUTF8Buffer { hex in
                    text[position] = hex[Int(byte >> 4)]
                    text[position + 1] = hex[Int(byte & 0x0F)]
                }
                position += 2
            }
            return position
        }
    }

}
