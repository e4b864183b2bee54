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
    struct Unwritable: LocalizedError, CustomStringConvertible {
        /// The reason, as the system says it (`Permission denied`), or `the folder /tmp/out does not exist`.
        var reason: String
        var description: String { reason }
        var errorDescription: String? { reason }
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
            throw unwritable(errno: errno)
        }
        close(descriptor)
    }

    /// Why writing or moving the temporary file failed with `error`: its folder is gone, or the system's reason
    /// for the failure under `error`, rather than Foundation's "The operation could not be completed".
    func unwritable(_ error: any Error) -> Unwritable {
        if let error = error as? Unwritable { return error }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        let code = [error as NSError, underlying].lazy.compactMap { $0 }.first { $0.domain == NSPOSIXErrorDomain }?.code
        if let code { return unwritable(errno: Int32(code)) }
        return missingFolder ?? Unwritable(reason: error.localizedDescription)
    }

    /// Why a system call on the temporary file failed with `failure`.
    private func unwritable(errno failure: Int32) -> Unwritable {
        // The system says "No such file or directory" of the file, not of the folder that is missing: name it.
        if failure == ENOENT, let missingFolder { return missingFolder }
        return Unwritable(reason: String(cString: strerror(failure)))
    }

    /// `the folder out does not exist` when the destination's folder, as the path gives it (`out` for
    /// `out/plan.dot`), does not exist; `nil` when it does.
    private var missingFolder: Unwritable? {
        let written = (path as NSString).deletingLastPathComponent
        let folder = written.isEmpty ? "." : written
        return FileManager.default.fileExists(atPath: folder) ? nil : Unwritable(reason: "the folder \(folder) does not exist")
    }

    /// The temporary file, open for writing from its start.
    func openForWriting() throws -> FileHandle {
        try FileHandle(forWritingTo: URL(fileURLWithPath: partialPath))
    }

    /// Writes `data` to the temporary file, flushes it to disk and moves it into place; on failure removes it.
    /// - Throws: ``Unwritable``.
    func write(_ data: Data) throws(Unwritable) {
        do {
            let handle = try openForWriting()
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            discard()
            throw unwritable(error)
        }
        try commit()
    }

    /// Moves the complete temporary file into place, replacing the destination; on failure removes it.
    /// - Throws: ``Unwritable``.
    func commit() throws(Unwritable) {
        guard rename(partialPath, path) == 0 else {
            let failure = errno
            discard()
            throw unwritable(errno: failure)
        }
    }

    /// Removes the temporary file: nothing is written.
    func discard() {
        try? FileManager.default.removeItem(atPath: partialPath)
    }
}
