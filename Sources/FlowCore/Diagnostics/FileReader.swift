import Foundation

/// Reads the files flowrun is given — workflows, stub files, test files, inputs and `.env` files — refusing
/// one larger than a limit without reading it.
public enum FileReader {
    /// The size limit of every file flowrun reads: 8 MiB, the YAML loader's.
    public static let defaultLimit = YAMLLoader.Limits.default.maxFileSize

    /// Reads the file at `path`, at most `limit` bytes of it.
    /// - Parameters:
    ///   - path: The file's path, as the user gave it; errors name it.
    ///   - limit: The largest size, in bytes, worth reading.
    ///   - kind: What the file is, for the message of a file over the limit: "a workflow file", "an inputs file".
    /// - Returns: The bytes, or an error located at the file's first line: ``FlowError/Code/unreadableFile`` for a
    ///   missing or unreadable file, ``FlowError/Code/limitExceeded`` for one larger than `limit`.
    public static func read(_ path: String, limit: Int = defaultLimit, kind: String = "a workflow file")
        -> Result<[UInt8], FlowError>
    {
        let location = SourceLocation(path: path, line: 1, column: 1)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            return .failure(FlowError(.unreadableFile, "cannot read \(path): \(reason)", at: location))
        }
        defer { try? handle.close() }
        do {
            // Read one byte past the limit: enough to know it is too large, never the whole of a huge file.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                return .failure(FlowError(
                    .limitExceeded, "the file is larger than \(ByteCount(limit)), the limit for \(kind)",
                    at: location))
            }
            return .success([UInt8](data))
        } catch {
            return .failure(FlowError(
                .unreadableFile, "cannot read \(path): \(error.localizedDescription)", at: location,
                underlyingError: error))
        }
    }
}
