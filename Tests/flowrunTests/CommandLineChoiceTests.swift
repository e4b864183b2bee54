import Testing

/// Options whose value is one of a fixed set of words list those words, and their default, in `--help`, and
/// shell completion offers them: flowrun describes them itself instead of through ArgumentParser's reflection.
@Suite struct CommandLineChoiceTests {
    /// `--help` of `command`, its lines joined, so a list the help wraps reads as one line.
    private func help(_ command: [String]) async throws -> String {
        let outcome = try await FlowRunProcess.run(command + ["--help"])
        #expect(outcome.status == 0)
        return outcome.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func helpListsEveryWordAndTheDefault() async throws {
        let run = try await help(["run"])
        #expect(run.contains("(values: off, warn, error; default: warn)"))
        #expect(run.contains("(values: human, json, junit, github; default: human)"))
        #expect(run.contains("(values: trace, debug, info, notice, warning, error, critical; default: warning)"))
        let lint = try await help(["lint"])
        #expect(lint.contains("(values: human, json, github, sarif, junit; default: human)"))
        let graph = try await help(["graph"])
        #expect(graph.contains("(values: mermaid, dot; default: mermaid)"))
    }

    @Test func shellCompletionOffersTheWords() async throws {
        let outcome = try await FlowRunProcess.run(["--generate-completion-script", "bash"])
        #expect(outcome.status == 0)
        func words(_ list: [String]) -> String { list.map { "'\($0)'" }.joined(separator: "$'\\n'") }
        #expect(outcome.stdout.contains(words(["human", "json", "junit", "github"])))
        #expect(outcome.stdout.contains(words(["off", "warn", "error"])))
        #expect(outcome.stdout.contains(words(["trace", "debug", "info", "notice", "warning", "error", "critical"])))
    }
}
