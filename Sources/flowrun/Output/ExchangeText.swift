import FlowCore

/// How `flowrun run -v` prints one exchange, as `curl -v` does: `>` before each line that went out, `<`
/// before each line that came back, `*` before flowrun's own.
///
/// ```
/// * attempt 1, replayed after refresh-token  1 ms
/// > GET https://bank.example/user HTTP/1.1
/// > Authorization: Bearer ***
/// < HTTP/1.1 200 OK
/// < Content-Type: application/json
/// <
/// < {"userId":"u-1001","username":"ada"}
/// ```
///
/// With bodies (`-vv`) each non-empty body follows its header fields after a bare `>` or `<` line: text up to
/// ``bodyLimit`` bytes, then `… (N more bytes)`; a body that is not printable text as
/// `<N bytes, content type>`.
enum ExchangeText {
    /// The most bytes of a body that `-vv` prints: 2 KiB.
    static let bodyLimit = 2048

    /// The lines of `exchange`, which must be redacted already, under the `* label  duration` line.
    static func lines(of exchange: Exchange, label: String, bodies: Bool) -> [String] {
        var lines = ["* \(label)  \(RunPrinter.format(exchange.timing.duration))"]
        let request = exchange.request
        let version = exchange.httpVersion.map { " \($0)" } ?? ""
        lines.append("> \(request.method) \(request.url)\(version)")
        lines += request.headers.map { "> \($0.name): \($0.value)" }
        if bodies, let body = request.body, !body.isEmpty {
            lines += [">"] + bodyLines(body, contentType: request.headers["Content-Type"]).map { "> " + $0 }
        }
        guard let response = exchange.response else {
            let error = exchange.error.map { "\($0.code): \($0.message)" } ?? "no response"
            lines.append("* no response: \(error)")
            return lines
        }
        let phrase = HTTPReasonPhrase.of(response.status)
        lines.append("< \(exchange.httpVersion.map { "\($0) " } ?? "")\(response.status)\(phrase.isEmpty ? "" : " ")\(phrase)")
        lines += response.headers.map { "< \($0.name): \($0.value)" }
        if bodies, !response.body.isEmpty {
            lines += ["<"] + bodyLines(response.body, contentType: response.headers["Content-Type"]).map { "< " + $0 }
        }
        return lines
    }

    /// A body as `-vv` prints it: its text lines up to ``bodyLimit`` bytes and a line saying how many bytes
    /// were left out, or one line `<N bytes, content type>` when it is not printable text.
    static func bodyLines(_ body: [UInt8], contentType: String?) -> [String] {
        guard let text = printableText(body) else {
            return ["<\(body.count) bytes\(contentType.map { ", \($0)" } ?? "")>"]
        }
        var shown = text
        var cut = 0
        if body.count > bodyLimit {
            // Cut before a character that does not fit whole: back over UTF-8 continuation bytes (10xxxxxx).
            var end = bodyLimit
            while end > 0, body[end] & 0xC0 == 0x80 { end -= 1 }
            shown = String(decoding: body[..<end], as: UTF8.self)
            cut = body.count - end
        }
        var lines = shown.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        if lines.count > 1, lines.last == "" { lines.removeLast() }
        if cut > 0 { lines.append("… (\(cut) more bytes)") }
        return lines
    }

    /// `body` as text, when it is UTF-8 without control characters other than tab, line feed and carriage
    /// return (so that no escape sequence reaches the terminal); else `nil`.
    private static func printableText(_ body: [UInt8]) -> String? {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        let control = text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0x7F
                || (0x80..<0xA0).contains(scalar.value)
        }
        return control ? nil : text
    }
}
