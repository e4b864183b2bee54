import FlowCore
import Foundation

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
        let location = SourceLocation(path: path, line: 1, column: 1)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            return .failure(FlowError(.unreadableFile, "cannot read \(path): \(reason)", at: location))
        }
        defer { try? handle.close() }
        do {
            // Read one byte past the limit: enough to know it is too large, never the whole of a huge file.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            if data.count > limit {
                return .failure(FlowError(
                    .limitExceeded, "the file is larger than \(limit / 1024) KiB, the limit for a workflow file",
                    at: location))
            }
            return .success(SourceFile(path: path, bytes: [UInt8](data)))
        } catch {
            return .failure(FlowError(
                .unreadableFile, "cannot read \(path): \(error.localizedDescription)", at: location,
                underlyingError: error))
        }
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
