import FlowCore

/// Seeded mutations of workflow, mock and test files for the fuzz harness.
///
/// Each mutation is one way real input goes wrong or gets hostile: a flipped
/// byte, two tokens swapped, a number or duration far out of range, deep
/// nesting, YAML anchors and aliases, a line from another file. Every choice
/// comes from the generator, so an execution's seed reproduces its input.
struct FuzzMutator {
    /// The seed files' contents, to splice lines and tokens from.
    let corpus: [[UInt8]]

    /// Values that once crashed or may still crash a conversion: huge, tiny, negative, not numbers at all.
    static let hostileValues: [String] = [
        "9223372036854775807", "9223372036854775808", "18446744073709551616", "-9223372036854775808",
        "1e308", "1e309", "-1", "0", "-0", "0.0000001", ".nan", ".inf", "-.inf", "1e-320",
        "2562048h", "2562047h", "99999999999h", "1e300s", "9223372036854775807ms", "0.0000000001ms", "1e18us",
        "340282366920938463463374607431768211456", "100000000000000000000000000000000000000s",
        "\"Fri, 31 Dec 9999 23:59:59 GMT\"", "1.5e10m", "-5s", "0s", "NaNs", "40", "64", "100", "101", "1e10",
    ]

    /// Keys and fragments of the formats, so swaps and insertions reach deeper than random bytes.
    static let dictionary: [String] = [
        "attempts", "attempts: 100", "delay", "backoff: exponential", "multiplier: 1e300", "multiplier", "maxDelay", "jitter: full", "jitter: equal",
        "retryAfter: { max: 1h }", "timeout: { total: 30s }", "timeout: { attempt: 5s }", "deadline", "goto",
        "maxVisits", "on-error", "catch", "compensate", "on-demand: true", "idempotent: true", "idempotencyKey: true",
        "circuitBreaker: { failureRatio: 0.5, minimumThroughput: 1, window: 1s, breakDuration: 1s }",
        "$steps.a.outputs.b", "$response.body#/x", "{$inputs.x}", "$statusCode", "$$", "{$", "when", "status: 5XX",
        "errors: [transport, timeout]", "policy", "dependsOn", "outputs", "vars", "types", "interceptors",
        "refresh: { when: { status: 401 }, run: r, then: replay }", "~", "null", "[]", "{}", "''", "\"\"",
        "- ", ": ", "#", "&a", "*a", "!!str", "!!binary", "? ", "|", ">", "---", "...", "%YAML 1.2",
    ]

    /// A mutated copy of `input`: one to four mutations.
    func mutate(_ input: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<9, using: &random) {
            case 0: flipByte(&bytes, &random)
            case 1: swapTokens(&bytes, &random)
            case 2, 3: replaceNumber(&bytes, &random)
            case 4: nest(&bytes, &random)
            case 5: alias(&bytes, &random)
            case 6: spliceLine(&bytes, &random)
            case 7: insertFragment(&bytes, &random)
            default: dropOrRepeatLine(&bytes, &random)
            }
        }
        return bytes
    }

    // MARK: Mutations

    private func flipByte(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        let index = Int.random(in: 0..<bytes.count, using: &random)
        bytes[index] = Bool.random(using: &random)
            ? bytes[index] ^ (1 << UInt8.random(in: 0..<8, using: &random))
            : Array(" \t\n:-{}[],'\"&*!#|>%@`\\".utf8).randomElement(using: &random)!
    }

    private func swapTokens(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let ranges = Self.tokens(bytes)
        guard ranges.count >= 2 else { return }
        var first = ranges.randomElement(using: &random)!
        var second = ranges.randomElement(using: &random)!
        guard first != second else { return }
        if first.lowerBound > second.lowerBound { swap(&first, &second) }
        guard first.upperBound <= second.lowerBound else { return }
        let a = Array(bytes[first]), b = Array(bytes[second])
        bytes.replaceSubrange(second, with: a)
        bytes.replaceSubrange(first, with: b)
    }

    private func replaceNumber(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        // A token that starts with a digit: a number, a duration, a status.
        let numbers = Self.tokens(bytes).filter { (0x30...0x39).contains(bytes[$0.lowerBound]) }
        let value = Array(Self.hostileValues.randomElement(using: &random)!.utf8)
        if let target = numbers.randomElement(using: &random) {
            bytes.replaceSubrange(target, with: value)
        } else {
            insert(value, into: &bytes, &random)
        }
    }

    private func nest(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let depth = [10, 100, 1000, 10000].randomElement(using: &random)!
        let nested: String = switch Int.random(in: 0..<3, using: &random) {
        case 0: String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        case 1: String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth)
        default: (0..<min(depth, 200)).map { String(repeating: "  ", count: $0) + "- " }.joined(separator: "\n") + "x"
        }
        replaceValue(with: Array(nested.utf8), in: &bytes, &random)
    }

    private func alias(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let fragment: String = switch Int.random(in: 0..<4, using: &random) {
        case 0: "&a [*a]"  // a recursive alias
        case 1: "*undefined"
        case 2: "&x { k: v }"
        default: (0..<9).map { "&l\($0) [" + String(repeating: "*l\(max(0, $0 - 1)), ", count: 9) + "x]" }
            .joined(separator: "\n")  // a billion laughs, when it lands on its own lines
        }
        if Bool.random(using: &random) {
            replaceValue(with: Array(fragment.utf8), in: &bytes, &random)
        } else {
            // Anchor one value and refer to it from another.
            replaceValue(with: Array("&z 1".utf8), in: &bytes, &random)
            replaceValue(with: Array("*z".utf8), in: &bytes, &random)
        }
    }

    private func spliceLine(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard let other = corpus.randomElement(using: &random) else { return }
        let lines = other.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let line = lines.randomElement(using: &random) else { return }
        insertLine(Array(line), into: &bytes, &random)
    }

    private func insertFragment(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let fragment = Array(Self.dictionary.randomElement(using: &random)!.utf8)
        if Bool.random(using: &random) {
            insert(fragment, into: &bytes, &random)
        } else {
            replaceValue(with: fragment, in: &bytes, &random)
        }
    }

    private func dropOrRepeatLine(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        guard !lines.isEmpty else { return }
        let index = Int.random(in: 0..<lines.count, using: &random)
        if Bool.random(using: &random) {
            lines.remove(at: index)
        } else {
            let count = Int.random(in: 1...50, using: &random)
            lines.insert(contentsOf: repeatElement(lines[index], count: count), at: index)
        }
        bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    // MARK: Helpers

    /// The ranges of runs of bytes that are not spaces, newlines or YAML punctuation.
    private static func tokens(_ bytes: [UInt8]) -> [Range<Int>] {
        let separators = Set(" \t\r\n:,{}[]\"'#".utf8)
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if separators.contains(byte) {
                if let begin = start { ranges.append(begin..<index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let begin = start { ranges.append(begin..<bytes.count) }
        return ranges
    }

    /// Replaces the text after a `key: ` on a random line with `value`, or inserts it when there is none.
    private func replaceValue(
        with value: [UInt8], in bytes: inout [UInt8], _ random: inout SplitMix64
    ) {
        let (colon, space) = (UInt8(ascii: ":"), UInt8(ascii: " "))
        var candidates: [Int] = []
        for index in 0..<max(0, bytes.count - 1) where bytes[index] == colon && bytes[index + 1] == space {
            candidates.append(index + 2)
        }
        guard let start = candidates.randomElement(using: &random) else {
            insert(value, into: &bytes, &random)
            return
        }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: ","),
            bytes[end] != UInt8(ascii: "}")
        {
            end += 1
        }
        bytes.replaceSubrange(start..<end, with: value)
    }

    private func insert(_ value: [UInt8], into bytes: inout [UInt8], _ random: inout SplitMix64) {
        bytes.insert(contentsOf: value, at: Int.random(in: 0...bytes.count, using: &random))
    }

    private func insertLine(
        _ line: [UInt8], into bytes: inout [UInt8], _ random: inout SplitMix64
    ) {
        let starts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        let at = starts.randomElement(using: &random)!
        bytes.insert(contentsOf: line + [UInt8(ascii: "\n")], at: at)
    }
}
