/// Random UUIDs (version 4, RFC 9562), lower-case: `Idempotency-Key` header values and run ids.
enum RandomUUID {
    /// A UUID from the system's random source.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    /// A UUID drawn from `generator`: the same seed gives the same UUID, so a run replayed from its events
    /// sends the `Idempotency-Key` it sent before.
    static func make(using generator: inout some RandomNumberGenerator) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // Version 4 (random), per RFC 9562.
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // The RFC 9562 variant.
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}
