@testable import FlowCore
import Testing

/// Issue 9 item 12: a finding inside a string points where the file writes it, whatever the scalar's style.
struct ScalarPositionTests {
    /// The location of the "unknown input 'nope'" finding for `value` bound as a header (after `X-A: `), with
    /// the workflow's other lines before it.
    private func location(of value: String) -> (line: Int, column: Int)? {
        let found = diagnostics("""
            flowrun: 1
            servers: { api: https://api.test }
            inputs: { type: object, properties: { id: { type: string } } }
            steps:
              - id: a
                server: api
                request:
                  method: GET
                  path: "/a/{$inputs.id}"
                  headers:
                    X-A: \(value)
            """).filter { $0.message.contains("unknown input 'nope'") }
        guard found.count == 1, let location = found[0].location else { return nil }
        return (location.line, location.column)
    }

    // Line 11 holds `        X-A: `, so a value starts at column 14; a finding points at the name 'nope', 8
    // columns after the `$`. Continuation lines start with the 10 spaces written here.
    @Test(arguments: [
        (#"plain {$inputs.nope}"#, 11, 29),
        (#""quoted {$inputs.nope}""#, 11, 31),
        (#""\t\u00e9\"x {$inputs.nope}""#, 11, 36),
        (#"'it''s {$inputs.nope}'"#, 11, 30),
        ("\"first\n          second {$inputs.nope}\"", 12, 27),
        ("'first\n\n          second {$inputs.nope}'", 13, 27),
        ("\"first \\\n          {$inputs.nope}\"", 12, 20),
        ("|\n          line one\n          id {$inputs.nope}", 13, 23),
        (">-\n          folded\n          text {$inputs.nope}", 13, 25),
        (">\n          a\n\n          b {$inputs.nope}", 14, 22),
        ("|2\n            {$inputs.nope}", 12, 22),
        ("plain\n          continued {$inputs.nope}", 12, 30),
    ])
    func theFindingIsWhereTheExpressionIsWritten(value: String, line: Int, column: Int) throws {
        let found = try #require(location(of: value), "no single finding for \(value)")
        #expect(found.line == line, "\(value)")
        #expect(found.column == column, "\(value)")
    }

    @Test func aMalformedExpressionInABlockScalarIsLocatedOnItsLine() {
        let found = diagnostics("""
            flowrun: 1
            servers: { api: https://api.test }
            steps:
              - id: a
                server: api
                request:
                  method: POST
                  path: /a
                  body: |
                    first line
                    bad {$inputs.}
            """).filter { $0.code == .invalidExpression }
        #expect(found.count == 1)
        #expect(found.first?.location?.line == 11)
    }
}
