import Foundation
import Testing

/// Issue 9 items 16 and 17: human lint output is one visible line per finding, source lines are clipped, and
/// the findings printed per file are capped.
struct LintOutputTests {
    @Test func controlCharactersAreEscapedAndEachFindingIsOneLine() async throws {
        let folder = try TemporaryFolder()
        // An ESC and a NUL in an unknown key; a multi-line value quoted in a message.
        try folder.write("ctl.yaml", "flowrun: 1\nsteps:\n  - { id: a, \"x\\u001B[31my\\u0000\": 1, request: { method: GET, path: \"/a\" } }\nname: \"two\\nlines\"\nservers: { \"a\\nb\": https://x.test }\n")
        let outcome = try await FlowRunProcess.run(["lint", "ctl.yaml"], in: folder.url)
        #expect(!outcome.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F },
                "\(outcome.stdout.debugDescription)")
        #expect(outcome.stdout.contains(#"x\u{1B}[31my\u{0}"#), "\(outcome.stdout)")
        // Every finding line starts with the file's name: no message spills onto a line of its own.
        let lines = outcome.stdout.split(separator: "\n")
        let findings = lines.filter { $0.contains(": error: ") || $0.contains(": warning: ") }
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0.hasPrefix("ctl.yaml:") }, "\(outcome.stdout)")
    }

    @Test func rawControlBytesInAnEchoedLineAreEscaped() async throws {
        let folder = try TemporaryFolder()
        try folder.write("raw.yaml", "flowrun: 1\nname: a\u{1B}[2Jb\u{7}\nsteps: []\n")
        let outcome = try await FlowRunProcess.run(["lint", "raw.yaml"], in: folder.url)
        #expect(outcome.status != 0)
        #expect(!outcome.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
                "\(outcome.stdout.debugDescription)")
        #expect(outcome.stdout.contains(#"\u{1B}[2J"#), "\(outcome.stdout)")
    }

    @Test func aLongSourceLineIsClippedAroundTheCaret() async throws {
        let folder = try TemporaryFolder()
        let filler = String(repeating: "x", count: 40_000)
        try folder.write("long.yaml", """
            flowrun: 1
            description: "\(filler)"
            steps: [{ id: a, request: { method: GET, path: /a }, sever: api }]
            name: { \(String(repeating: "k", count: 100)): 1, "\(filler)": 2, bad: 3 }
            """)
        let outcome = try await FlowRunProcess.run(["lint", "long.yaml", "--max-findings", "0"], in: folder.url)
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 4 + 160 + 2 || $0.contains(": error: ") },
                "\(lines.map(\.count))")
        // Each caret is under the column its finding names.
        for (index, line) in lines.enumerated() where line.contains(": error: ") && index + 2 < lines.count {
            let echoed = lines[index + 1]
            let caret = lines[index + 2]
            guard let caretColumn = caret.firstIndex(of: "^") else { continue }
            let offset = caret.distance(from: caret.startIndex, to: caretColumn)
            #expect(offset < echoed.count, "caret past the end of the echoed line")
        }
    }

    @Test func findingsPerFileAreCappedWithACountOfTheRest() async throws {
        let folder = try TemporaryFolder()
        let types = (0..<250).map { "  T\($0): { type: object }" }.joined(separator: "\n")
        try folder.write("many.yaml", """
            flowrun: 1
            servers: { api: https://api.test }
            types:
            \(types)
            steps: [{ id: a, server: api, request: { method: GET, path: /a } }]
            """)
        let capped = try await FlowRunProcess.run(["lint", "many.yaml"], in: folder.url)
        #expect(capped.stdout.components(separatedBy: "warning: type").count - 1 == 100)
        #expect(capped.stdout.contains("many.yaml: 150 more findings not shown (--max-findings 0 shows all)"))
        #expect(capped.stdout.contains("1 file checked: 0 errors, 250 warnings"))

        let five = try await FlowRunProcess.run(["lint", "many.yaml", "--max-findings", "5"], in: folder.url)
        #expect(five.stdout.components(separatedBy: "warning: type").count - 1 == 5)

        let all = try await FlowRunProcess.run(["lint", "many.yaml", "--max-findings", "0"], in: folder.url)
        #expect(all.stdout.components(separatedBy: "warning: type").count - 1 == 250)

        let json = try await FlowRunProcess.run(["lint", "many.yaml", "--format", "json"], in: folder.url)
        #expect(json.stdout.components(separatedBy: "is never used").count - 1 == 250)
    }
}
