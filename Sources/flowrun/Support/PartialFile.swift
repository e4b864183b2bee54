import Foundation

/// A report file written whole or not at all: written under a temporary name beside its destination
/// (`.run.har.partial-4711` for `run.har`) and renamed into place only when complete, so that a crash, a
/// kill or a full disk never leaves a truncated file that looks like a finished one.
///
/// The temporary file is created at once, so a destination that cannot be written (a missing folder, no
/// permission, a folder of that name) fails before the run sends its first request.
struct PartialFile: Sendable {
    /// The destination.
    let path: String
    /// Where the content is written until it is complete, in the destination's folder so the rename is atomic.
    let partialPath: String

    /// Why a destination cannot be written.
    struct Unwritable: Error, CustomStringConvertible {
        /// The reason, as the system says it (`Permission denied`), or `the folder /tmp/out does not exist`.
        var reason: String
        var description: String { reason }
    }

    /// Creates the temporary file beside `path`.
    /// - Throws: ``Unwritable`` when `path` is a folder or the temporary file cannot be created.
    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        partialPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)").path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw Unwritable(reason: "it is a folder")
        }
        let descriptor = open(partialPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            let failure = errno
            // The system says "No such file or directory" of the file that was to be created: name the folder, as
            // the path gives it (`out` for `out/plan.dot`).
            let written = (path as NSString).deletingLastPathComponent
            let folder = written.isEmpty ? "." : written
            if failure == ENOENT, !FileManager.default.fileExists(atPath: folder) {
                throw Unwritable(reason: "the folder \(folder) does not exist")
            }
            throw Unwritable(reason: String(cString: strerror(failure)))
        }
        close(descriptor)
    }

    /// The temporary file, open for writing from its start.
    func openForWriting() throws -> FileHandle {
        try FileHandle(forWritingTo: URL(fileURLWithPath: partialPath))
    }

    /// Writes `data` to the temporary file, flushes it to disk and moves it into place; on failure removes it.
    func write(_ data: Data) throws {
        do {
            let handle = try openForWriting()
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            discard()
            throw error
        }
        try commit()
    }

    /// Moves the complete temporary file into place, replacing the destination; on failure removes it.
    func commit() throws {
        guard rename(partialPath, path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            discard()
            throw error
        }
    }

    /// Removes the temporary file: nothing is written.
    func discard() {
        try? FileManager.default.removeItem(atPath: partialPath)
    }
}
