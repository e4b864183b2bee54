import Testing
@testable import FlowCore

struct RuntimeExpressionTests {
    typealias Source = RuntimeExpression.Source

    @Test(arguments: [
        ("$inputs.token", .input("token"), nil),
        ("$inputs._private", .input("_private"), nil),
        ("$inputs.user_id-2", .input("user_id-2"), nil),
        ("$inputs.user#/address/city", .input("user"), ["address", "city"]),
        ("$vars.token", .variable("token"), nil),
        ("$vars.list#/0", .variable("list"), ["0"]),
        ("$env.BANK_URL", .environment("BANK_URL"), nil),
        ("$env._X1", .environment("_X1"), nil),
        ("$env.lower", .environment("lower"), nil),
        ("$steps.user.outputs.userId", .stepOutput(step: "user", output: "userId"), nil),
        ("$steps.refresh-token.outputs.access_token", .stepOutput(step: "refresh-token", output: "access_token"), nil),
        ("$steps._s.outputs.a-b", .stepOutput(step: "_s", output: "a-b"), nil),
        (
            "$steps.user.outputs.profile#/address/city", .stepOutput(step: "user", output: "profile"),
            ["address", "city"]
        ),
        ("$response.body", .responseBody, nil),
        ("$response.body#", .responseBody, []),
        ("$response.body#/", .responseBody, [""]),
        ("$response.body#/data/0/id", .responseBody, ["data", "0", "id"]),
        ("$response.body#/a~1b/m~0n", .responseBody, ["a/b", "m~n"]),
        ("$response.body#/a}b/{c}", .responseBody, ["a}b", "{c}"]),
        ("$response.body#/café/ü", .responseBody, ["café", "ü"]),
        ("$response.body#/with space", .responseBody, ["with space"]),
        ("$response.header.Retry-After", .responseHeader("Retry-After"), nil),
        ("$response.header.x-request-id", .responseHeader("x-request-id"), nil),
        ("$response.header.X.Odd!Token~|'`^*+%&$", .responseHeader("X.Odd!Token~|'`^*+%&$"), nil),
        ("$statusCode", .statusCode, nil),
        ("$url", .url, nil),
    ] as [(String, Source, [String]?)])
    func parsesEveryValidForm(text: String, source: Source, pointer: [String]?) throws {
        let expression = try ExpressionParser.parseExpression(text)
        #expect(expression.source == source)
        #expect(expression.pointer?.tokens == pointer)
        #expect(expression.description == text)
        #expect(try RuntimeExpression(parsing: text) == expression)
        #expect(RuntimeExpression(source, pointer: pointer.map(JSONPointer.init(tokens:))) == expression)
    }

    @Test(arguments: [
        ("$inputs.token", RuntimeExpression.Spans(name: 8)),
        ("$inputs.user#/a", RuntimeExpression.Spans(name: 8, pointer: 12)),
        ("$vars.token#", RuntimeExpression.Spans(name: 6, pointer: 11)),
        ("$env.HOME", RuntimeExpression.Spans(name: 5)),
        ("$steps.user.outputs.id#/a", RuntimeExpression.Spans(name: 20, step: 7, pointer: 22)),
        ("$response.body", RuntimeExpression.Spans()),
        ("$response.body#/a", RuntimeExpression.Spans(pointer: 14)),
        ("$response.header.Retry-After", RuntimeExpression.Spans(name: 17)),
        ("$statusCode", RuntimeExpression.Spans()),
    ])
    func recordsTheOffsetsOfItsParts(text: String, spans: RuntimeExpression.Spans) throws {
        #expect(try ExpressionParser.parseExpression(text).spans == spans)
    }

    @Test func spansCountUnicodeScalars() {
        let expression = RuntimeExpression(.stepOutput(step: "a", output: "prénom"), pointer: JSONPointer(tokens: ["x"]))
        #expect(expression.spans == RuntimeExpression.Spans(name: 17, step: 7, pointer: 23))
    }

    static let sources = "$inputs, $vars, $env, $steps, $item, $response.body, $response.header, $statusCode or $url"
    static let supported = "$inputs, $vars, $env, $steps, $item, $response.body, $response.header, $statusCode and $url"
    static let needsPointerHint = "only $inputs, $vars, step outputs and $response.body take one"

    @Test(arguments: [
        ("", "a runtime expression must start with '$'", 0),
        ("inputs.token", "a runtime expression must start with '$'", 0),
        (" $inputs.token", "a runtime expression must start with '$'", 0),
        ("$", "expected an expression source after '$' (write '$$' for a literal '$')", 1),
        ("$5", "expected an expression source after '$' (write '$$' for a literal '$')", 1),
        ("$$inputs.x", "expected an expression source after '$' (write '$$' for a literal '$')", 1),
        ("$.x", "expected an expression source after '$' (write '$$' for a literal '$')", 1),
        ("$input.token", "unknown expression source '$input'; expected \(sources); did you mean '$inputs'?", 0),
        ("$Inputs.token", "unknown expression source '$Inputs'; expected \(sources); did you mean '$inputs'?", 0),
        ("$var.token", "unknown expression source '$var'; expected \(sources); did you mean '$vars'?", 0),
        ("$envs.HOME", "unknown expression source '$envs'; expected \(sources); did you mean '$env'?", 0),
        ("$step.a.outputs.b", "unknown expression source '$step'; expected \(sources); did you mean '$steps'?", 0),
        ("$respose.body", "unknown expression source '$respose'; expected \(sources); did you mean '$response'?", 0),
        ("$status", "unknown expression source '$status'; expected \(sources); did you mean '$statusCode'?", 0),
        ("$statuscode", "unknown expression source '$statuscode'; expected \(sources); did you mean '$statusCode'?", 0),
        ("$foo.bar", "unknown expression source '$foo'; expected \(sources)", 0),
        ("$x", "unknown expression source '$x'; expected \(sources)", 0),
        ("$urls", "unknown expression source '$urls'; expected \(sources); did you mean '$url'?", 0),
        ("$method", "unsupported expression source '$method'; flowrun supports \(supported)", 0),
        ("$request.body", "unsupported expression source '$request'; flowrun supports \(supported)", 0),
        ("$outputs.x", "unsupported expression source '$outputs'; flowrun supports \(supported)", 0),
        ("$inputs", "expected '.<name>' after '$inputs'", 7),
        ("$inputs#/a", "expected '.<name>' after '$inputs'", 7),
        ("$inputs-x", "expected '.<name>' after '$inputs'", 7),
        ("$inputs.", "expected a name after '$inputs.'", 8),
        ("$inputs.1x", "expected a name after '$inputs.'", 8),
        ("$inputs.-x", "expected a name after '$inputs.'", 8),
        ("$inputs.é", "expected a name after '$inputs.'", 8),
        ("$vars", "expected '.<name>' after '$vars'", 5),
        ("$vars.", "expected a name after '$vars.'", 6),
        (
            "$inputs.user.name",
            "unexpected '.' after '$inputs.user'; read a member with a JSON pointer, as in '$inputs.user#/name'", 12
        ),
        (
            "$vars.v.",
            "unexpected '.' after '$vars.v'; read a member with a JSON pointer, as in '$vars.v#/member'", 7
        ),
        (
            "$inputs.a b",
            "unexpected character ' ' after '$inputs.a'; to embed an expression in text, write it in braces: '{$inputs.a}'",
            9
        ),
        ("$inputs.a@b", "unexpected character '@' after '$inputs.a'", 9),
        ("$inputs.a}", "unexpected character '}' after '$inputs.a'", 9),
        ("$inputs.aé", "unexpected character 'é' after '$inputs.a'", 9),
        ("$inputs.a\u{1}", "unexpected character '\\u{01}' after '$inputs.a'", 9),
        ("$env", "expected '.<NAME>' after '$env'", 4),
        ("$env.", "expected an environment variable name after '$env.'", 5),
        ("$env.1X", "expected an environment variable name after '$env.'", 5),
        ("$env.BANK-URL", "invalid character '-' in environment variable name; use letters, digits and '_'", 9),
        ("$env.HOME#/x", "a JSON pointer cannot follow '$env.HOME'; \(needsPointerHint)", 9),
        ("$env.HOME.x", "unexpected character '.' after '$env.HOME'", 9),
        ("$steps", "expected '.<stepId>' after '$steps'", 6),
        ("$steps.", "expected a step id after '$steps.'", 7),
        ("$steps.9a.outputs.x", "expected a step id after '$steps.'", 7),
        ("$steps.user", "expected '.outputs.' after the step id 'user'", 11),
        ("$steps.user.output.id", "expected '.outputs.' after the step id 'user'", 18),
        ("$steps.user.outputs", "expected '.outputs.' after the step id 'user'", 19),
        ("$steps.user.outputs#/a", "expected '.outputs.' after the step id 'user'", 19),
        ("$steps.user.response.body", "expected '.outputs.' after the step id 'user'", 12),
        ("$steps.user#/a", "expected '.outputs.' after the step id 'user'", 11),
        ("$steps.user.outputs.", "expected an output name after '.outputs.'", 20),
        ("$steps.user.outputs.#/a", "expected an output name after '.outputs.'", 20),
        (
            "$steps.user.outputs.id.x",
            "unexpected '.' after '$steps.user.outputs.id'; read a member with a JSON pointer, as in '$steps.user.outputs.id#/x'",
            22
        ),
        ("$response", "expected '.body' or '.header.<name>' after '$response'", 9),
        ("$response#/a", "expected '.body' or '.header.<name>' after '$response'", 9),
        ("$response.", "expected '.body' or '.header.<name>' after '$response'", 10),
        (
            "$response.bod",
            "unknown response part 'bod'; expected '$response.body' or '$response.header.<name>'; did you mean 'body'?",
            10
        ),
        (
            "$response.headers.X",
            "unknown response part 'headers'; expected '$response.body' or '$response.header.<name>'; did you mean 'header'?",
            10
        ),
        ("$response.status", "unknown response part 'status'; expected '$response.body' or '$response.header.<name>'", 10),
        ("$response.header", "expected '.<name>' after '$response.header'", 16),
        ("$response.header.", "expected a header name after '$response.header.'", 17),
        ("$response.header.:x", "expected a header name after '$response.header.'", 17),
        ("$response.header.X-Id#/a", "a JSON pointer cannot follow '$response.header.X-Id'; \(needsPointerHint)", 21),
        ("$response.header.X:Y", "unexpected character ':' after '$response.header.X'", 18),
        (
            "$response.header.X Y",
            "unexpected character ' ' after '$response.header.X'; to embed an expression in text, write it in braces: '{$response.header.X}'",
            18
        ),
        (
            "$response.body.id",
            "unexpected '.' after '$response.body'; read a member with a JSON pointer, as in '$response.body#/id'", 14
        ),
        ("$response.bodyx", "unknown response part 'bodyx'; expected '$response.body' or '$response.header.<name>'; did you mean 'body'?", 10),
        ("$statusCode#/x", "a JSON pointer cannot follow '$statusCode'; \(needsPointerHint)", 11),
        ("$statusCode.x", "unexpected character '.' after '$statusCode'", 11),
        ("$url#/host", "a JSON pointer cannot follow '$url'; \(needsPointerHint)", 4),
        ("$response.body#data", "invalid JSON pointer: a pointer must be empty or start with '/'", 15),
        ("$inputs.a#a/b", "invalid JSON pointer: a pointer must be empty or start with '/'", 10),
        ("$response.body#/a~2", "invalid JSON pointer: '~' must be followed by 0 or 1", 17),
        ("$response.body#/a~", "invalid JSON pointer: '~' must be followed by 0 or 1", 17),
        ("$steps.s.outputs.o#/x/~", "invalid JSON pointer: '~' must be followed by 0 or 1", 22),
        ("$response.body#/é👍~x", "invalid JSON pointer: '~' must be followed by 0 or 1", 18),
    ] as [(String, String, Int)])
    func rejectsMalformedExpressionsAtTheOffendingCharacter(text: String, message: String, offset: Int) {
        #expect(throws: ExpressionSyntaxError(message: message, offset: offset)) {
            try ExpressionParser.parseExpression(text)
        }
    }

    @Test func describesASyntaxErrorWithItsOffset() {
        let error = ExpressionSyntaxError(message: "expected a name after '$inputs.'", offset: 8)
        #expect(error.description == "expected a name after '$inputs.' (at offset 8)")
    }

    @Test func expressionsWithTheSameTextAreEqual() throws {
        let a = try ExpressionParser.parseExpression("$response.body#/a~1b")
        let b = RuntimeExpression(.responseBody, pointer: JSONPointer(tokens: ["a/b"]))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != (try ExpressionParser.parseExpression("$response.body#/a/b")))
        #expect(a != (try ExpressionParser.parseExpression("$response.body")))
    }

    @Test func suggestsOnlyCloseCandidates() {
        let candidates = ["inputs", "vars", "env", "steps", "response", "statusCode"]
        let suggest = { ExpressionParser.Parser.suggestion(for: $0, among: candidates) }
        #expect(suggest("inptus") == "inputs")
        #expect(suggest("STEPS") == "steps")
        #expect(suggest("resp") == "response")
        #expect(suggest("ev") == "env")
        #expect(suggest("e") == nil)
        #expect(suggest("xyz") == nil)
        #expect(suggest("variables") == nil)
    }
}
