/// Scalar and list readers shared by every section of the decoder.
extension WorkflowDecoder {
    /// How the names of a binding mapping are checked.
    enum NameRule {
        /// An identifier: letters, digits, `_` and `-`, starting with a letter or `_`.
        case identifier
        /// An HTTP header field name (a token).
        case header
        /// Any non-empty string (query and form fields).
        case free
    }

    mutating func report(_ code: FlowError.Code, _ message: String, _ node: YAMLNode, key: YAMLNode? = nil) {
        diagnostics.append(Diagnostic(.error, code, message, at: (key ?? node).location))
    }

    mutating func reader(
        _ node: YAMLNode, _ context: String, _ allowed: [String], required: [String] = []
    ) -> MappingReader? {
        MappingReader(node, context, allowed: allowed, required: required, diagnostics: &diagnostics)
    }

    mutating func entries(_ node: YAMLNode, _ context: String) -> [(name: Located<String>, value: YAMLNode)] {
        namedEntries(node, context, diagnostics: &diagnostics) ?? []
    }

    mutating func string(_ node: YAMLNode, _ what: String) -> Located<String>? {
        guard let scalar = node.scalar, case .string(let text) = scalar.value else {
            if let text = node.unquotedExpressionText {
                report(.typeMismatch, YAMLNode.quoteItMessage(text, context: what), node)
            } else {
                report(.typeMismatch, "expected \(what) to be a string, found \(node.kindDescription)", node)
            }
            return nil
        }
        return Located(text, at: node.location)
    }

    mutating func name(_ node: YAMLNode, _ what: String) -> Located<String>? {
        guard let text = string(node, what) else { return nil }
        if !Self.isIdentifier(text.value) {
            report(.invalidValue,
                   "'\(text.value)' is not a valid name for \(what): use letters, digits, '_' and '-', starting with a letter or '_'",
                   node)
            return nil
        }
        return text
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    static func isHeaderName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.isASCIILetter || ("0"..."9").contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0)
        }
    }

    mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        guard case .bool(let value)? = node.scalar?.value else {
            let hint = ["yes", "no", "on", "off", "y", "n"].contains(node.scalar?.text.lowercased() ?? "")
                ? " (YAML 1.2 reads '\(node.scalar!.text)' as a string; write true or false)" : ""
            report(.typeMismatch, "expected \(what) to be true or false, found \(node.kindDescription)\(hint)", node)
            return nil
        }
        return value
    }

    mutating func int(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard case .int(let value)? = node.scalar?.value else {
            report(.typeMismatch, "expected \(what) to be an integer, found \(node.kindDescription)", node)
            return nil
        }
        guard range.contains(value) else {
            let bound = range.upperBound == .max ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            report(.invalidValue, "\(what) must be \(bound), found \(value)", node)
            return nil
        }
        return value
    }

    mutating func number(_ node: YAMLNode, _ what: String) -> Double? {
        switch node.scalar?.value {
        case .int(let value)?: return Double(value)
        case .double(let value)? where value.isFinite: return value
        default:
            report(.typeMismatch, "expected \(what) to be a number, found \(node.kindDescription)", node)
            return nil
        }
    }

    mutating func duration(_ node: YAMLNode, _ what: String) -> Located<Duration>? {
        guard let scalar = node.scalar, case .string(let text) = scalar.value else {
            let hint = node.scalar.map { _ in "; write a unit, such as 5s or 200ms" } ?? ""
            report(.typeMismatch, "expected \(what) to be a duration, found \(node.kindDescription)\(hint)", node)
            return nil
        }
        switch DurationParser.parse(text) {
        case .success(let duration): return Located(duration, at: node.location)
        case .failure(let error):
            report(.invalidValue, "\(error.message) (in \(what))", node)
            return nil
        }
    }

    /// A sequence of names; a single name is accepted as a one-element list.
    mutating func nameList(_ node: YAMLNode, _ what: String) -> [Located<String>] {
        if node.scalar?.value == .null { return [] }
        return (node.sequence ?? [node]).compactMap { name($0, "an entry of \(what)") }
    }

    mutating func template(_ node: YAMLNode) -> ValueTemplate {
        ValueTemplate.compile(node, into: &diagnostics)
    }

    /// A mapping of names to value templates, such as `outputs`, `vars`, `headers` or `set`.
    mutating func bindings(_ node: YAMLNode, _ context: String, names rule: NameRule = .identifier) -> [Binding] {
        entries(node, context).compactMap { entry in
            let valid: Bool
            switch rule {
            case .identifier: valid = Self.isIdentifier(entry.name.value)
            case .header: valid = Self.isHeaderName(entry.name.value)
            case .free: valid = !entry.name.value.isEmpty
            }
            if !valid {
                let expected = switch rule {
                case .header: "a header field name (letters, digits and !#$%&'*+-.^_`|~)"
                case .identifier: "a name of letters, digits, '_' and '-', starting with a letter or '_'"
                case .free: "a name (any text, but not empty)"
                }
                diagnostics.append(Diagnostic(
                    .error, .invalidValue, "'\(entry.name.value)' in \(context) is not \(expected)",
                    at: entry.name.location))
                return nil
            }
            return Binding(name: entry.name, value: template(entry.value))
        }
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is an ASCII letter.
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

extension WorkflowDecoder {
    /// Reports each of `keys` that a step without `owner` has: they only apply to a step with `owner`.
    mutating func reportKeys(_ keys: [String], thatNeed owner: String, in fields: MappingReader, stepID: String) {
        for key in keys where fields.contains(key) {
            report(.invalidValue, "'\(key)' applies to a step with '\(owner)', which step '\(stepID)' is not",
                   fields[key]!, key: fields.keyNode(key))
        }
    }

    /// The whole-value runtime expression that `node`, the value of `key`, holds, with the location of its `$`;
    /// `nil` after reporting anything else (`expecting` says what was expected) or a malformed expression.
    mutating func wholeValueExpression(_ node: YAMLNode, key: String, expecting: String)
        -> (RuntimeExpression, SourceLocation)?
    {
        guard case .string(let text)? = node.scalar?.value, text.hasPrefix("$") else {
            report(.typeMismatch,
                   "expected '\(key)' to be \(expecting), found "
                       + (node.scalar.map { "'\($0.text)'" } ?? node.kindDescription),
                   node)
            return nil
        }
        let quote = node.scalar?.style == .plain ? 0 : 1
        do {
            return (try RuntimeExpression(parsing: text), node.location.advanced(by: quote))
        } catch {
            report(.invalidExpression, "invalid expression in '\(key)': \(error.message)", node)
            diagnostics[diagnostics.count - 1].location = node.location.advanced(by: quote + error.offset)
            return nil
        }
    }
}
