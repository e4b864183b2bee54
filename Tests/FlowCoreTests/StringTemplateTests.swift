import Testing
@testable import FlowCore

struct StringTemplateTests {
    typealias Segment = StringTemplate.Segment

    static func input(_ name: String) -> RuntimeExpression { RuntimeExpression(.input(name)) }

    static let token = RuntimeExpression(.variable("token"))
    static let userId = RuntimeExpression(.stepOutput(step: "user", output: "userId"))

    @Test(arguments: [
        ("Bearer {$vars.token}", [.literal("Bearer "), .expression(token, offset: 8)]),
        ("/account/{$steps.user.outputs.userId}", [.literal("/account/"), .expression(userId, offset: 10)]),
        (
            "/account/{$steps.user.outputs.userId}/tx",
            [.literal("/account/"), .expression(userId, offset: 10), .literal("/tx")]
        ),
        ("{$inputs.a}-{$inputs.b}", [.expression(input("a"), offset: 1), .literal("-"), .expression(input("b"), offset: 13)]),
        ("{$inputs.a}{$inputs.b}", [.expression(input("a"), offset: 1), .expression(input("b"), offset: 12)]),
        (
            "x={$inputs.a}&y={$inputs.b}&z={$inputs.c}",
            [
                .literal("x="), .expression(input("a"), offset: 3), .literal("&y="),
                .expression(input("b"), offset: 17), .literal("&z="), .expression(input("c"), offset: 31),
            ]
        ),
        ("{{$inputs.a}}", [.literal("{"), .expression(input("a"), offset: 2), .literal("}")]),
        ("$${$inputs.a}", [.literal("$"), .expression(input("a"), offset: 3)]),
        ("{$$x} {$inputs.a}", [.literal("{$x} "), .expression(input("a"), offset: 7)]),
        ("héllo {$inputs.a}", [.literal("héllo "), .expression(input("a"), offset: 7)]),
        ("👍👍 {$inputs.a} 👍", [.literal("👍👍 "), .expression(input("a"), offset: 4), .literal(" 👍")]),
        ("$inputs.a", [.expression(input("a"), offset: 0)]),
        ("$response.body#/a}b", [.expression(RuntimeExpression(.responseBody, pointer: JSONPointer(tokens: ["a}b"])), offset: 0)]),
        (
            "{$response.body#/a{b}c",
            [.expression(RuntimeExpression(.responseBody, pointer: JSONPointer(tokens: ["a{b"])), offset: 1), .literal("c")]
        ),
        (
            "id: {$response.header.X-Request-Id}",
            [.literal("id: "), .expression(RuntimeExpression(.responseHeader("X-Request-Id")), offset: 5)]
        ),
        ("{$statusCode}", [.expression(RuntimeExpression(.statusCode), offset: 1)]),
    ] as [(String, [Segment])])
    func splitsTextAndEmbeddedExpressions(text: String, segments: [Segment]) throws {
        let template = try ExpressionParser.parseTemplate(text)
        #expect(template.segments == segments)
        #expect(!template.isLiteral)
        #expect(template.literalText == nil)
        #expect(template.expressions == segments.compactMap {
            if case .expression(let expression, _) = $0 { return expression }
            return nil
        })
    }

    @Test(arguments: [
        ("", ""),
        ("plain text", "plain text"),
        ("$$5", "$5"),
        ("$$", "$"),
        ("$$$x", "$$x"),
        ("{$$x}", "{$x}"),
        ("{$$$x}", "{$$x}"),
        ("a {$$inputs.a} b", "a {$inputs.a} b"),
        ("a $$ b", "a $$ b"),
        ("price: 5$", "price: 5$"),
        ("a $b", "a $b"),
        ("a {b} c", "a {b} c"),
        ("{", "{"),
        ("}", "}"),
        ("{}", "{}"),
        ("{ $inputs.a}", "{ $inputs.a}"),
        ("}$", "}$"),
        ("x{", "x{"),
        ("x{$$", "x{$"),
        ("héllo $$ wörld", "héllo $$ wörld"),
    ])
    func keepsTextWithoutExpressionsLiteral(text: String, literal: String) throws {
        let template = try ExpressionParser.parseTemplate(text)
        #expect(template.isLiteral)
        #expect(template.literalText == literal)
        #expect(template.expressions.isEmpty)
        #expect(template.segments == (literal.isEmpty ? [] : [.literal(literal)]))
    }

    static let sources = "$inputs, $vars, $env, $steps, $item, $response.body, $response.header, $statusCode or $url"

    @Test(arguments: [
        ("{$inputs.a", "unclosed '{$' (missing '}')", 0),
        ("x {$inputs.a", "unclosed '{$' (missing '}')", 2),
        ("{$inputs.a} and {$vars", "unclosed '{$' (missing '}')", 16),
        ("héllo {$", "unclosed '{$' (missing '}')", 6),
        ("{$}", "expected an expression source after '$' (write '$$' for a literal '$')", 2),
        ("{$ inputs.a}", "expected an expression source after '$' (write '$$' for a literal '$')", 2),
        ("{$input.a}", "unknown expression source '$input'; expected \(sources); did you mean '$inputs'?", 1),
        ("a {$inputs.a b}", "unexpected character ' ' after '$inputs.a'; expected '}'", 12),
        ("{$inputs.x and {$vars.y}", "unexpected character ' ' after '$inputs.x'; expected '}'", 10),
        ("héllo {$inputs.}", "expected a name after '$inputs.'", 15),
        ("{$steps.user.output.id}", "expected '.outputs.' after the step id 'user'", 19),
        ("{$response.body#/a~}", "invalid JSON pointer: '~' must be followed by 0 or 1", 18),
        ("👍 {$response.body#x}", "invalid JSON pointer: a pointer must be empty or start with '/'", 18),
        ("{$env.HOME#/a}", "a JSON pointer cannot follow '$env.HOME'; only $inputs, $vars, step outputs and $response.body take one", 10),
        ("{$inputs.ok} {$inputs.a.b}", "unexpected '.' after '$inputs.a'; read a member with a JSON pointer, as in '$inputs.a#/b'", 23),
        ("$bad", "unknown expression source '$bad'; expected \(sources)", 0),
        ("$5", "expected an expression source after '$' (write '$$' for a literal '$')", 1),
        ("$}{", "expected an expression source after '$' (write '$$' for a literal '$')", 1),
        ("$inputs.a text", "unexpected character ' ' after '$inputs.a'; to embed an expression in text, write it in braces: '{$inputs.a}'", 9),
    ] as [(String, String, Int)])
    func rejectsMalformedTemplatesAtTheOffendingCharacter(text: String, message: String, offset: Int) {
        #expect(throws: ExpressionSyntaxError(message: message, offset: offset)) {
            try ExpressionParser.parseTemplate(text)
        }
    }

    @Test(arguments: [
        ("Bearer {$vars.token}", "Bearer {$vars.token}"),
        ("$$5", "$$5"),
        ("$$", "$$"),
        ("{$$x}", "{$$x}"),
        ("{$$$x}", "{$$$x}"),
        ("a $$ b", "a $$ b"),
        ("{{$inputs.a}}", "{{$inputs.a}}"),
        ("$${$inputs.a}$", "$${$inputs.a}$"),
        ("$inputs.a", "{$inputs.a}"),
        ("{$response.body#/a~1b}", "{$response.body#/a~1b}"),
    ])
    func describesItselfAsTextThatParsesBack(text: String, description: String) throws {
        let template = try ExpressionParser.parseTemplate(text)
        #expect(template.description == description)
        let reparsed = try ExpressionParser.parseTemplate(template.description)
        #expect(reparsed.expressions == template.expressions)
        #expect(reparsed.literalText == template.literalText)
        #expect(reparsed.description == description)
    }

    @Test func escapesLiteralDollarsInTemplatesBuiltByHand() throws {
        let template = StringTemplate(segments: [
            .literal("$"), .literal("{"), .literal("$x "), .expression(Self.token, offset: 0), .literal("{$"),
        ])
        #expect(template.description == "$${$$x {$vars.token}{$$")
        let reparsed = try ExpressionParser.parseTemplate(template.description)
        #expect(reparsed.segments == [.literal("${$x "), .expression(Self.token, offset: 8), .literal("{$")])
    }

    @Test func evaluatesStringsRawAndOtherValuesAsCompactJSON() {
        let template = StringTemplate(segments: [
            .literal("s="), .expression(Self.input("s"), offset: 0),
            .literal(" i="), .expression(Self.input("i"), offset: 0),
            .literal(" d="), .expression(Self.input("d"), offset: 0),
            .literal(" b="), .expression(Self.input("b"), offset: 0),
            .literal(" n="), .expression(Self.input("n"), offset: 0),
            .literal(" a="), .expression(Self.input("a"), offset: 0),
            .literal(" o="), .expression(Self.input("o"), offset: 0),
        ])
        let values: [String: JSONValue] = [
            "s": .string("x\"y"),
            "i": .int(42),
            "d": .double(1.5),
            "b": .bool(true),
            "n": .null,
            "a": .array([.int(1), .string("two"), .double(.nan)]),
            "o": .object(["z": .null, "a": .string("q\"\\\n\t\u{1}é"), "m": .object([:])]),
        ]
        let text = template.evaluate { expression in
            guard case .input(let name) = expression.source else { return .null }
            return values[name]!
        }
        #expect(text == #"s=x"y i=42 d=1.5 b=true n=null a=[1,"two",null] o={"a":"q\"\\\n\t\u0001é","m":{},"z":null}"#)
    }

    @Test func evaluationPropagatesLookupErrors() {
        struct Missing: Error {}
        let template = StringTemplate(segments: [.literal("a"), .expression(Self.token, offset: 1)])
        #expect(throws: Missing.self) {
            try template.evaluate { _ in throw Missing() }
        }
    }
}
