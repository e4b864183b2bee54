import FlowCore

/// A workflow file read from disk, with its lines for quoting in diagnostics.
struct SourceFile: Sendable {
    /// The path as the user gave it.
    var path: String
    /// The raw contents.
    var bytes: [UInt8]

    /// Reads a file, refusing one larger than `limit` without reading it.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - limit: The largest size, in bytes, worth reading.
    /// - Returns: The file, or the error to report for it.
    static func read(_ path: String, limit: Int) -> Result<SourceFile, FlowError> {
        FileReader.read(path, limit: limit).map { SourceFile(path: path, bytes: $0) }
    }

    /// The text of the one-based `line`, without its line break, if the file has it.
    func line(_ number: Int) -> String? {
        guard number >= 1 else { return nil }
        var current = 1
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if current == number {
                return String(decoding: bytes[start..<index], as: UTF8.self).trimmingTrailingCR
            }
            current += 1
            start = index + 1
        }
        return current == number && start <= bytes.count
            ? String(decoding: bytes[start...], as: UTF8.self).trimmingTrailingCR : nil
    }
}

extension String {
    fileprivate var trimmingTrailingCR: String { hasSuffix("\r") ? String(dropLast()) : self }
}
