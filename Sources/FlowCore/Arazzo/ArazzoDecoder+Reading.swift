extension ArazzoDecoder {
    /// The patterns Arazzo gives names.
    enum NamePattern {
        /// `[A-Za-z0-9_\-]+`, which ids and source names SHOULD follow: a warning when they do not.
        case identifier
        /// `^[a-zA-Z0-9\.\-_]+$`, which output names and components keys MUST follow.
        case componentKey
    }

    /// A reader of an object's fields that allows specification extensions (`x-…`) beside `allowed`, or that
    /// ignores every other field when `ignoringOthers` (a Reusable Object's).
    mutating func reader(
        _ node: YAMLNode, _ context: String, _ allowed: [String], required: [String] = [], ignoringOthers: Bool = false
    ) -> MappingReader? {
        let keys = node.mapping?.compactMap { $0.key.scalar?.text } ?? []
        let extra = keys.filter { ignoringOthers ? !allowed.contains($0) : $0.hasPrefix("x-") }
        return MappingReader(node, context, allowed: allowed + extra, required: required, diagnostics: &diagnostics)
    }

    mutating func report(
        _ code: FlowError.Code, _ message: String, _ node: YAMLNode, severity: Diagnostic.Severity = .error
    ) {
        diagnostics.append(Diagnostic(severity, code, message, at: node.location))
    }

    /// A string field; with `acceptingScalars`, also a number or boolean read as its text (`version: 1.0`).
    mutating func text(_ node: YAMLNode, _ context: String, acceptingScalars: Bool = false) -> Located<String>? {
        if let scalar = node.scalar {
            if case .string(let string) = scalar.value { return Located(string, at: node.location) }
            if acceptingScalars, scalar.value != .null { return Located(scalar.text, at: node.location) }
        }
        report(.typeMismatch, "expected \(context) to be a string, found \(node.kindDescription)", node)
        return nil
    }

    /// A list's elements; an empty one is an error where the specification asks for at least one entry.
    mutating func list(_ node: YAMLNode, _ context: String, atLeastOne: Bool = false) -> [YAMLNode] {
        guard let elements = node.sequence else {
            report(.typeMismatch, "expected \(context) to be a list, found \(node.kindDescription)", node)
            return []
        }
        if atLeastOne, elements.isEmpty { report(.missingKey, "\(context) must have at least one entry", node) }
        return elements
    }

    /// A number scalar's value.
    static func number(_ node: YAMLNode) -> Double? {
        switch node.scalar?.value {
        case .int(let value)?: Double(value)
        case .double(let value)?: value.isFinite ? value : nil
        default: nil
        }
    }

    /// Checks a name against the pattern Arazzo gives it.
    mutating func checkNamePattern(_ name: Located<String>, _ what: String, pattern: NamePattern = .identifier) {
        let allowed: (Unicode.Scalar) -> Bool = { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "-" || (pattern == .componentKey && scalar == ".")
        }
        guard name.value.isEmpty || !name.value.unicodeScalars.allSatisfy(allowed) else { return }
        switch pattern {
        case .identifier:
            diagnostics.append(Diagnostic(
                .warning, .invalidValue,
                "\(what) '\(name.value)' does not follow Arazzo's recommended pattern [A-Za-z0-9_-]+",
                at: name.location))
        case .componentKey:
            diagnostics.append(Diagnostic(
                .error, .invalidValue,
                "\(what) '\(name.value)' must match ^[a-zA-Z0-9.\\-_]+$", at: name.location))
        }
    }

    /// Checks a runtime expression written in `node`'s text at `offset`: an error where it does not parse, a
    /// warning where it parses only leniently.
    mutating func checkExpression(_ text: String, in node: YAMLNode, offset: Int = 0) {
        do {
            let (expression, warning) = try ArazzoExpression.parsingLeniently(text)
            let location = node.location(ofTextOffset: offset)
            if let warning { diagnostics.append(Diagnostic(.warning, .invalidExpression, warning, at: location)) }
            expressionUses.append(ArazzoExpressionUse(
                expression: expression, location: location, workflowID: currentWorkflowID, stepID: currentStepID))
        } catch {
            diagnostics.append(Diagnostic(
                .error, .invalidExpression, error.message, at: node.location(ofTextOffset: offset + error.offset)))
        }
    }

    /// Checks the `{$…}` expressions embedded in a string.
    mutating func checkEmbeddedExpressions(_ text: String, in node: YAMLNode) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index + 1 < scalars.count {
            guard scalars[index] == "{", scalars[index + 1] == "$" else {
                index += 1
                continue
            }
            guard let close = scalars[(index + 1)...].firstIndex(of: "}") else {
                diagnostics.append(Diagnostic(
                    .error, .invalidExpression, "the embedded expression is not closed with '}'",
                    at: node.location(ofTextOffset: index)))
                return
            }
            var expression = String.UnicodeScalarView()
            expression.append(contentsOf: scalars[(index + 1)..<close])
            checkExpression(String(expression), in: node, offset: index + 1)
            index = close + 1
        }
    }

    /// Checks the runtime expressions of a value: every string that is one (`$…`) or embeds some (`{$…}`), at any
    /// depth of a payload.
    mutating func checkValueExpressions(_ node: YAMLNode) {
        if let scalar = node.scalar, case .string(let text) = scalar.value {
            if text.hasPrefix("$") && !text.contains(" ") {
                checkExpression(text, in: node)
            } else if text.contains("{$") {
                checkEmbeddedExpressions(text, in: node)
            }
        }
        for element in node.sequence ?? [] { checkValueExpressions(element) }
        for pair in node.mapping ?? [] { checkValueExpressions(pair.value) }
    }
}
