/// A JSON value written in a workflow file, with runtime expressions still to be substituted.
///
/// Request bodies, outputs, variables and fallbacks are written as YAML values that may read
/// run-time data:
///
/// ```yaml
/// body:
///   owner: $steps.user.outputs.userId        # whole-value expression: keeps its JSON type
///   note: "created by {$inputs.name}"        # interpolated string
///   tags: [a, b]                             # literal
/// ```
///
/// ``compile(_:into:)`` turns the YAML node into a template once, when the workflow is compiled;
/// the engine then fills it in for each run with ``evaluate(_:)``.
///
/// A string whose YAML value starts with `$` (but not `$$`) is a whole-value ``expression(_:_:)``;
/// a string that contains `{$` is an interpolated ``string(_:_:)``; anything else, including
/// `$$`-escaped text, is a ``literal(_:)``. A subtree that contains no expression compiles to a
/// single ``literal(_:)``, so evaluating it costs nothing.
package indirect enum ValueTemplate: Hashable, Sendable {
    /// A fixed value.
    case literal(JSONValue)
    /// A whole-value expression, with the location of its `$`; the value keeps its JSON type.
    case expression(RuntimeExpression, SourceLocation)
    /// A string with embedded expressions, with the location that offset 0 of the string's text
    /// maps to (see ``expressions``).
    case string(StringTemplate, SourceLocation)
    /// An array with at least one element that is not literal.
    case array([ValueTemplate])
    /// An object with at least one member that is not literal.
    case object([String: ValueTemplate])

    // MARK: Compiling

    /// Compiles a YAML node into a template, reporting every malformed expression.
    ///
    /// Scalars become JSON by their YAML 1.2 core-schema value: `null`, booleans, integers and
    /// floats stay as they are, and only scalars whose value is a string (plain, quoted or
    /// block) are parsed for expressions. Sequences become arrays and mappings become objects,
    /// keyed by the key scalar's text (`200: User` has the key `"200"`); keys are never parsed.
    ///
    /// Each malformed expression appends an error with code ``FlowError/Code/invalidExpression``
    /// located at the offending character: in a plain scalar on one line at the scalar's column
    /// plus the error offset, in a quoted scalar one further for the opening quote. The column
    /// in a quoted scalar is approximate after an escape sequence (`\"`, `''`), and in a plain or
    /// quoted scalar that spans lines it is exact only on the first line. In a block scalar
    /// (`|`, `>`), whose text starts on a later line, the error points at the scalar itself. The
    /// malformed string compiles to its literal text, so the result is always complete.
    ///
    /// A mapping key that is not a scalar appends a ``FlowError/Code/typeMismatch`` error, and two
    /// keys with the same text a ``FlowError/Code/duplicateKey`` error; the later one is dropped.
    ///
    /// - Parameters:
    ///   - node: The YAML value to compile.
    ///   - diagnostics: The list that errors are appended to.
    /// - Returns: The template.
    package static func compile(_ node: YAMLNode, into diagnostics: inout [Diagnostic]) -> ValueTemplate {
        switch node.content {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return .literal(.null)
            case .bool(let value): return .literal(.bool(value))
            case .int(let value): return .literal(.int(value))
            case .double(let value):
                guard value.isFinite else {
                    diagnostics.append(Diagnostic(
                        .error, .invalidValue,
                        "'\(scalar.text)' is YAML's \(value.isNaN ? "not-a-number" : "infinity"), which has no JSON "
                            + "form; quote it (\"\(scalar.text)\") to mean the text",
                        at: node.location))
                    return .literal(.string(scalar.text))
                }
                return .literal(.double(value))
            case .string(let text):
                return compileString(
                    text, style: scalar.style, at: node.location, source: scalar.source, into: &diagnostics)
            }

        case .sequence(let elements):
            let templates = elements.map { compile($0, into: &diagnostics) }
            var values: [JSONValue] = []
            values.reserveCapacity(templates.count)
            for template in templates {
                guard case .literal(let value) = template else { return .array(templates) }
                values.append(value)
            }
            return .literal(.array(values))

        case .mapping(let pairs):
            if let text = node.unquotedExpressionText {
                // Compiled as the quoted text it was meant to be, so no finding follows from the mistake.
                diagnostics.append(Diagnostic(
                    .error, .typeMismatch, YAMLNode.quoteItMessage(text, context: "the value"), at: node.location))
                return compileString(text, style: .plain, at: node.location, into: &diagnostics)
            }
            var members: [String: ValueTemplate] = [:]
            members.reserveCapacity(pairs.count)
            for pair in pairs {
                guard let key = pair.key.scalar?.text else {
                    diagnostics.append(
                        Diagnostic(
                            .error,
                            .typeMismatch,
                            "a mapping key must be a scalar, not \(pair.key.kindDescription)",
                            at: pair.key.location
                        )
                    )
                    continue
                }
                guard members[key] == nil else {
                    diagnostics.append(Diagnostic(.error, .duplicateKey, "duplicate key '\(key)'", at: pair.key.location))
                    continue
                }
                members[key] = compile(pair.value, into: &diagnostics)
            }
            var values: [String: JSONValue] = [:]
            values.reserveCapacity(members.count)
            for (key, template) in members {
                guard case .literal(let value) = template else { return .object(members) }
                values[key] = value
            }
            return .literal(.object(values))
        }
    }

    /// Compiles a YAML scalar whose value is a string, reporting a malformed expression.
    ///
    /// Use this for fields that must be strings, such as a request path; it classifies and
    /// locates exactly as ``compile(_:into:)`` does.
    ///
    /// - Parameters:
    ///   - node: The YAML node.
    ///   - diagnostics: The list that an error is appended to.
    /// - Returns: The template, or `nil` when the node is not a scalar whose value is a string
    ///   (the caller reports the type mismatch).
    package static func compileString(_ node: YAMLNode, into diagnostics: inout [Diagnostic]) -> ValueTemplate? {
        guard let scalar = node.scalar, case .string(let text) = scalar.value else { return nil }
        return compileString(text, style: scalar.style, at: node.location, source: scalar.source, into: &diagnostics)
    }

    private static func compileString(
        _ text: String,
        style: YAMLScalar.Style,
        at location: SourceLocation,
        source: ScalarSource? = nil,
        into diagnostics: inout [Diagnostic]
    ) -> ValueTemplate {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "$")) else { return .literal(.string(text)) }
        let origin = textOrigin(of: location, style: style)
        /// Where the character at `offset` is written: mapped through the scalar's source when it has one
        /// (the scalar's own location when even that cannot say), else the origin advanced by the offset.
        func place(_ offset: Int) -> SourceLocation {
            guard let source else { return Self.location(ofOffset: offset, in: text, origin: origin) }
            return source.location(ofOffset: offset, in: text, style: style) ?? location
        }
        do throws(ExpressionSyntaxError) {
            var bytes = utf8.makeIterator()
            if bytes.next() == UInt8(ascii: "$"), bytes.next() != UInt8(ascii: "$") {
                return .expression(try ExpressionParser.parseExpression(text), place(0))
            }
            var template = try ExpressionParser.parseTemplate(text)
            if let literal = template.literalText { return .literal(.string(literal)) }
            if source != nil {
                template.expressionLocations = template.segments.compactMap { segment in
                    if case .expression(_, let offset) = segment { place(offset) } else { nil }
                }
            }
            return .string(template, origin)
        } catch {
            let errorLocation = source == nil && (style == .literal || style == .folded) ? location : place(error.offset)
            diagnostics.append(Diagnostic(.error, .invalidExpression, error.message, at: errorLocation))
            return .literal(.string(text))
        }
    }

    /// The location that offset 0 of a scalar's text maps to.
    ///
    /// A quoted scalar's text starts one column after its opening quote. A block scalar's text
    /// starts on a later line at an indentation the node does not record, so its own location
    /// is the best there is.
    static func textOrigin(of location: SourceLocation, style: YAMLScalar.Style) -> SourceLocation {
        switch style {
        case .plain, .literal, .folded: location
        case .singleQuoted, .doubleQuoted: location.advanced(by: 1)
        }
    }

    /// The location of the character at a Unicode-scalar offset in a string's text.
    ///
    /// Offsets map to columns only while the text stays on one line, so when the text holds a
    /// line break (always the case for a block scalar that keeps its final newline) every offset
    /// maps to the origin.
    static func location(ofOffset offset: Int, in text: String, origin: SourceLocation) -> SourceLocation {
        text.utf8.contains(UInt8(ascii: "\n")) ? origin : origin.advanced(by: offset)
    }

    // MARK: Inspecting

    /// Every runtime expression in the template, with the location of its `$`, in document order.
    ///
    /// Locations are computed as ``compile(_:into:)`` computes error locations: the scalar's
    /// column plus the offset (plus one in a quoted scalar), or the scalar's own location for a
    /// string whose text contains a line break, which includes every block scalar that keeps
    /// its final newline. The template does not record the scalar's style, so a block scalar
    /// whose text has no line break (a one-line `|-`, or a `>-` folded into one line) reports
    /// columns counted from its block indicator, which are approximate; its compile errors
    /// still point at the scalar.
    package var expressions: [(RuntimeExpression, SourceLocation)] {
        var found: [(RuntimeExpression, SourceLocation)] = []
        collectExpressions(into: &found)
        // Objects are unordered dictionaries; sorting restores document order.
        var indexed = Array(found.enumerated())
        indexed.sort { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
        return indexed.map(\.element)
    }

    private func collectExpressions(into found: inout [(RuntimeExpression, SourceLocation)]) {
        switch self {
        case .literal:
            break
        case .expression(let expression, let location):
            found.append((expression, location))
        case .string(let template, let origin):
            var text = ""
            for segment in template.segments {
                if case .literal(let literal) = segment { text += literal }
            }
            for (index, segment) in template.segments.enumerated() {
                guard case .expression(let expression, let offset) = segment else { continue }
                let location = template.expressionLocations.isEmpty
                    ? Self.location(ofOffset: offset, in: text, origin: origin)
                    : template.location(ofSegment: index, origin: origin)
                found.append((expression, location))
            }
        case .array(let elements):
            for element in elements { element.collectExpressions(into: &found) }
        case .object(let members):
            for key in members.keys.sorted() { members[key]!.collectExpressions(into: &found) }
        }
    }
}
