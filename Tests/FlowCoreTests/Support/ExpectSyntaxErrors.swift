import Testing
@testable import FlowCore

/// Checks that `parse` refuses each text with an ``ExpressionSyntaxError`` at the given offset whose message
/// contains the given fragment.
func expectSyntaxErrors(
    _ cases: [(text: String, offset: Int, fragment: String)], sourceLocation: Testing.SourceLocation = #_sourceLocation,
    parse: (String) throws(ExpressionSyntaxError) -> Void
) {
    for (text, offset, fragment) in cases {
        do {
            try parse(text)
            Issue.record("\(text) was accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(error.offset == offset, "\(text): \(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.contains(fragment), "\(text): \(error.message)", sourceLocation: sourceLocation)
        }
    }
}
