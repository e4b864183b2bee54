import FlowCore
import FlowTesting
import Foundation

/// `flowrun run --record FILE` and `--record-test FILE`: records the run's exchanges and, when it ends, writes
/// them as a stub file that replays them and a test file whose case replays the run.
///
/// Both files are created (under a temporary name beside each) before the first request, so a path that
/// cannot be written fails the run before anything is sent, and are written whole and renamed into place when
/// the run ends, whether it succeeded, failed or was interrupted.
struct RunRecording {
    /// Hears every exchange of the run.
    let recorder = StubRecorder()
    private let stubFile: PartialFile?
    private let testFile: PartialFile?
    /// The workflow file that runs.
    private let workflow: String

    /// A path that cannot be written, named with the option that gave it.
    struct Unwritable: Error, CustomStringConvertible {
        var description: String
    }

    /// Creates the temporary files; `nil` when neither option is given.
    init?(stubFile: String?, testFile: String?, workflow: String) throws(Unwritable) {
        guard stubFile != nil || testFile != nil else { return nil }
        self.workflow = workflow
        func create(_ path: String?, _ option: String) throws(Unwritable) -> PartialFile? {
            guard let path else { return nil }
            do {
                return try PartialFile(path: path)
            } catch {
                throw Unwritable(description: "\(option): cannot write \(path): \(error)")
            }
        }
        self.stubFile = try create(stubFile, "--record")
        do {
            self.testFile = try create(testFile, "--record-test")
        } catch {
            self.stubFile?.discard()
            throw error
        }
    }

    /// Writes the files of the run that `report` describes.
    /// - Parameters:
    ///   - plan: The plan that ran.
    ///   - report: Its report.
    ///   - inputs: The run's inputs.
    ///   - environment: The declared environment variables' values.
    /// - Returns: A message per file that could not be written.
    func write(plan: Plan, report: RunReport, inputs: [String: JSONValue], environment: [String: String]) -> [String] {
        let calls = recorder.calls()
        let stubs = recorder.stubs(for: plan, answering: calls)
        let outcome = report.succeeded ? "succeeded" : "failed"
        func origin(_ option: String) -> String {
            "Recorded by flowrun run \(option) from a run of \(Self.name(workflow)) (run \(report.runID), \(outcome))."
        }
        var failures: [String] = []
        if let stubFile {
            let comments = [origin("--record"), "Replay it offline: flowrun run \(workflow) --mock \(stubFile.path)"]
            do {
                try stubFile.write(Data(stubs.yaml(comments: comments).utf8))
            } catch {
                failures.append("cannot write the recording to \(stubFile.path): \(error.localizedDescription)")
            }
        }
        if let testFile {
            let test = RecordedTestFile(
                workflow: Self.relativePath(of: workflow, from: testFile.path),
                stubs: stubFile.map { .file(Self.relativePath(of: $0.path, from: testFile.path)) } ?? .inline(stubs),
                environment: environment, inputs: inputs, report: report, calls: calls)
            let comments = [origin("--record-test"), "Run it: flowrun test \(testFile.path)"]
            do {
                try testFile.write(Data(test.yaml(comments: comments).utf8))
            } catch {
                failures.append("cannot write the test file to \(testFile.path): \(error.localizedDescription)")
            }
        }
        return failures
    }

    /// Removes the temporary files: nothing is written.
    func discard() {
        stubFile?.discard()
        testFile?.discard()
    }

    private static func name(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    /// `path` relative to the folder of `file`, as a test file names its workflow and mock.
    static func relativePath(of path: String, from file: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().pathComponents
        let shared = zip(target, base).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - shared) + target.dropFirst(shared)
        return parts.joined(separator: "/")
    }
}
