import FlowCore

/// A workflow file read from disk, with its lines for quoting in diagnostics.
struct SourceFile: Sendable {
    /// The path as the user gave it.
    let path: String
    /// The raw contents.
    let bytes: [UInt8]
    /// The offset in ``bytes`` where each line starts, found once, so quoting any line costs the same
    /// however many findings a file has.
    private let lineStarts: [Int]

    /// Creates a source file from its contents.
    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
        lineStarts = starts
    }

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
        guard number >= 1, number <= lineStarts.count else { return nil }
        let start = lineStarts[number - 1]
        var end = number < lineStarts.count ? lineStarts[number] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
