import ArgumentParser
import FlowCore
import FlowTesting
import Foundation

/// Reads the stub files (`*.mock.yaml`) a command answers requests from, or explains on standard error why it
/// cannot.
///
/// `run --mock` and `mock serve` load stubs the same way, so a bad stub file reads the same in both:
/// `flowrun run: bank.mock.yaml:4:5: error: …`, and exit status 2.
struct StubFileLoader {
    /// The subcommand's name, which prefixes messages (`flowrun run: ...`).
    var commandName: String

    /// Reads every file and joins their stubs, in the order of `paths`.
    ///
    /// - Parameter paths: The stub files' paths, as the user gave them.
    /// - Returns: The stubs of all the files, each file's in its order.
    /// - Throws: `ExitCode(2)` after printing, for each file that cannot be read or has errors, its first error
    ///   with its file, line and column.
    func load(_ paths: [String]) throws -> MockStubs {
        var stubs: [MockStub] = []
        var failed = false
        for path in paths {
            switch WorkflowTestFile.readMockFile(path) {
            case .success(let file):
                stubs += file.stubs
            case .failure(let error):
                FileHandle.standardError.write(Data("flowrun \(commandName): \(error.description)\n".utf8))
                failed = true
            }
        }
        if failed { throw ExitCode(2) }
        return MockStubs(stubs: stubs)
    }
}
