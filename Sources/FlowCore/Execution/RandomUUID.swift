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
        let high = generator.next()
        let low = generator.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // Version 4 (random), per RFC 9562.
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // The RFC 9562 variant.
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
