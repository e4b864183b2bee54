import ArgumentParser
import Foundation

/// Expands the paths given on the command line into the workflow (or test) files to process.
///
/// A file is taken as given. A folder, or a symbolic link to one, is searched recursively for `*.yaml`
/// and `*.yml` files, skipping hidden entries (`.git`, `.build`, `.build-linux`), test files
/// (`*.test.yaml`), mock stub files (`*.mock.yaml`) and OpenAPI documents (`*.openapi.yaml`), which have formats of
/// their own; `flowrun test` looks for the test files instead (``accepts``).
/// Entries that match an `--exclude` glob are skipped too.
struct WorkflowFileFinder {
    /// Which file names in a folder to take; workflow files by default. A file named on the command line is
    /// always taken.
    var accepts: (String) -> Bool = Self.isWorkflowFileName
    /// Globs of entries to skip inside folders (`Tests/*`, `*/fixtures`, `legacy-*.yaml`), matched with
    /// `fnmatch` against the path relative to the folder searched and against the entry's name; `*` also
    /// matches `/`. A folder that matches is skipped with everything in it.
    var excludes: [String] = []

    /// A path that could not be used.
    struct Failure: Error, CustomStringConvertible {
        /// Why, naming the path.
        var description: String
    }

    /// The files under `paths`, in a stable order: arguments in the order given, folder contents sorted.
    /// - Parameter paths: Files and folders.
    /// - Returns: The workflow files.
    /// - Throws: ``Failure`` for a path that does not exist.
    func files(in paths: [String]) throws(Failure) -> [String] {
        var result: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Failure(description: "\(path): no such file or folder")
            }
            guard isDirectory.boolValue else {
                result.append(path)
                continue
            }
            // FileManager lists nothing under a symbolic link to a folder, so a link given on the command line
            // (`workflows -> ../shared/workflows`) is listed through its target, as `find -H` and `ls` do; the
            // files found keep the path as given.
            let listed = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard let enumerator = manager.enumerator(atPath: listed) else {
                throw Failure(description: "\(path): cannot list the folder")
            }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") || isExcluded(relative, name: name) {
                    enumerator.skipDescendants()
                    continue
                }
                if accepts(name) {
                    found.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
                }
            }
            result.append(contentsOf: found.sorted())
        }
        return result
    }

    /// The help of the `--exclude` option of `lint` and `test`.
    static let excludeHelp = ArgumentHelp(
        "Skip entries of the folders searched that match this glob (repeatable).",
        discussion: "Matched against the path relative to the folder and against the name; '*' also "
            + "matches '/'. Hidden entries (.git, .build) are always skipped. Example: --exclude 'Tests/*'",
        valueName: "glob")

    /// Whether an entry matches one of ``excludes``, by its path relative to the searched folder or its name.
    func isExcluded(_ relative: String, name: String) -> Bool {
        excludes.contains { pattern in fnmatch(pattern, relative, 0) == 0 || fnmatch(pattern, name, 0) == 0 }
    }

    /// Whether a file name looks like a workflow test file: `*.test.yaml` or `*.test.yml`.
    static func isTestFileName(_ name: String) -> Bool {
        name.hasSuffix(".test.yaml") || name.hasSuffix(".test.yml")
    }

    /// Whether a file name looks like a workflow file.
    static func isWorkflowFileName(_ name: String) -> Bool {
        (name.hasSuffix(".yaml") || name.hasSuffix(".yml"))
            && !name.hasSuffix(".test.yaml") && !name.hasSuffix(".test.yml")
            && !name.hasSuffix(".mock.yaml") && !name.hasSuffix(".mock.yml")
            && !name.hasSuffix(".openapi.yaml") && !name.hasSuffix(".openapi.yml")
    }

    /// The files under `paths`, or, after saying why on standard error as `<command>: …`, exit status 2 when a
    /// path does not exist or no file is found.
    /// - Parameters:
    ///   - paths: Files and folders from the command line.
    ///   - command: The command's name for messages, such as `flowrun lint`.
    ///   - kind: What was looked for, for the "none found" message: `workflow files (*.yaml, *.yml)`.
    /// - Returns: The files, never empty.
    /// - Throws: `ExitCode(2)`.
    func filesOrExit(in paths: [String], command: String, kind: String) throws -> [String] {
        let files: [String]
        do {
            files = try self.files(in: paths)
        } catch {
            FileHandle.standardError.write(Data("\(command): \(error)\n".utf8))
            throw ExitCode(2)
        }
        if files.isEmpty {
            FileHandle.standardError.write(Data("\(command): no \(kind) found\n".utf8))
            throw ExitCode(2)
        }
        return files
    }
}
