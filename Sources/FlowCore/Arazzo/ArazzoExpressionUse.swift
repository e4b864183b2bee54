/// A runtime expression as a document uses it: what it reads, where it is written, and the workflow and step
/// it belongs to (`nil` for one in `components`).
package struct ArazzoExpressionUse: Sendable {
    package var expression: ArazzoExpression
    package var location: SourceLocation
    package var workflowID: String?
    package var stepID: String?
}
