import FlowCore

// The response parser of docs/embedding.md ("Response parsers"), kept compiling and working: change both together.

/// Reads `text/csv` into an array of rows, each an array of strings.
struct CSVParser: ResponseParser {
    struct UnterminatedQuote: Error, CustomStringConvertible {
        var description: String { "quoted CSV fields are not supported" }
    }

    func parse(_ response: StepResponse) throws -> JSONValue {
        let text = String(decoding: response.body, as: UTF8.self)
        if text.contains("\"") { throw UnterminatedQuote() }
        return .array(text.split(separator: "\n").map { line in
            .array(line.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) })
        })
    }
}
