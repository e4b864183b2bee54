import Testing
@testable import FlowCore

struct ValueTemplateTests {
    static let path = "w.yaml"

    static func at(_ line: Int, _ column: Int) -> FlowCore.SourceLocation {
        SourceLocation(path: path, line: line, column: column)
    }

    /// A scalar node whose core-schema value is the string itself unless given.
    static func scalar(
        _ text: String,
        _ style: YAMLScalar.Style = .plain,
        value: YAMLScalar.Value? = nil,
        line: Int = 1,
        column: Int = 1
    ) -> YAMLNode {
        YAMLNode(.scalar(YAMLScalar(text: text, style: style, value: value ?? .string(text))), at: at(line, column))
    }

    static func mapping(_ pairs: [(YAMLNode, YAMLNode)], line: Int = 1, column: Int = 1) -> YAMLNode {
        YAMLNode(.mapping(pairs.map { YAMLPair(key: $0.0, value: $0.1) }), at: at(line, column))
    }

    static func sequence(_ elements: [YAMLNode], line: Int = 1, column: Int = 1) -> YAMLNode {
        YAMLNode(.sequence(elements), at: at(line, column))
    }

    static func compile(_ node: YAMLNode) -> (ValueTemplate, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let template = ValueTemplate.compile(node, into: &diagnostics)
        return (template, diagnostics)
    }

    static let userId = RuntimeExpression(.stepOutput(step: "user", output: "userId"))
    static let token = RuntimeExpression(.variable("token"))

    // MARK: Classification

    @Test(arguments: [
        (scalar("~", value: .null), .null),
        (scalar("true", value: .bool(true)), .bool(true)),
        (scalar("0x1F", value: .int(31)), .int(31)),
        (scalar("1.5", value: .double(1.5)), .double(1.5)),
        (scalar("no"), .string("no")),
        (scalar("42", .doubleQuoted), .string("42")),
        (scalar("plain text"), .string("plain text")),
        (scalar("price: 5$"), .string("price: 5$")),
        (scalar("a {b} c"), .string("a {b} c")),
        (scalar("$$5"), .string("$5")),
        (scalar("$$5", .singleQuoted), .string("$5")),
        (scalar("{$$x}"), .string("{$x}")),
        (scalar("a $$ b"), .string("a $$ b")),
        (scalar(""), .string("")),
    ] as [(YAMLNode, JSONValue)])
    func compilesScalarsWithoutExpressionsToLiterals(node: YAMLNode, value: JSONValue) {
        let (template, diagnostics) = Self.compile(node)
        #expect(template == .literal(value))
        #expect(diagnostics.isEmpty)
        #expect(template.expressions.isEmpty)
    }

    @Test(arguments: [
        (YAMLScalar.Style.plain, 7),
        (.singleQuoted, 8),
        (.doubleQuoted, 8),
        (.literal, 7),
        (.folded, 7),
    ])
    func compilesAStringStartingWithDollarToAWholeValueExpression(style: YAMLScalar.Style, column: Int) {
        let (template, diagnostics) = Self.compile(Self.scalar("$steps.user.outputs.userId", style, line: 3, column: 7))
        #expect(template == .expression(Self.userId, Self.at(3, column)))
        #expect(diagnostics.isEmpty)
    }

    @Test func compilesAStringWithBracesToAnInterpolatedString() throws {
        let text = "/account/{$steps.user.outputs.userId}"
        let (plain, _) = Self.compile(Self.scalar(text, line: 4, column: 11))
        #expect(plain == .string(try ExpressionParser.parseTemplate(text), Self.at(4, 11)))
        let (quoted, diagnostics) = Self.compile(Self.scalar(text, .doubleQuoted, line: 4, column: 11))
        #expect(quoted == .string(try ExpressionParser.parseTemplate(text), Self.at(4, 12)))
        #expect(diagnostics.isEmpty)
    }

    @Test func collapsesSubtreesWithoutExpressionsIntoOneLiteral() {
        let node = Self.mapping([
            (Self.scalar("tags"), Self.sequence([Self.scalar("a"), Self.scalar("1", value: .int(1)), Self.scalar("$$x")])),
            (Self.scalar("200", value: .int(200)), Self.scalar("User")),
            (Self.scalar("nested"), Self.mapping([(Self.scalar("empty"), Self.sequence([]))])),
        ])
        let (template, diagnostics) = Self.compile(node)
        #expect(
            template
                == .literal(
                    .object([
                        "tags": .array([.string("a"), .int(1), .string("$x")]),
                        "200": .string("User"),
                        "nested": .object(["empty": .array([])]),
                    ])
                )
        )
        #expect(diagnostics.isEmpty)
    }

    @Test func keepsArraysAndObjectsThatHoldExpressions() {
        let node = Self.mapping([
            (Self.scalar("owner"), Self.scalar("$steps.user.outputs.userId", line: 2, column: 10)),
            (Self.scalar("fixed"), Self.scalar("1", value: .int(1))),
            (
                Self.scalar("list"),
                Self.sequence([Self.scalar("a"), Self.scalar("Bearer {$vars.token}", .doubleQuoted, line: 4, column: 9)])
            ),
        ])
        let (template, diagnostics) = Self.compile(node)
        #expect(diagnostics.isEmpty)
        guard case .object(let members) = template else {
            Issue.record("expected an object, got \(template)")
            return
        }
        #expect(members["owner"] == .expression(Self.userId, Self.at(2, 10)))
        #expect(members["fixed"] == .literal(.int(1)))
        #expect(
            members["list"]
                == .array([
                    .literal(.string("a")),
                    .string(
                        StringTemplate(segments: [.literal("Bearer "), .expression(Self.token, offset: 8)]),
                        Self.at(4, 10)
                    ),
                ])
        )
    }

    @Test func compileStringAcceptsOnlyStringScalars() {
        var diagnostics: [Diagnostic] = []
        #expect(ValueTemplate.compileString(Self.scalar("3", value: .int(3)), into: &diagnostics) == nil)
        #expect(ValueTemplate.compileString(Self.scalar("~", value: .null), into: &diagnostics) == nil)
        #expect(ValueTemplate.compileString(Self.sequence([]), into: &diagnostics) == nil)
        #expect(ValueTemplate.compileString(Self.scalar("/users"), into: &diagnostics) == .literal(.string("/users")))
        #expect(
            ValueTemplate.compileString(Self.scalar("$vars.token", .singleQuoted, column: 5), into: &diagnostics)
                == .expression(Self.token, Self.at(1, 6))
        )
        #expect(diagnostics.isEmpty)
    }

    // MARK: Error locations

    static let outputsMessage = "expected '.outputs.' after the step id 'user'"

    @Test(arguments: [
        // "/account/{$steps.user.output.id}": the '.' where 's' should be is at offset 28.
        (YAMLScalar.Style.plain, 11 + 28),
        (.doubleQuoted, 11 + 1 + 28),
        (.singleQuoted, 11 + 1 + 28),
        (.literal, 11),
        (.folded, 11),
    ])
    func locatesAnErrorAtTheExactColumnInsideTheScalar(style: YAMLScalar.Style, column: Int) {
        let text = "/account/{$steps.user.output.id}"
        let (template, diagnostics) = Self.compile(Self.scalar(text, style, line: 4, column: 11))
        #expect(diagnostics == [Diagnostic(.error, .invalidExpression, Self.outputsMessage, at: Self.at(4, column))])
        #expect(
            diagnostics.first?.description == "w.yaml:4:\(column): error: \(Self.outputsMessage) [invalid-expression]")
        #expect(template == .literal(.string(text)))
    }

    @Test(arguments: [
        ("$input.x", YAMLScalar.Style.plain, 5),
        ("$input.x", .doubleQuoted, 6),
        ("$inputs.", .plain, 5 + 8),
        ("$inputs.", .singleQuoted, 5 + 1 + 8),
        ("héllo {$inputs.}", .plain, 5 + 15),
        ("héllo {$inputs.}", .doubleQuoted, 5 + 1 + 15),
        ("👍 {$vars.x", .plain, 5 + 2),
    ])
    func countsColumnsInUnicodeScalars(text: String, style: YAMLScalar.Style, column: Int) {
        let (_, diagnostics) = Self.compile(Self.scalar(text, style, line: 2, column: 5))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.location == Self.at(2, column))
        #expect(diagnostics.first?.code == .invalidExpression)
        #expect(diagnostics.first?.severity == .error)
    }

    @Test func pointsAtTheScalarWhenItsTextSpansLines() {
        let (_, diagnostics) = Self.compile(Self.scalar("first line\nthen {$inputs.}", .doubleQuoted, line: 6, column: 9))
        #expect(diagnostics.map(\.location) == [Self.at(6, 10)])
        let (_, block) = Self.compile(Self.scalar("Hello {$inputs.}\n", .literal, line: 6, column: 9))
        #expect(block.map(\.location) == [Self.at(6, 9)])
    }

    @Test func reportsEveryMalformedExpressionInOnePass() {
        let node = Self.mapping([
            (Self.scalar("a"), Self.scalar("$input.x", line: 2, column: 6)),
            (Self.scalar("b"), Self.sequence([Self.scalar("{$vars.token", .doubleQuoted, line: 4, column: 7)])),
            (Self.scalar("c"), Self.scalar("$vars.token", line: 5, column: 6)),
        ])
        let (template, diagnostics) = Self.compile(node)
        #expect(diagnostics.map(\.location) == [Self.at(2, 6), Self.at(4, 8)])
        #expect(diagnostics.map(\.message) == [
            "unknown expression source '$input'; expected $inputs, $vars, $env, $steps, $item, $response.body, $response.header, $statusCode or $url; did you mean '$inputs'?",
            "unclosed '{$' (missing '}')",
        ])
        // The valid expression still compiles; the malformed strings become their text.
        #expect(template.expressions.map(\.0) == [Self.token])
    }

    @Test func reportsNonScalarAndDuplicateKeys() {
        let node = Self.mapping([
            (Self.sequence([], line: 2, column: 3), Self.scalar("x")),
            (Self.scalar("k", line: 3, column: 3), Self.scalar("first")),
            (Self.scalar("k", .doubleQuoted, line: 4, column: 3), Self.scalar("second")),
        ])
        let (template, diagnostics) = Self.compile(node)
        #expect(diagnostics == [
            Diagnostic(.error, .typeMismatch, "a mapping key must be a scalar, not a sequence", at: Self.at(2, 3)),
            Diagnostic(.error, .duplicateKey, "duplicate key 'k'", at: Self.at(4, 3)),
        ])
        #expect(template == .literal(.object(["k": .string("first")])))
    }

    // MARK: Expressions

    @Test func listsEveryExpressionWithTheLocationOfItsDollarInDocumentOrder() {
        let node = Self.mapping([
            (Self.scalar("z"), Self.scalar("$vars.token", line: 2, column: 6)),
            (Self.scalar("a"), Self.scalar("x {$inputs.a} y {$inputs.b}", .doubleQuoted, line: 3, column: 6)),
            (
                Self.scalar("m"),
                Self.sequence([Self.scalar("{$statusCode}", line: 5, column: 7), Self.scalar("$response.body", .singleQuoted, line: 6, column: 7)])
            ),
            (Self.scalar("block"), Self.scalar("line {$env.HOME}\n", .literal, line: 7, column: 10)),
        ])
        let (template, diagnostics) = Self.compile(node)
        #expect(diagnostics.isEmpty)
        let found = template.expressions
        #expect(found.map(\.0.description) == [
            "$vars.token", "$inputs.a", "$inputs.b", "$statusCode", "$response.body", "$env.HOME",
        ])
        // Quoted at column 6: the text starts at 7, and the '$'s are at offsets 3 and 17.
        let expected: [FlowCore.SourceLocation] = [
            Self.at(2, 6), Self.at(3, 10), Self.at(3, 24), Self.at(5, 8), Self.at(6, 8), Self.at(7, 10),
        ]
        #expect(found.map(\.1) == expected)
    }

    // MARK: Evaluation

    @Test func evaluationKeepsTheTypeOfWholeValuesAndInterpolatesStrings() {
        let node = Self.mapping([
            (Self.scalar("count"), Self.scalar("$inputs.count")),
            (Self.scalar("user"), Self.scalar("$steps.user.outputs.profile#/name")),
            (Self.scalar("path"), Self.scalar("/items/{$inputs.count}/{$inputs.name}")),
            (Self.scalar("all"), Self.scalar("{$inputs.list}")),
            (Self.scalar("fixed"), Self.sequence([Self.scalar("1", value: .int(1)), Self.scalar("$$")])),
            (Self.scalar("list"), Self.sequence([Self.scalar("$inputs.name"), Self.scalar("~", value: .null)])),
        ])
        let (template, diagnostics) = Self.compile(node)
        #expect(diagnostics.isEmpty)
        let inputs: [String: JSONValue] = [
            "count": .int(3), "name": .string("ada"), "list": .array([.int(1), .bool(false)]),
        ]
        let profile: JSONValue = .object(["name": .string("Ada"), "age": .int(36)])
        let value = template.evaluate { expression in
            switch expression.source {
            case .input(let name): return inputs[name]!
            case .stepOutput: return expression.pointer!.resolve(in: profile)!
            default: return .null
            }
        }
        #expect(
            value
                == .object([
                    "count": .int(3),
                    "user": .string("Ada"),
                    "path": .string("/items/3/ada"),
                    "all": .string("[1,false]"),
                    "fixed": .array([.int(1), .string("$")]),
                    "list": .array([.string("ada"), .null]),
                ])
        )
    }

    @Test func evaluationPropagatesLookupErrors() {
        struct Unbound: Error {}
        let (template, _) = Self.compile(Self.sequence([Self.scalar("$vars.token")]))
        #expect(throws: Unbound.self) {
            try template.evaluate { _ in throw Unbound() }
        }
    }
}
