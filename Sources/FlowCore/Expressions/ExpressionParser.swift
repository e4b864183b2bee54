/// Parses runtime expressions and the strings that embed them.
///
/// flowrun writes runtime expressions in Arazzo 1.0 syntax (see ``RuntimeExpression``) in two
/// forms:
///
/// - A **whole-value expression** is a string that starts with `$`, such as
///   `$response.body#/access_token`. ``parseExpression(_:)`` parses it; the value it reads keeps
///   its JSON type.
/// - A **template** embeds expressions in text between `{` and `}`, such as
///   `/account/{$steps.user.outputs.userId}` or `Bearer {$vars.token}`. ``parseTemplate(_:)``
///   parses it into a ``StringTemplate``.
///
/// ## Escaping `$`
///
/// A `$` is special only where an expression could start: at the very start of a string and
/// right after `{`. In those two places a doubled dollar stands for one literal dollar, so
/// `$$5` is the text `$5` and `{$$x}` is the text `{$x}`. Everywhere else `$`, `$$`, `{` and
/// `}` are literal text (`cost: 5$`, `a {b} c`).
///
/// ## Where an embedded expression ends
///
/// An embedded expression ends at the first `}` after its `{$`. A JSON pointer inside braces
/// therefore cannot contain `}` (JSON pointers have no escape for it); write such a pointer in
/// a whole-value expression instead, where the expression runs to the end of the string.
///
/// ## Speed
///
/// Both parsers make one pass over the UTF-8 bytes, without regular expressions or Foundation,
/// and only count Unicode scalars where an offset is reported.
package enum ExpressionParser {
    /// Parses a string that must be exactly one runtime expression.
    ///
    /// - Parameter text: The expression, such as `$inputs.token` or `$response.body#/data/0`.
    /// - Returns: The parsed expression.
    /// - Throws: ``ExpressionSyntaxError`` with the offset, in Unicode scalars from the start of
    ///   `text`, of the first character that does not fit.
    package static func parseExpression(_ text: String) throws(ExpressionSyntaxError) -> RuntimeExpression {
        try withParser(text) { parser throws(Failure) in
            try parser.expression(from: 0, to: parser.bytes.count, embedded: false)
        }
    }

    /// Parses a string that may embed runtime expressions as `{$...}`.
    ///
    /// Literal text is unescaped (`$$` at the start and `{$$` become `$` and `{$`), and adjacent
    /// literal text is merged into one segment. A string that starts with a single `$` is a
    /// whole-value expression: it becomes a template of that one expression, at offset 0, which
    /// renders its value as text.
    ///
    /// - Parameter text: The string, such as `/account/{$steps.user.outputs.userId}`.
    /// - Returns: The template; ``StringTemplate/isLiteral`` when `text` embeds no expression.
    /// - Throws: ``ExpressionSyntaxError`` with the offset, in Unicode scalars from the start of
    ///   `text`, of the offending character: an unclosed `{` or a character inside an embedded
    ///   expression.
    package static func parseTemplate(_ text: String) throws(ExpressionSyntaxError) -> StringTemplate {
        // Most strings in a workflow hold no `$`: skip the byte-level pass for them.
        guard text.utf8.contains(UInt8(ascii: "$")) else {
            return StringTemplate(segments: text.isEmpty ? [] : [.literal(text)])
        }
        return try withParser(text) { parser throws(Failure) in try parser.template() }
    }

    /// A syntax error located by a byte index into the UTF-8 buffer being parsed.
    ///
    /// The parsers work on bytes; the public API reports Unicode-scalar offsets, and the byte
    /// index is converted only when an error actually escapes.
    struct Failure: Error {
        /// The error's message.
        var message: String
        /// The byte index of the offending character.
        var index: Int

        init(_ message: String, at index: Int) {
            self.message = message
            self.index = index
        }

        /// Converts the byte index into a Unicode-scalar offset within `bytes`.
        func syntaxError(in bytes: UnsafeBufferPointer<UInt8>) -> ExpressionSyntaxError {
            ExpressionSyntaxError(message: message, offset: Parser.scalarCount(bytes, 0..<index))
        }
    }

    /// Runs `body` on a parser over the UTF-8 bytes of `text`, converting its failure.
    private static func withParser<T>(
        _ text: String,
        _ body: (Parser) throws(Failure) -> T
    ) throws(ExpressionSyntaxError) -> T {
        var text = text
        let result: Result<T, ExpressionSyntaxError> = text.withUTF8 { bytes in
            do throws(Failure) {
                return .success(try body(Parser(bytes: bytes)))
            } catch {
                return .failure(error.syntaxError(in: bytes))
            }
        }
        return try result.get()
    }
}

extension ExpressionParser {
    /// The byte-level parser; valid only while the buffer it reads is.
    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>

        // MARK: Templates

        func template() throws(Failure) -> StringTemplate {
            let count = bytes.count
            var segments: [StringTemplate.Segment] = []
            var literal = ""
            var runStart = 0
            var index = 0
            // Scalar offsets are counted incrementally, from the last expression on.
            var countedBytes = 0
            var countedScalars = 0

            if count > 0, bytes[0] == UInt8(ascii: "$") {
                guard count > 1, bytes[1] == UInt8(ascii: "$") else {
                    // A leading single `$`: the whole string is one expression.
                    let expression = try expression(from: 0, to: count, embedded: false)
                    return StringTemplate(segments: [.expression(expression, offset: 0)])
                }
                literal = "$"
                runStart = 2
                index = 2
            }
            while index < count {
                guard bytes[index] == UInt8(ascii: "{"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "$")
                else {
                    index += 1
                    continue
                }
                if index + 2 < count, bytes[index + 2] == UInt8(ascii: "$") {
                    // `{$$` is the literal text `{$`: keep `{$`, drop the second `$`.
                    literal += string(runStart..<index + 2)
                    index += 3
                    runStart = index
                    continue
                }
                var close = index + 2
                while close < count, bytes[close] != UInt8(ascii: "}") { close += 1 }
                guard close < count else { throw Failure("unclosed '{$' (missing '}')", at: index) }
                let expression = try expression(from: index + 1, to: close, embedded: true)
                literal += string(runStart..<index)
                if !literal.isEmpty {
                    segments.append(.literal(literal))
                    literal = ""
                }
                countedScalars += Self.scalarCount(bytes, countedBytes..<index + 1)
                countedBytes = index + 1
                segments.append(.expression(expression, offset: countedScalars))
                index = close + 1
                runStart = index
            }
            literal += string(runStart..<count)
            if !literal.isEmpty { segments.append(.literal(literal)) }
            return StringTemplate(segments: segments)
        }

        // MARK: Expressions

        /// Parses `bytes[start..<end]` as exactly one expression.
        ///
        /// `embedded` says that the text is inside `{...}`; it only changes the hints in
        /// messages, since the caller has already cut the text at the closing brace.
        func expression(from start: Int, to end: Int, embedded: Bool) throws(Failure) -> RuntimeExpression {
            guard start < end, bytes[start] == UInt8(ascii: "$") else {
                throw Failure("a runtime expression must start with '$'", at: start)
            }
            let wordStart = start + 1
            guard wordStart < end, Self.isLetter(bytes[wordStart]) else {
                throw Failure("expected an expression source after '$' (write '$$' for a literal '$')", at: wordStart)
            }
            var index = wordStart
            while index < end, Self.isWordCharacter(bytes[index]) { index += 1 }
            let word = string(wordStart..<index)

            switch word {
            case "inputs", "vars":
                let context = "$" + word
                index = try dot(at: index, end: end, after: context, expecting: "<name>")
                let nameEnd = scanName(from: index, to: end, allowingHyphen: true)
                guard nameEnd > index else { throw Failure("expected a name after '\(context).'", at: index) }
                let name = string(index..<nameEnd)
                let source: RuntimeExpression.Source = word == "inputs" ? .input(name) : .variable(name)
                return try finish(source, at: nameEnd, end: end, takesPointer: true, embedded: embedded)

            case "env":
                index = try dot(at: index, end: end, after: "$env", expecting: "<NAME>")
                let nameEnd = scanName(from: index, to: end, allowingHyphen: false)
                guard nameEnd > index else {
                    throw Failure("expected an environment variable name after '$env.'", at: index)
                }
                if nameEnd < end, bytes[nameEnd] == UInt8(ascii: "-") {
                    throw Failure(
                        "invalid character '-' in environment variable name; use letters, digits and '_'",
                        at: nameEnd
                    )
                }
                let source = RuntimeExpression.Source.environment(string(index..<nameEnd))
                return try finish(source, at: nameEnd, end: end, takesPointer: false, embedded: embedded)

            case "steps":
                index = try dot(at: index, end: end, after: "$steps", expecting: "<stepId>")
                let stepEnd = scanName(from: index, to: end, allowingHyphen: true)
                guard stepEnd > index else { throw Failure("expected a step id after '$steps.'", at: index) }
                let step = string(index..<stepEnd)
                index = stepEnd
                for expected in ".outputs.".utf8 {
                    guard index < end, bytes[index] == expected else {
                        throw Failure("expected '.outputs.' after the step id '\(step)'", at: index)
                    }
                    index += 1
                }
                let outputEnd = scanName(from: index, to: end, allowingHyphen: true)
                guard outputEnd > index else {
                    throw Failure("expected an output name after '.outputs.'", at: index)
                }
                let source = RuntimeExpression.Source.stepOutput(step: step, output: string(index..<outputEnd))
                return try finish(source, at: outputEnd, end: end, takesPointer: true, embedded: embedded)

            case "response":
                guard index < end, bytes[index] == UInt8(ascii: ".") else {
                    throw Failure("expected '.body' or '.header.<name>' after '$response'", at: index)
                }
                let partStart = index + 1
                index = partStart
                while index < end, Self.isWordCharacter(bytes[index]) { index += 1 }
                let part = string(partStart..<index)
                switch part {
                case "body":
                    return try finish(.responseBody, at: index, end: end, takesPointer: true, embedded: embedded)
                case "header":
                    index = try dot(at: index, end: end, after: "$response.header", expecting: "<name>")
                    var nameEnd = index
                    while nameEnd < end, Self.isHeaderCharacter(bytes[nameEnd]) { nameEnd += 1 }
                    guard nameEnd > index else {
                        throw Failure("expected a header name after '$response.header.'", at: index)
                    }
                    let source = RuntimeExpression.Source.responseHeader(string(index..<nameEnd))
                    return try finish(source, at: nameEnd, end: end, takesPointer: false, embedded: embedded)
                case "":
                    throw Failure("expected '.body' or '.header.<name>' after '$response'", at: partStart)
                default:
                    var message = "unknown response part '\(part)'; expected '$response.body' or '$response.header.<name>'"
                    if let guess = Self.suggestion(for: part, among: ["body", "header"]) {
                        message += "; did you mean '\(guess)'?"
                    }
                    throw Failure(message, at: partStart)
                }

            case "statusCode":
                return try finish(.statusCode, at: index, end: end, takesPointer: false, embedded: embedded)

            case "url":
                return try finish(.url, at: index, end: end, takesPointer: false, embedded: embedded)

            case "item":
                return try finish(.item, at: index, end: end, takesPointer: true, embedded: embedded)

            default:
                throw Failure(Self.unknownSourceMessage(word), at: start)
            }
        }

        /// Requires a `.` after a source keyword and returns the index after it.
        private func dot(at index: Int, end: Int, after context: String, expecting placeholder: String)
            throws(Failure) -> Int
        {
            guard index < end, bytes[index] == UInt8(ascii: ".") else {
                throw Failure("expected '.\(placeholder)' after '\(context)'", at: index)
            }
            return index + 1
        }

        /// Parses what may follow a complete source: nothing, or `#` and a pointer.
        private func finish(
            _ source: RuntimeExpression.Source,
            at index: Int,
            end: Int,
            takesPointer: Bool,
            embedded: Bool
        ) throws(Failure) -> RuntimeExpression {
            guard index < end else { return RuntimeExpression(source) }
            let byte = bytes[index]
            // Messages quote the expression so far; build it only on the error paths.
            var prefix: String { RuntimeExpression(source).description }
            if byte == UInt8(ascii: "#") {
                guard takesPointer else {
                    throw Failure(
                        "a JSON pointer cannot follow '\(prefix)'; only $inputs, $vars, step outputs and $response.body take one",
                        at: index
                    )
                }
                let pointer = JSONPointer(tokens: try JSONPointer.parseTokens(bytes, from: index + 1, to: end))
                return RuntimeExpression(source, pointer: pointer)
            }
            if byte == UInt8(ascii: "."), takesPointer {
                let memberEnd = scanName(from: index + 1, to: end, allowingHyphen: true)
                let member = memberEnd > index + 1 ? string(index + 1..<memberEnd) : "member"
                throw Failure(
                    "unexpected '.' after '\(prefix)'; read a member with a JSON pointer, as in '\(prefix)#/\(member)'",
                    at: index
                )
            }
            var message = "unexpected character '\(character(at: index))' after '\(prefix)'"
            if embedded {
                message += "; expected '}'"
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                message += "; to embed an expression in text, write it in braces: '{\(prefix)}'"
            }
            throw Failure(message, at: index)
        }

        // MARK: Scanning

        /// Returns the end of the name `[A-Za-z_][A-Za-z0-9_]*` (with `-` if allowed) at `start`.
        private func scanName(from start: Int, to end: Int, allowingHyphen: Bool) -> Int {
            guard start < end, Self.isLetter(bytes[start]) || bytes[start] == UInt8(ascii: "_") else { return start }
            var index = start + 1
            while index < end {
                let byte = bytes[index]
                guard Self.isWordCharacter(byte) || (allowingHyphen && byte == UInt8(ascii: "-")) else { break }
                index += 1
            }
            return index
        }

        private func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        /// The Unicode scalar starting at byte `index`, escaped for quoting in a message.
        private func character(at index: Int) -> String {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let text = string(index..<min(index + length, bytes.count))
            return text.unicodeScalars.first.map { $0.escaped(asASCII: false) } ?? text
        }

        static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
            var count = 0
            for index in range where bytes[index] & 0xC0 != 0x80 { count += 1 }
            return count
        }

        static func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }

        static func isWordCharacter(_ byte: UInt8) -> Bool {
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }

        /// An HTTP token character (RFC 9110 `tchar`), except `#`.
        ///
        /// `#` is a `tchar`, but no real header uses it, and stopping there lets
        /// `$response.header.X#/a` report that headers take no pointer.
        static func isHeaderCharacter(_ byte: UInt8) -> Bool {
            if isWordCharacter(byte) { return true }
            switch byte {
            case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
                UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
                return true
            default:
                return false
            }
        }

        // MARK: Messages

        private static let supportedSources = "$inputs, $vars, $env, $steps, $item, $response.body, $response.header"

        /// Arazzo sources that flowrun deliberately does not provide.
        private static let unsupportedArazzoSources: Set<String> = [
            "method", "request", "outputs", "workflows", "components", "sourceDescriptions", "message",
        ]

        static func unknownSourceMessage(_ word: String) -> String {
            if unsupportedArazzoSources.contains(word) {
                return "unsupported expression source '$\(word)'; flowrun supports \(supportedSources), $statusCode and $url"
            }
            var message = "unknown expression source '$\(word)'; expected \(supportedSources), $statusCode or $url"
            if let guess = suggestion(
                for: word, among: ["inputs", "vars", "env", "steps", "item", "response", "statusCode", "url"])
            {
                message += "; did you mean '$\(guess)'?"
            }
            return message
        }

        /// The candidate closest to `word`, when one is close enough to be a likely typo.
        ///
        /// Close means an edit distance of at most 2 (1 for words shorter than 4), ignoring case,
        /// or one word being a prefix of the other when the typed word has 3 or more letters.
        static func suggestion(for word: String, among candidates: [String]) -> String? {
            let typed = Array(word.lowercased().unicodeScalars)
            var best: (candidate: String, distance: Int)?
            for candidate in candidates {
                let target = Array(candidate.lowercased().unicodeScalars)
                var distance = Suggestion.editDistance(typed, target)
                if typed.count >= 3, target.starts(with: typed) || typed.starts(with: target) {
                    distance = min(distance, 2)
                }
                let limit = typed.count < 4 ? 1 : 2
                if distance <= limit, distance < (best?.distance ?? .max) {
                    best = (candidate, distance)
                }
            }
            return best?.candidate
        }
    }
}
