import Testing
@testable import FlowCore

/// The eight-bytes-at-a-time scan behind URL redaction's shortcut finds what a byte-by-byte scan finds, wherever
/// in a word the byte falls.
@Suite struct PlainURLScanTests {
    /// The byte-by-byte answer: `nil` for a non-ASCII byte or an `@`, else the first `?` or the count.
    private func expected(_ bytes: [UInt8]) -> Int? {
        if bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "@") }) { return nil }
        return bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
    }

    private func scanned(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { ASCIISearch.queryMarkOfPlainURL($0) }
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 31, 40])
    func everyPositionOfEveryMarkIsFound(length: Int) {
        let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(scanned(plain) == length)
        for position in 0..<length {
            for byte in [UInt8(ascii: "?"), UInt8(ascii: "@"), 0x80, 0xC3, 0xFF, UInt8(ascii: ">"), UInt8(ascii: "A")] {
                var bytes = plain
                bytes[position] = byte
                #expect(scanned(bytes) == expected(bytes), "byte \(byte) at \(position) of \(length)")
            }
        }
    }

    @Test func theFirstQueryMarkCountsAndALaterAtStillRefuses() {
        let url = Array("https://api.example.com/v1/items?page=2&next=?x".utf8)
        #expect(scanned(url) == url.firstIndex(of: UInt8(ascii: "?")))
        let withUser = Array("https://api.example.com/v1/items?q=1&mail=a@b".utf8)
        #expect(scanned(withUser) == nil)
        #expect(URLRedaction.redact("https://u:p@api.example.com/x") == "https://***@api.example.com/x")
        #expect(URLRedaction.redact("https://api.example.com/x?api_key=k1&page=2") == "https://api.example.com/x?api_key=***&page=2")
        #expect(URLRedaction.hasNothingToRedact("https://api.example.com/v1/items/item-42?page=2"))
    }
}
