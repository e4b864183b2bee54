/// A number of bytes, written and read the way people write sizes: `10 MiB`, `512KiB`, `1000 bytes`.
///
/// ```swift
/// ByteCount(8 << 20).description         // "8 MiB"
/// ByteCount(1000).description            // "1000 bytes"
/// ByteCount(parsing: "50MiB")?.bytes     // 52428800
/// ByteCount(parsing: "2 MB")?.bytes      // 2000000
/// ```
package struct ByteCount: Sendable, Hashable, CustomStringConvertible {
    /// The number of bytes.
    package var bytes: Int

    /// Creates a count of `bytes`.
    package init(_ bytes: Int) {
        self.bytes = bytes
    }

    /// The units a size may be written in, with their factors: binary (`KiB`, `MiB`, `GiB`) and decimal
    /// (`kB`, `MB`, `GB`); case does not matter, and `K`, `M`, `G` are the binary units.
    private static let units: [(suffix: String, factor: Int)] = [
        ("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30),
        ("kb", 1_000), ("mb", 1_000_000), ("gb", 1_000_000_000),
        ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30),
        ("bytes", 1), ("b", 1), ("", 1),
    ]

    /// Reads a size such as `50MiB`, `512 KiB`, `2MB` or `1048576` (bytes).
    /// - Parameter text: The size.
    /// - Returns: `nil` when `text` is not a whole, positive number of a known unit, or overflows.
    package init?(parsing text: String) {
        let trimmed = text.filter { $0 != " " }.lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let suffix = String(trimmed.dropFirst(digits.count))
        guard !digits.isEmpty, let number = Int(digits), number > 0,
            let factor = Self.units.first(where: { $0.suffix == suffix })?.factor
        else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: factor)
        guard !overflow else { return nil }
        self.bytes = product
    }

    /// The size in the largest binary unit that divides it (`8 MiB`, `1536 KiB`), else in bytes.
    package var description: String {
        for (suffix, factor) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor) \(suffix)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
