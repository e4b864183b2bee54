/// An RFC 9535 JSONPath query, such as `$.pets[?@.status == 'available'].id`.
///
/// A query selects nodes of a JSON document: values together with their location, the
/// ``JSONPathNode/path``. Arazzo's `jsonpath` criteria are such queries, evaluated against the
/// criterion's context; a query that selects at least one node makes the criterion hold.
///
/// Parsing checks the whole grammar and the function type rules of RFC 9535 section 2.4.3, so a
/// query that parses is well-typed: evaluating it never fails. The five functions of the standard
/// are supported: `length`, `count`, `match`, `search` and `value`; `match` and `search` take an
/// I-Regexp (RFC 9485).
///
/// ```swift
/// let query = try JSONPathQuery(parsing: "$.store.book[?@.price < 10].title")
/// query.select(in: document).map(\.value)   // the titles of the cheap books
/// ```
///
/// Object members are visited in the order of their names (by Unicode scalar values), which
/// RFC 9535 leaves to the implementation: the same query gives the same nodelist in every run.
package struct JSONPathQuery: Sendable, CustomStringConvertible {
    /// The segments after `$`, in order.
    let segments: [JSONPathSegment]
    /// The text the query was parsed from.
    package let description: String

    /// Parses the text of a query; it must start with `$` and hold nothing else, not even blanks around it.
    /// - Throws: ``ExpressionSyntaxError`` whose offset, in Unicode scalars from the start of `text`, points at
    ///   the first character that is not valid there.
    package init(parsing text: String) throws(ExpressionSyntaxError) {
        var parser = JSONPathParser(text)
        self.segments = try parser.parseWholeQuery()
        self.description = text
    }

    /// Whether the query selects at most one node whatever the document: only names and indexes
    /// (RFC 9535 section 2.3.5.1).
    package var isSingular: Bool { segments.allSatisfy(\.isSingular) }

    /// The nodes the query selects in `root`, in order.
    package func select(in root: JSONValue) -> [JSONPathNode] {
        var evaluator = JSONPathEvaluator(root: root)
        return evaluator.nodes(of: segments, from: [JSONPathNode(value: root, path: JSONPathNode.Path())])
    }
}

/// One segment of a query: a selection from each input node's children, or from the node and all its descendants.
enum JSONPathSegment: Sendable {
    /// `[…]`, `.name` or `.*`.
    case child([JSONPathSelector])
    /// `..[…]`, `..name` or `..*`.
    case descendant([JSONPathSelector])

    /// Whether the segment selects at most one node: a child segment of one name or index.
    var isSingular: Bool {
        guard case .child(let selectors) = self, selectors.count == 1 else { return false }
        switch selectors[0] {
        case .name, .index: return true
        default: return false
        }
    }
}

/// One selector of a segment.
enum JSONPathSelector: Sendable {
    /// An object member by name.
    case name(String)
    /// Every child of an array or object.
    case wildcard
    /// An array element by index; negative counts from the end.
    case index(Int)
    /// A slice of an array, `start:end:step`, each part optional.
    case slice(start: Int?, end: Int?, step: Int?)
    /// The children for which the expression holds.
    case filter(JSONPathLogical)
}

/// A logical expression of a filter selector.
indirect enum JSONPathLogical: Sendable {
    case or([JSONPathLogical])
    case and([JSONPathLogical])
    case not(JSONPathLogical)
    case comparison(JSONPathComparable, JSONPathComparison, JSONPathComparable)
    /// An existence test: whether the query selects at least one node.
    case exists(JSONPathFilterQuery)
    /// A function whose result is a logical value (`match`, `search`) or a nodelist (none of the standard ones).
    case function(JSONPathFunctionCall)
}

/// A comparison operator: the same six as flowrun's conditions.
typealias JSONPathComparison = Condition.Operator

/// One side of a comparison.
enum JSONPathComparable: Sendable {
    case literal(JSONValue)
    /// A singular query: its one node's value, or nothing.
    case query(JSONPathFilterQuery)
    /// A function whose result is a value (`length`, `count`, `value`).
    case function(JSONPathFunctionCall)
}

/// A query inside a filter: relative to the current node (`@…`) or to the document (`$…`).
struct JSONPathFilterQuery: Sendable {
    var relative: Bool
    var segments: [JSONPathSegment]

    var isSingular: Bool { segments.allSatisfy(\.isSingular) }
}

/// A call of one of the standard functions, its arguments checked against the function's parameter types.
struct JSONPathFunctionCall: Sendable {
    var function: JSONPathFunction
    var arguments: [JSONPathArgument]
    /// The compiled I-Regexp of a `match` or `search` whose pattern is a literal string; `nil` when the pattern
    /// is computed (then compiled as it is evaluated) or is not a valid I-Regexp (then `invalidPattern` says so).
    var literalPattern: SharedRegex?
    var invalidPattern = false
}

/// An argument of a function call.
enum JSONPathArgument: Sendable {
    case literal(JSONValue)
    case query(JSONPathFilterQuery)
    case logical(JSONPathLogical)
    case function(JSONPathFunctionCall)
}
